/**
 * The block ingestor against a real anvil node and a SQLite file: native and ERC-20 rows equal
 * to what the chain source binds, contiguous batches, a restart that resumes from the stored
 * cursor without duplicates, and tracing that sees the ingested activity.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngine, type LedgerTransfer, type Store } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { type Address, custom, type Hash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createBlockIngestor,
  createEvmChainSource,
  type IngestRun,
  ingestorCursorKey,
} from "../src/index.js";
import { type CompiledToken, compileTestToken, startTestChain, type TestChain } from "./anvil-chain.js";

let chain: TestChain;
let token: CompiledToken;
let tokenAddress: Address;
let dir: string;
let a: Address[];

const dbFile = () => join(dir, "ledger.db");

/** Every transaction hash of blocks 0..head, in chain order. */
async function allTxHashes(): Promise<Hash[]> {
  const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
  const hashes: Hash[] = [];
  for (let n = 0n; n <= head; n += 1n) {
    const block = await chain.publicClient.getBlock({ blockNumber: n });
    hashes.push(...block.transactions);
  }
  return hashes;
}

/** Runs batches until the ingestor reached the last final block; returns the runs. */
async function catchUp(ingestor: { runOnce(): Promise<IngestRun> }): Promise<IngestRun[]> {
  const runs: IngestRun[] = [];
  for (;;) {
    const run = await ingestor.runOnce();
    runs.push(run);
    if (run.toBlock >= run.safeHead) return runs;
  }
}

/** The ingested rows of every transaction, compared with what the chain source binds. */
async function expectLedgerMatchesChainSource(store: Store): Promise<LedgerTransfer[]> {
  const source = createEvmChainSource({ rpcUrl: chain.rpcUrl, retry: { count: 0 } });
  const all: LedgerTransfer[] = [];
  for (const hash of await allTxHashes()) {
    const lookup = await source.lookup("ETH", hash);
    const expected = lookup.kind === "found" ? lookup.transfers : [];
    const stored = await store.ledgerByTxHash("ETH", hash.toLowerCase());
    expect(stored, `ledger rows of ${hash}`).toEqual(expected);
    all.push(...stored);
  }
  return all;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "chain-evm-ingest-"));
  token = compileTestToken();
  chain = await startTestChain();
  a = [...chain.accounts];
  const [alice, bob, carol] = a as [Address, Address, Address];
  tokenAddress = await chain.deployToken(token, alice, "Test Dollar", "TUSD");
  await chain.receipt(await chain.call(alice, tokenAddress, token.abi, "mint", [alice, 500_000_000n]));
  await chain.receipt(await chain.sendNative(alice, bob, "1.5"));
  await chain.receipt(await chain.call(alice, tokenAddress, token.abi, "transfer", [bob, 250_000_000n]));
  await chain.receipt(await chain.call(bob, tokenAddress, token.abi, "transfer", [carol, 1_500_000n]));
  // Reverted, with value attached: neither the value nor a token transfer may reach the ledger.
  await chain.receipt(
    await chain.call(carol, tokenAddress, token.abi, "transfer", [bob, 10n ** 30n], 200_000n, 10n ** 18n),
  );
  await chain.receipt(await chain.sendNative(bob, carol, "0.25"));
});

