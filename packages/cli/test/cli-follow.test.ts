/**
 * `openkyt follow` and `openkyt serve --chain` end to end on a real anvil node (chain id 1, so it
 * passes as ETH): a deposit sent after both started is bound and checked over HTTP within
 * seconds with no import; a reorganisation (a snapshot reverted, a different block mined) undoes
 * the replaced block's rows; a follower SIGKILLed at random points of a backfill loses and
 * duplicates no row; a node of another chain refuses to start.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEvmBlockSource } from "@openkyt/chain-evm";
import type { LedgerTransfer } from "@openkyt/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestChain, type TestChain } from "../../chain-evm/test/anvil-chain.js";
import { startTronFixture } from "../../chain-tron/test/tron-node-fixture.js";
import { createKytClient } from "../../client/src/index.js";
import { exited, firstLine, runInProcess, start, until, withStore } from "./cli-process.js";

const KEY = { keyId: "follow-key-01", secret: "follow-secret-0123456789", account: "acme" };

let dir: string;
let chain: TestChain;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "openkyt-follow-"));
  chain = await startTestChain({ chainId: 1 });
}, 60_000);

afterAll(async () => {
  await chain?.stop();
  await rm(dir, { recursive: true, force: true });
});

const key = (r: LedgerTransfer) => `${r.txHash}/${r.logIndex}`;

describe("openkyt follow on anvil", () => {
  it("a deposit sent after the follower and the server started is bound and checked within seconds", async () => {
    const db = join(dir, "live.db");
    expect((await runInProcess(["migrate", "--db", db])).code).toBe(0);
    const head = Number(await chain.publicClient.getBlockNumber());
    const follower = start([
      "follow",
      "ETH",
      "--rpc",
      chain.rpcUrl,
      "--from-block",
      String(head),
      "--poll-ms",
      "50",
      "--db",
      db,
      "--json",
    ]);
    const server = start(
      [
        "serve",
        "--port",
        "0",
        "--db",
        db,
        "--json",
        "--chain",
        `ETH=${chain.rpcUrl}`,
        "--bind-poll-ms",
        "200",
      ],
      { OPENKYT_API_KEYS: `${KEY.keyId}:${KEY.secret}:${KEY.account}` },
    );
    try {
      expect(JSON.parse(await firstLine(follower))).toMatchObject({ follow: "ETH", confirmations: 1 });
      const { url } = JSON.parse(await firstLine(server)) as { url: string };
      const [from, to] = [chain.accounts[0], chain.accounts[5]];
      if (!from || !to) throw new Error("anvil has funded accounts");
      const hash = await chain.sendNative(from, to, "2.5");
      const sentAt = Date.now();
      const client = createKytClient({ baseUrl: url, keyId: KEY.keyId, secret: KEY.secret });
      const { id } = await client.registerTransfer({
        direction: "incoming",
        network: "ETH",
        tx_hash: hash,
        output_address: to.toLowerCase(),
      });
      const done = await client.waitUntilChecked(id, { timeoutMs: 10_000, intervalMs: 50 });
      expect(done).toMatchObject({ tx_status: "bound", amount: 2.5 });
      expect(Date.now() - sentAt).toBeLessThan(10_000);
      // The follower wrote the same transfer into the ledger: tracing sees it, with no import.
      await until("the follower to write the deposit", () =>
        withStore(db, async (s) => (await s.ledgerByTxHash("ETH", hash)).length === 1),
      );
      follower.kill("SIGTERM");
      server.kill("SIGTERM");
      expect(await exited(follower)).toBe(0);
      expect(await exited(server)).toBe(0);
    } finally {
      follower.kill("SIGKILL");
      server.kill("SIGKILL");
    }
  }, 90_000);

  it("undoes the rows of a block a reorganisation replaced", async () => {
    const db = join(dir, "reorg.db");
    expect((await runInProcess(["migrate", "--db", db])).code).toBe(0);
    const head = Number(await chain.publicClient.getBlockNumber());
    const follower = start([
      "follow",
      "ETH",
      "--rpc",
      chain.rpcUrl,
      "--from-block",
      String(head),
      "--poll-ms",
      "50",
      "--db",
      db,
      "--json",
      "--metrics-port",
      "0",
    ]);
    let stderr = "";
    follower.stderr?.on("data", (d) => {
      stderr += d;
    });
    try {
      const { metrics } = JSON.parse(await firstLine(follower)) as { metrics: string };
      const [from, a, b] = [chain.accounts[1], chain.accounts[6], chain.accounts[7]];
      if (!from || !a || !b) throw new Error("anvil has funded accounts");
      const snapshot = await chain.snapshot();
      const replaced = await chain.sendNative(from, a, "1");
      await until("the follower to write the first chain's block", () =>
        withStore(db, async (s) => (await s.ledgerByTxHash("ETH", replaced)).length === 1),
      );
      await chain.revert(snapshot);
      const kept = await chain.sendNative(from, b, "3");
      await chain.mine(1);
      await until("the follower to undo the replaced block and write the new one", () =>
        withStore(
          db,
          async (s) =>
            (await s.ledgerByTxHash("ETH", replaced)).length === 0 &&
            (await s.ledgerByTxHash("ETH", kept)).length === 1,
        ),
      );
      const tip = Number(await chain.publicClient.getBlockNumber());
      await until("the follower to reach the new head", () =>
        withStore(db, async (s) => (await s.followedHead("ETH"))?.height === tip),
      );
      const hashes = await withStore(db, async (s) => (await s.followedBlock("ETH", tip))?.hash);
      expect(hashes).toBe((await chain.publicClient.getBlock({ blockNumber: BigInt(tip) })).hash);
      expect(stderr).toMatch(/reorganisation: blocks from \d+ replaced, 1 blocks and 1 rows undone/);
      // Caught up: ready, and the metrics say what happened.
      const text = await (await fetch(metrics)).text();
      expect(text).toMatch(/openkyt_follow_reorgs_total\{network="ETH"\} 1/);
      expect(text).toMatch(/openkyt_follow_head_lag_blocks\{network="ETH"\} 0/);
      expect(text).toMatch(/openkyt_follow_cursor_block\{network="ETH"\} \d+/);
      expect(text).toMatch(/openkyt_follow_rows_total\{network="ETH"\} \d+/);
      expect(text).toMatch(/openkyt_follow_source_errors_total\{network="ETH"\} 0/);
      expect((await fetch(metrics.replace(/\/metrics$/, "/readyz"))).status).toBe(200);
      follower.kill("SIGTERM");
      expect(await exited(follower)).toBe(0);
    } finally {
      follower.kill("SIGKILL");
    }
  }, 90_000);

  it("loses and duplicates no row when SIGKILLed at random points of a backfill", async () => {
    const db = join(dir, "kill.db");
    expect((await runInProcess(["migrate", "--db", db])).code).toBe(0);
    const first = Number(await chain.publicClient.getBlockNumber()) + 1;
    const senders = chain.accounts.slice(0, 4);
    let lastSent: Awaited<ReturnType<typeof chain.sendNative>> | undefined;
    for (let i = 0; i < 80; i++) {
      const from = senders[i % senders.length];
      const to = chain.accounts[8 + (i % 2)];
      if (!from || !to) throw new Error("anvil has funded accounts");
      lastSent = await chain.sendNative(from, to, `0.${String(i + 1).padStart(3, "0")}`);
    }
    if (!lastSent) throw new Error("80 transfers were sent");
    // anvil answers eth_sendTransaction before its block number moves: the last block is the one
    // the last transfer's receipt names, not the head read right after sending (which can be one
    // short, and then the follower's head never equals it).
    const { blockNumber } = await chain.publicClient.waitForTransactionReceipt({
      hash: lastSent,
      pollingInterval: 20,
    });
    const last = Number(blockNumber);
    const args = [
      "follow",
      "ETH",
      "--rpc",
      chain.rpcUrl,
      "--from-block",
      String(first),
      "--batch-blocks",
      "2",
    ];
    let kills = 0;
    for (let round = 0; round < 3; round++) {
      const follower = start([...args, "--poll-ms", "50", "--db", db, "--json"]);
      await firstLine(follower).catch(() => undefined);
      const cursor = await withStore(db, async (s) => (await s.followedHead("ETH"))?.height ?? -1);
      if (cursor >= last) {
        follower.kill("SIGKILL");
        await exited(follower);
        break;
      }
      await new Promise((r) => setTimeout(r, 100 + Math.floor(Math.random() * 700)));
      follower.kill("SIGKILL");
      await exited(follower);
      kills += 1;
    }
    // Whatever was left, a last run finishes the backfill.
    const follower = start([...args, "--poll-ms", "50", "--db", db, "--json"]);
    try {
      // Its first line says it is running (signal handlers set): a SIGTERM before that would
      // meet Node's default handler when the killed runs already finished the backfill.
      await firstLine(follower);
      await until("the backfill to finish", () =>
        withStore(db, async (s) => (await s.followedHead("ETH"))?.height === last),
      );
      follower.kill("SIGTERM");
      expect(await exited(follower)).toBe(0);
    } finally {
      follower.kill("SIGKILL");
    }
    expect(kills).toBeGreaterThan(0);
    const source = createEvmBlockSource({ rpcUrl: chain.rpcUrl, network: "ETH" });
    const expected = await source.readBlocks(first, last);
    await withStore(db, async (s) => {
      const scan = await s.scanLedger?.(0, 1_000_000);
      const rows = (scan?.rows ?? []).filter((r) => r.block !== null && r.block >= first);
      expect(rows.map(key).sort()).toEqual(expected.transfers.map(key).sort());
      expect(rows).toHaveLength(80);
      for (let h = first; h <= last; h++) {
        expect((await s.followedBlock("ETH", h))?.hash).toBe(expected.blocks[h - first]?.hash);
      }
    });
  }, 180_000);

  it("refuses to start against a node of another chain, naming both, without its credentials", async () => {
    const other = await startTestChain();
    try {
      const url = `${other.rpcUrl}/?apikey=do-not-print-me`;
      const follow = await runInProcess(["follow", "ETH", "--rpc", url, "--db", join(dir, "wrong.db")]);
      expect(follow.code).toBe(1);
      expect(follow.err).toMatch(
        /ETH node at http:\/\/127\.0\.0\.1:\d+\?\*\*\*: the node serves chain id 31337, not ETH \(chain id 1\); refusing to start/,
      );
      const serve = await runInProcess([
        "serve",
        "--port",
        "0",
        "--db",
        join(dir, "wrong.db"),
        "--chain",
        `ETH=${url}`,
      ]);
      expect(serve.code).toBe(1);
      expect(serve.err).toMatch(/chain id 31337, not ETH/);
      expect(follow.err + follow.out + serve.err + serve.out).not.toContain("do-not-print-me");
    } finally {
      await other.stop();
    }
  }, 60_000);

  it("follows TRX from a Tron full node's HTTP API: TRX and USDT-TRC20 rows, not the reverted transfer", async () => {
    const tron = await startTronFixture();
    const db = join(dir, "tron.db");
    const follower = start([
      "follow",
      "TRX",
      "--rpc",
      tron.url,
      "--from-block",
      "98",
      "--confirmations",
      "2",
      "--db",
      db,
    ]);
    let stderr = "";
    follower.stderr?.on("data", (d) => {
      stderr += d;
    });
    try {
      expect(await firstLine(follower)).toMatch(
        /^openkyt following TRX at http:\/\/127\.0\.0\.1:\d+ into .*tron\.db \(2 confirmations\)$/,
      );
      await until("the follower to catch up", async () =>
        stderr.includes("TRX: caught up at block 99 (head 100)"),
      );
      follower.kill("SIGTERM");
      expect(await exited(follower)).toBe(0);
      const rows = await withStore(db, async (s) => (await s.scanLedger?.(0, 100))?.rows ?? []);
      expect(rows.map((r) => [r.tokenId, r.amount, r.block])).toEqual([
        ["native", 12.5, 98],
        ["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", 1500.25, 98],
      ]);
    } finally {
      follower.kill("SIGKILL");
      await tron.close();
    }
  }, 60_000);
});
