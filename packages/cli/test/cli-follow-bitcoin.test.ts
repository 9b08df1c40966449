/**
 * `openkyt follow BTC` and `openkyt serve --chain BTC=...` end to end on a real regtest node
 * (bcoin 1.0.2 in this process, as chain-bitcoin's tests run it; the CLI as processes): a
 * deposit sent after both started is bound and checked over HTTP within seconds with no import,
 * and the follower wrote its transaction into the UTXO ledger; a reorganisation (the deposit's
 * block invalidated, its coin spent otherwise in a longer chain) undoes the replaced
 * transactions. A node of another chain refuses to start, without printing its credentials.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Coin,
  type RegtestNode,
  startRegtest,
  type Wallet,
} from "../../chain-bitcoin/test/bcoin-regtest.js";
import { createKytClient } from "../../client/src/index.js";
import { exited, firstLine, runInProcess, start, until, withStore } from "./cli-process.js";

const KEY = { keyId: "follow-btc-key-01", secret: "follow-btc-secret-0123456789", account: "acme" };
const BTC = 100_000_000;
const FEE = 10_000;

let dir: string;
let chain: RegtestNode;
let miner: Wallet;
/** The node's RPC URL with its credentials (bcoin: any user, the API key as password). */
let rpcUrl: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "openkyt-follow-btc-"));
  chain = await startRegtest();
  miner = chain.wallet("miner");
  rpcUrl = chain.url.replace("http://", "http://x:openkyt-regtest@");
  await chain.mine(101, miner); // coinbase 1 matures at 101
}, 60_000);

afterAll(async () => {
  await chain?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A wallet's address in Bitcoin's mainnet form: the form the API takes and the CLI writes. */
const mainnetAddress = (w: Wallet): string => w.ring.getAddress("string", "main");

const inLedger = (db: string, txid: string) =>
  withStore(db, async (s) => (await s.utxoTransactions("BTC", [txid])).length === 1);

describe("openkyt follow BTC on a bcoin regtest node", () => {
  it("binds a deposit sent after both started, then undoes it when a reorganisation replaces its block", async () => {
    const db = join(dir, "live.db");
    expect((await runInProcess(["migrate", "--db", db])).code).toBe(0);
    const tip = Number(await chain.rpc("getblockcount", []));
    const follower = start([
      "follow",
      "BTC",
      "--rpc",
      rpcUrl,
      "--from-block",
      String(tip),
      "--poll-ms",
      "50",
      "--db",
      db,
      "--json",
    ]);
    const server = start(
      ["serve", "--port", "0", "--db", db, "--json", "--chain", `BTC=${rpcUrl}`, "--bind-poll-ms", "200"],
      { OPENKYT_API_KEYS: `${KEY.keyId}:${KEY.secret}:${KEY.account}` },
    );
    let stderr = "";
    follower.stderr?.on("data", (d) => {
      stderr += d;
    });
    try {
      const started = JSON.parse(await firstLine(follower));
      expect(started).toMatchObject({ follow: "BTC", confirmations: 1 });
      expect(started.node).toMatch(/^http:\/\/\*\*\*@127\.0\.0\.1:\d+$/);
      const { url } = JSON.parse(await firstLine(server)) as { url: string };
      const deposit = chain.wallet("deposit");
      const other = chain.wallet("other");
      const reward: Coin = await chain.coinbaseCoin(1, miner);
      const sent = await chain.send(
        [reward],
        [
          [deposit, 2.5 * BTC],
          [miner, reward.value - 2.5 * BTC - FEE],
        ],
      );
      await chain.mine(1, miner);
      const sentAt = Date.now();
      const client = createKytClient({ baseUrl: url, keyId: KEY.keyId, secret: KEY.secret });
      const { id } = await client.registerTransfer({
        direction: "incoming",
        network: "BTC",
        tx_hash: sent.txid,
        output_address: mainnetAddress(deposit),
      });
      const done = await client.waitUntilChecked(id, { timeoutMs: 10_000, intervalMs: 50 });
      expect(done).toMatchObject({ tx_status: "bound", amount: 2.5 });
      expect(Date.now() - sentAt).toBeLessThan(10_000);
      // The follower wrote the transaction into the UTXO ledger: tracing sees it, with no import.
      await until("the follower to write the deposit", () => inLedger(db, sent.txid));
      const written = await withStore(db, async (s) => (await s.utxoTransactions("BTC", [sent.txid]))[0]);
      expect(written?.outputs.map((o) => [o.address, o.value])).toEqual([
        [mainnetAddress(deposit), 2.5 * BTC],
        [mainnetAddress(miner), reward.value - 2.5 * BTC - FEE],
      ]);
      expect(written?.inputs).toMatchObject([{ prevTxid: reward.txid, address: mainnetAddress(miner) }]);

      // A reorganisation: the deposit's block replaced by a longer chain spending its coin otherwise.
      await chain.rpc("invalidateblock", [await chain.rpc("getbestblockhash", [])]);
      await chain.node.mempool.reset();
      const replacement = await chain.send([reward], [[other, reward.value - FEE]]);
      await chain.mine(2, miner);
      const newTip = Number(await chain.rpc("getblockcount", []));
      await until("the follower to undo the replaced block and write the new chain", async () =>
        withStore(
          db,
          async (s) =>
            (await s.utxoTransactions("BTC", [sent.txid])).length === 0 &&
            (await s.utxoTransactions("BTC", [replacement.txid])).length === 1 &&
            (await s.followedHead("BTC"))?.height === newTip,
        ),
      );
      const followed = await withStore(db, async (s) => (await s.followedBlock("BTC", newTip))?.hash);
      expect(followed).toBe(await chain.rpc("getblockhash", [newTip]));
      expect(stderr).toMatch(/reorganisation: blocks from \d+ replaced, 1 blocks and 2 rows undone/);
      follower.kill("SIGTERM");
      server.kill("SIGTERM");
      expect(await exited(follower)).toBe(0);
      expect(await exited(server)).toBe(0);
    } finally {
      follower.kill("SIGKILL");
      server.kill("SIGKILL");
    }
  }, 60_000);

  it("refuses to start against a node of another chain, naming both, without its credentials", async () => {
    const follow = await runInProcess(["follow", "LTC", "--rpc", rpcUrl, "--db", join(dir, "wrong.db")]);
    expect(follow.code).toBe(1);
    expect(follow.err).toMatch(
      /LTC node at http:\/\/\*\*\*@127\.0\.0\.1:\d+: the node's genesis block 0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206 is not LTC's \(main, test or regtest\): it is a BTC node; refusing to start/,
    );
    const serve = await runInProcess([
      "serve",
      "--port",
      "0",
      "--db",
      join(dir, "wrong.db"),
      "--chain",
      `LTC=${rpcUrl}`,
    ]);
    expect(serve.code).toBe(1);
    expect(serve.err).toMatch(
      /LTC node at http:\/\/\*\*\*@127\.0\.0\.1:\d+: .* it is a BTC node; refusing to start/,
    );
    expect(follow.err + follow.out + serve.err + serve.out).not.toContain("openkyt-regtest");
  }, 30_000);
});