afterAll(async () => {
  await chain?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("createBlockIngestor on anvil", () => {
  it("ingests native and ERC-20 transfers in contiguous batches, as the chain source binds them", async () => {
    const store = await createSqliteStore({ filename: dbFile() });
    try {
      const ingestor = createBlockIngestor({ store, rpcUrl: chain.rpcUrl, startBlock: 0, batchBlocks: 3 });
      const runs = await catchUp(ingestor);
      expect(runs[0]?.fromBlock).toBe(0);
      for (let i = 1; i < runs.length; i += 1)
        expect(runs[i]?.fromBlock).toBe((runs[i - 1]?.toBlock ?? 0) + 1);
      const head = Number(await chain.publicClient.getBlockNumber({ cacheTime: 0 }));
      expect(await ingestor.cursor()).toBe(head);
      expect(await store.getSetting(ingestorCursorKey("ETH"))).toBe(String(head));

      const rows = await expectLedgerMatchesChainSource(store);
      const summary = rows.map((r) => [r.tokenId === "native" ? "ETH" : "TUSD", r.from, r.to, r.amount]);
      const [alice, bob, carol] = a.map((x) => x.toLowerCase()) as [string, string, string];
      const zero = `0x${"0".repeat(40)}`;
      expect(summary).toEqual([
        ["TUSD", zero, alice, 500],
        ["ETH", alice, bob, 1.5],
        ["TUSD", alice, bob, 250],
        ["TUSD", bob, carol, 1.5],
        ["ETH", bob, carol, 0.25],
      ]);
      expect(runs.reduce((n, r) => n + r.inserted, 0)).toBe(5);
      const again = await ingestor.runOnce();
      expect(again).toMatchObject({ fromBlock: head + 1, toBlock: head, transfers: 0 });
    } finally {
      await store.close();
    }
  });

  it("resumes after a restart from the stored cursor, without gaps or duplicates", async () => {
    const [alice, , carol, dave] = a as [Address, Address, Address, Address];
    const before = Number(await chain.publicClient.getBlockNumber({ cacheTime: 0 }));
    await chain.receipt(await chain.sendNative(carol, dave, "0.75"));
    await chain.receipt(await chain.call(alice, tokenAddress, token.abi, "transfer", [dave, 3_000_000n]));

    const store = await createSqliteStore({ filename: dbFile() });
    try {
      const ingestor = createBlockIngestor({ store, rpcUrl: chain.rpcUrl, startBlock: 0, batchBlocks: 50 });
      const [run] = await catchUp(ingestor);
      expect(run).toMatchObject({ fromBlock: before + 1, toBlock: before + 2, transfers: 2, inserted: 2 });
      const rows = await expectLedgerMatchesChainSource(store);
      expect(rows).toHaveLength(7);

      // Reading the same blocks again (a cursor set back by hand) inserts nothing new.
      await store.putSetting(ingestor.cursorKey, "0");
      const reread = await catchUp(ingestor);
      expect(reread.reduce((n, r) => n + r.transfers, 0)).toBe(7);
      expect(reread.reduce((n, r) => n + r.inserted, 0)).toBe(0);
      expect(await expectLedgerMatchesChainSource(store)).toHaveLength(7);
    } finally {
      await store.close();
    }
  });

  it("reads receipts one by one from a node without eth_getBlockReceipts", async () => {
    // The real node behind a provider that refuses eth_getBlockReceipts as "method not found".
    const refusing = custom({
      async request({ method, params }: { method: string; params?: unknown }) {
        if (method === "eth_getBlockReceipts") {
          throw Object.assign(new Error("the method eth_getBlockReceipts does not exist"), { code: -32601 });
        }
        return chain.publicClient.request({ method, params } as never);
      },
    });
    const store = await createSqliteStore({ filename: ":memory:" });
    try {
      await catchUp(createBlockIngestor({ store, transport: refusing, startBlock: 0, retry: { count: 0 } }));
      const rows = await expectLedgerMatchesChainSource(store);
      expect(rows.filter((r) => r.tokenId === "native").map((r) => r.amount)).toEqual([1.5, 0.25, 0.75]);
    } finally {
      await store.close();
    }
  });

  it("stays `confirmations - 1` blocks behind the head", async () => {
    const store = await createSqliteStore({ filename: ":memory:" });
    try {
      const ingestor = createBlockIngestor({ store, rpcUrl: chain.rpcUrl, startBlock: 0, confirmations: 3 });
      const head = Number(await chain.publicClient.getBlockNumber({ cacheTime: 0 }));
      const run = await ingestor.runOnce();
      expect(run).toMatchObject({ fromBlock: 0, toBlock: head - 2, safeHead: head - 2 });
      await chain.mine(2);
      expect(await ingestor.runOnce()).toMatchObject({ fromBlock: head - 1, toBlock: head });
    } finally {
      await store.close();
    }
  });

  it("without a start block or cursor, starts at the last final block", async () => {
    const store = await createSqliteStore({ filename: ":memory:" });
    try {
      const head = Number(await chain.publicClient.getBlockNumber({ cacheTime: 0 }));
      const run = await createBlockIngestor({ store, rpcUrl: chain.rpcUrl }).runOnce();
      expect(run).toMatchObject({ fromBlock: head, toBlock: head });
    } finally {
      await store.close();
    }
  });

  it("follows new blocks in the background until stopped", async () => {
    const [, bob, , , erin] = a as [Address, Address, Address, Address, Address];
    const store = await createSqliteStore({ filename: ":memory:" });
    const head = Number(await chain.publicClient.getBlockNumber({ cacheTime: 0 }));
    const ingestor = createBlockIngestor({ store, rpcUrl: chain.rpcUrl, startBlock: head + 1, pollMs: 20 });
    try {
      ingestor.start();
      const hash = await chain.sendNative(bob, erin, "0.125");
      await chain.receipt(hash);
      const deadline = Date.now() + 10_000;
      let rows = await store.ledgerByTxHash("ETH", hash.toLowerCase());
      while (rows.length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        rows = await store.ledgerByTxHash("ETH", hash.toLowerCase());
      }
      expect(rows.map((r) => r.amount)).toEqual([0.125]);
    } finally {
      await ingestor.stop();
      await store.close();
    }
    expect(await ingestor.stop()).toBeUndefined();
  });

  it("feeds tracing: a deposit's origin of funds reaches an attributed address two hops back", async () => {
    const [, , , , , frank, grace, heidi] = a as Address[] as [
      Address,
      Address,
      Address,
      Address,
      Address,
      Address,
      Address,
      Address,
    ];
    const store = await createSqliteStore({ filename: ":memory:" });
    try {
      const start = Number(await chain.publicClient.getBlockNumber({ cacheTime: 0 })) + 1;
      await chain.receipt(await chain.sendNative(frank, grace, "3"));
      await chain.increaseTime(60); // blocks of one second share a timestamp: make the next one later
      const deposit = await chain.sendNative(grace, heidi, "1");
      await chain.receipt(deposit);
      await createBlockIngestor({ store, rpcUrl: chain.rpcUrl, startBlock: start }).runOnce();

      const engine = createEngine({ store });
      await engine.reference.loadAttributions([
        {
          network: "ETH",
          address: frank,
          entityName: "Lucky Dice",
          entityCategory: "gambling",
          source: "test",
        },
      ]);
      const kyt = engine.forAccount("acme");
      const { transfer } = await kyt.registerTransfer({
        direction: "incoming",
        network: "ETH",
        tx_hash: deposit,
        token_id: "native",
        output_address: heidi,
      });
      await engine.drain();
      const bound = await store.getTransfer(transfer.id);
      expect(bound).toMatchObject({ txStatus: "bound", amount: 1, inputAddress: grace.toLowerCase() });
      const gambling = bound?.exposure?.shares.find((s) => s.category === "gambling");
      expect(gambling).toMatchObject({ proximity: "indirect", share: 1 });
    } finally {
      await store.close();
    }
  });
});
