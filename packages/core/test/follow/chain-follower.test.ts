/**
 * The chain follower over a simulated chain (a block tree whose tip can be replaced, as a node's
 * can) and the memory store: resumes from its cursor, writes only final blocks, undoes replaced
 * blocks, and, whatever the sequence of mining, reorganisations and steps, ends with the ledger
 * holding exactly the rows of the node's current chain up to its last final block.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BlockSource,
  createChainFollower,
  createMemoryStore,
  KytError,
  type LedgerTransfer,
  type SourceBlock,
  type Store,
  silentLogger,
} from "../../src/index.js";

/** A simulated node: its current chain, each block with its rows. */
class SimulatedChain implements BlockSource {
  readonly network = "ETH";
  readonly blocks: Array<{ block: SourceBlock; rows: LedgerTransfer[] }> = [];
  private forks = 0;
  failNext = 0;

  constructor() {
    this.mine(0);
  }

  /** Mines a block with `rows` transfers. */
  mine(rows: number): void {
    const height = this.blocks.length;
    const parent = this.blocks[height - 1]?.block.hash ?? "0xgenesis-parent";
    const hash = `0x${height}-${this.forks}`;
    const block = { height, hash, parentHash: parent, time: 1_700_000_000_000 + height * 12_000 };
    const made = Array.from({ length: rows }, (_, i) => ({
      network: this.network,
      txHash: `0x${hash}-tx${i}`,
      logIndex: i,
      tokenId: "native",
      from: `0xfrom${i}`,
      to: `0xto${height}`,
      amount: i + 1,
      occurredAt: block.time,
      block: height,
      valueUsd: null,
    }));
    this.blocks.push({ block, rows: made });
  }

  /** Replaces the last `depth` blocks (a reorganisation), with blocks of other hashes and rows. */
  reorg(depth: number, rows: number): void {
    const keep = Math.max(1, this.blocks.length - depth);
    const replaced = this.blocks.length - keep;
    this.blocks.length = keep;
    this.forks += 1;
    for (let i = 0; i < replaced; i++) this.mine(rows);
  }

  private check(): void {
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new KytError("CHAIN_ERROR", "ETH node: connection refused");
    }
  }

  async head(): Promise<number> {
    this.check();
    return this.blocks.length - 1;
  }

  async blockHash(height: number): Promise<string | null> {
    this.check();
    return this.blocks[height]?.block.hash ?? null;
  }

  async readBlocks(from: number, to: number) {
    this.check();
    const picked = this.blocks.slice(from, to + 1);
    return { blocks: picked.map((b) => b.block), transfers: picked.flatMap((b) => b.rows) };
  }

  /** The rows the ledger should hold from `from` to the last block with `confirmations`. */
  expectedRows(from: number, confirmations: number): LedgerTransfer[] {
    const safeHead = this.blocks.length - confirmations;
    return this.blocks.slice(from, safeHead + 1).flatMap((b) => b.rows);
  }
}

async function ledgerOf(store: Store, chain: SimulatedChain): Promise<LedgerTransfer[]> {
  const scan = await store.scanLedger?.(0, 1_000_000);
  if (!scan) throw new Error("the memory store scans its ledger");
  return [...scan.rows].filter((r) => r.network === chain.network);
}

const byKey = (rows: ReadonlyArray<LedgerTransfer>) => rows.map((r) => `${r.txHash}/${r.logIndex}`).sort();

async function catchUp(follower: ReturnType<typeof createChainFollower>): Promise<void> {
  for (let i = 0; i < 1_000; i++) {
    if ((await follower.step()).kind === "idle") return;
  }
  throw new Error("the follower never caught up");
}

describe("chain follower", () => {
  it("backfills from --from-block in batches, writing only blocks with enough confirmations", async () => {
    const chain = new SimulatedChain();
    for (let i = 0; i < 30; i++) chain.mine(2);
    const store = createMemoryStore();
    const follower = createChainFollower({
      store,
      source: chain,
      fromBlock: 5,
      confirmations: 3,
      batchBlocks: 10,
    });
    const first = await follower.step();
    expect(first).toMatchObject({ kind: "blocks", from: 5, to: 14, transfers: 20, inserted: 20, head: 30 });
    await catchUp(follower);
    expect(await store.followedHead("ETH")).toMatchObject({ height: 28 });
    expect(byKey(await ledgerOf(store, chain))).toEqual(byKey(chain.expectedRows(5, 3)));
    chain.mine(1);
    expect(await follower.step()).toMatchObject({ kind: "blocks", from: 29, to: 29 });
  });

  it("starts at the last final block when there is no cursor and no --from-block", async () => {
    const chain = new SimulatedChain();
    for (let i = 0; i < 10; i++) chain.mine(1);
    const store = createMemoryStore();
    const follower = createChainFollower({ store, source: chain, confirmations: 2 });
    expect(await follower.step()).toMatchObject({ kind: "blocks", from: 9, to: 9 });
    expect(await follower.step()).toMatchObject({ kind: "idle", cursor: 9 });
  });

  it("resumes a new follower from the stored cursor, ignoring --from-block", async () => {
    const chain = new SimulatedChain();
    for (let i = 0; i < 20; i++) chain.mine(1);
    const store = createMemoryStore();
    await createChainFollower({ store, source: chain, fromBlock: 0, batchBlocks: 7 }).step();
    const again = createChainFollower({ store, source: chain, fromBlock: 3, batchBlocks: 7 });
    expect(await again.step()).toMatchObject({ kind: "blocks", from: 7, to: 13 });
    await catchUp(again);
    expect(byKey(await ledgerOf(store, chain))).toEqual(byKey(chain.expectedRows(0, 1)));
  });

  it("undoes the rows of replaced blocks and writes the new chain's", async () => {
    const chain = new SimulatedChain();
    for (let i = 0; i < 10; i++) chain.mine(2);
    const store = createMemoryStore();
    const follower = createChainFollower({ store, source: chain, fromBlock: 0 });
    await catchUp(follower);
    chain.reorg(3, 1);
    expect(await follower.step()).toEqual({
      kind: "reorg",
      from: 8,
      removedBlocks: 3,
      removedTransfers: 6,
      head: 10,
    });
    await catchUp(follower);
    expect(byKey(await ledgerOf(store, chain))).toEqual(byKey(chain.expectedRows(0, 1)));
  });

  it("waits for a node that is behind its cursor instead of undoing blocks", async () => {
    const chain = new SimulatedChain();
    for (let i = 0; i < 5; i++) chain.mine(1);
    const store = createMemoryStore();
    const follower = createChainFollower({ store, source: chain, fromBlock: 0 });
    await catchUp(follower);
    const tip = chain.blocks.pop();
    expect(await follower.step()).toMatchObject({ kind: "idle", cursor: 5, head: 4 });
    if (tip) chain.blocks.push(tip);
    expect(await follower.step()).toMatchObject({ kind: "idle", cursor: 5 });
  });

  it("refuses a batch that does not link to its cursor, writing nothing", async () => {
    const chain = new SimulatedChain();
    for (let i = 0; i < 4; i++) chain.mine(1);
    const store = createMemoryStore();
    const follower = createChainFollower({ store, source: chain, fromBlock: 0 });
    await catchUp(follower);
    const read = chain.readBlocks.bind(chain);
    chain.mine(1);
    // The node switches chains between the cursor check and the read.
    chain.readBlocks = async (from, to) => {
      chain.reorg(2, 1);
      return read(from, to);
    };
    await expect(follower.step()).rejects.toMatchObject({ code: "CHAIN_ERROR" });
    expect(await store.followedHead("ETH")).toMatchObject({ height: 4 });
  });

  it("keeps going after source failures, backing off, and stops cleanly", async () => {
    const chain = new SimulatedChain();
    for (let i = 0; i < 12; i++) chain.mine(1);
    chain.failNext = 3;
    const store = createMemoryStore();
    const errors: string[] = [];
    const follower = createChainFollower({
      store,
      source: chain,
      fromBlock: 0,
      pollMs: 1,
      batchBlocks: 4,
      onError: (e) => errors.push(e.code),
    });
    follower.start();
    follower.start();
    for (let i = 0; i < 200 && (await store.followedHead("ETH"))?.height !== 12; i++) {
      await new Promise((r) => setTimeout(r, 5));
    }
    await follower.stop();
    await follower.stop();
    expect(errors).toEqual(["CHAIN_ERROR", "CHAIN_ERROR", "CHAIN_ERROR"]);
    expect(byKey(await ledgerOf(store, chain))).toEqual(byKey(chain.expectedRows(0, 1)));
  });

  it("refuses options that are not whole numbers", () => {
    const source = new SimulatedChain();
    const store = createMemoryStore();
    expect(() => createChainFollower({ store, source, confirmations: 0 })).toThrow(/confirmations/);
    expect(() => createChainFollower({ store, source, batchBlocks: 1.5 })).toThrow(/batchBlocks/);
    expect(() => createChainFollower({ store, source, fromBlock: -1 })).toThrow(/fromBlock/);
  });

  it("whatever mines, reorganises and steps in between, ends with exactly the final chain's rows", async () => {
    type Action =
      | { kind: "mine"; rows: number }
      | { kind: "reorg"; depth: number; rows: number }
      | { kind: "step" };
    const action: fc.Arbitrary<Action> = fc.oneof(
      fc.record({ kind: fc.constant("mine" as const), rows: fc.nat(3) }),
      fc.record({
        kind: fc.constant("reorg" as const),
        depth: fc.integer({ min: 1, max: 4 }),
        rows: fc.nat(3),
      }),
      fc.record({ kind: fc.constant("step" as const) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(action, { maxLength: 40 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 5 }),
        async (actions, confirmations, batchBlocks) => {
          const chain = new SimulatedChain();
          const store = createMemoryStore();
          const follower = createChainFollower({
            store,
            source: chain,
            fromBlock: 0,
            confirmations,
            batchBlocks,
          });
          for (const a of actions) {
            if (a.kind === "mine") chain.mine(a.rows);
            else if (a.kind === "reorg") chain.reorg(a.depth, a.rows);
            else await follower.step();
          }
          await catchUp(follower);
          // A reorganisation deeper than the confirmations replaces blocks written as final:
          // the follower undoes them too, so the ledger still ends as the node's chain.
          expect(byKey(await ledgerOf(store, chain))).toEqual(byKey(chain.expectedRows(0, confirmations)));
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("chain follower of a UTXO network", () => {
  const hashOf = (height: number, fork: number) =>
    height < 0 ? "0".repeat(64) : `${String(height).padStart(8, "0")}${String(fork).padStart(56, "0")}`;
  const txidOf = (height: number, fork: number) => `${hashOf(height, fork).slice(0, 63)}f`;

  /**
   * A BTC chain of `length` blocks, each holding one coinbase transaction; blocks from `forkAt`
   * on are of fork `fork` (a reorganisation replaced them). `rowsOf` names the rows' network.
   */
  function utxoChain(state: { length: number; forkAt: number; fork: number }, rowsOf = "BTC"): BlockSource {
    const hash = (h: number) => hashOf(h, h >= state.forkAt ? state.fork : 0);
    return {
      network: "BTC",
      head: async () => state.length - 1,
      blockHash: async (height) => (height < state.length ? hash(height) : null),
      readBlocks: async (from, to) => {
        const blocks = Array.from({ length: to - from + 1 }, (_, i) => {
          const height = from + i;
          return {
            height,
            hash: hash(height),
            parentHash: hash(height - 1),
            time: 1_700_000_000_000 + height,
          };
        });
        const utxoTransactions = blocks.map((b) => ({
          network: rowsOf,
          txid: `${b.hash.slice(0, 63)}f`,
          block: b.height,
          blockHash: b.hash,
          occurredAt: b.time,
          position: 0,
          coinbase: true,
          inputs: [{ prevTxid: null, prevVout: null, address: null, value: 0, coinbase: true }],
          outputs: [
            { vout: 0, address: "1BoatSLRHtKNngkdXEeobR76b53LETtpyT", value: 5_000_000_000, spentBy: null },
          ],
        }));
        return { blocks, transfers: [], utxoTransactions };
      },
    };
  }

  it("writes the UTXO transactions of its blocks and deletes those of blocks a reorganisation replaced", async () => {
    const store = createMemoryStore();
    const state = { length: 6, forkAt: 6, fork: 0 };
    const follower = createChainFollower({ store, source: utxoChain(state), fromBlock: 0 });
    expect(await follower.step()).toMatchObject({
      kind: "blocks",
      from: 0,
      to: 5,
      transfers: 6,
      inserted: 6,
    });
    expect(await store.utxoTransactions("BTC", [txidOf(5, 0)])).toHaveLength(1);
    // Blocks 4 and 5 replaced by three others.
    Object.assign(state, { length: 7, forkAt: 4, fork: 1 });
    expect(await follower.step()).toMatchObject({
      kind: "reorg",
      from: 4,
      removedBlocks: 2,
      removedTransfers: 2,
    });
    expect(await store.utxoTransactions("BTC", [txidOf(4, 0), txidOf(5, 0)])).toEqual([]);
    expect(await store.utxoTransactions("BTC", [txidOf(3, 0)])).toHaveLength(1);
    expect(await follower.step()).toMatchObject({ kind: "blocks", from: 4, to: 6, inserted: 3 });
    const kept = await store.utxoTransactions("BTC", [txidOf(4, 1), txidOf(5, 1), txidOf(6, 1)]);
    expect(kept).toHaveLength(3);
  });

  it("refuses a batch whose UTXO transactions are of another network", async () => {
    const store = createMemoryStore();
    const source = utxoChain({ length: 3, forkAt: 3, fork: 0 }, "LTC");
    const follower = createChainFollower({ store, source, fromBlock: 0 });
    await expect(follower.step()).rejects.toThrow(/transaction \w+ of LTC block 0/);
    expect(await store.followedHead("BTC")).toBeNull();
  });
});

describe("chain follower clustering", () => {
  const hashOf = (height: number, fork: number) =>
    height < 0 ? "0".repeat(64) : `${String(height).padStart(8, "0")}${String(fork).padStart(56, "0")}`;

  /**
   * A BTC chain whose block `h` holds one transaction spending from the addresses `joins(h, fork)`
   * (two or more: they join one cluster); blocks from `forkAt` on are of fork `fork`.
   */
  function joiningChain(
    state: { length: number; forkAt: number; fork: number },
    joins: (height: number, fork: number) => ReadonlyArray<string>,
  ): BlockSource {
    const forkOf = (h: number) => (h >= state.forkAt ? state.fork : 0);
    const hash = (h: number) => hashOf(h, forkOf(h));
    return {
      network: "BTC",
      head: async () => state.length - 1,
      blockHash: async (height) => (height < state.length ? hash(height) : null),
      readBlocks: async (from, to) => {
        const blocks = Array.from({ length: to - from + 1 }, (_, i) => ({
          height: from + i,
          hash: hash(from + i),
          parentHash: hash(from + i - 1),
          time: 1_700_000_000_000 + from + i,
        }));
        const utxoTransactions = blocks.map((b) => {
          const from = joins(b.height, forkOf(b.height));
          return {
            network: "BTC",
            txid: `${b.hash.slice(0, 63)}e`,
            block: b.height,
            blockHash: b.hash,
            occurredAt: b.time,
            position: 1,
            coinbase: false,
            inputs: from.map((address, i) => ({
              prevTxid: `${String(i).padStart(2, "0")}${b.hash.slice(2)}`,
              prevVout: 0,
              address,
              value: 1_000,
              coinbase: false,
            })),
            outputs: [{ vout: 0, address: "payee", value: 900 * from.length, spentBy: null }],
          };
        });
        return { blocks, transfers: [], utxoTransactions };
      },
    };
  }

  const mainJoins: Record<number, string[]> = {
    0: ["a", "b"],
    1: ["b", "c"],
    2: ["c", "d"],
    3: ["d", "e"],
    4: ["x", "y"],
  };
  const forkJoins: Record<number, string[]> = { 3: ["p", "q"], 4: ["q", "r"], 5: ["s"] };
  const joins = (h: number, fork: number) => (fork === 0 ? mainJoins[h] : forkJoins[h]) ?? ["z"];

  it("merges clusters in each step, reports conflicts, and keeps clusters whole across a reorganisation", async () => {
    const store = createMemoryStore();
    await store.putAttributions([
      { network: "BTC", address: "a", entityName: "Alpha", entityCategory: "exchange", source: "test" },
      {
        network: "BTC",
        address: "e",
        entityName: "Market",
        entityCategory: "darknet_market",
        source: "test",
      },
    ]);
    const warnings: string[] = [];
    const logger = {
      ...silentLogger,
      warn: (_fields: unknown, message: string) => void warnings.push(message),
    };
    const state = { length: 3, forkAt: 99, fork: 0 };
    const follower = createChainFollower({ store, source: joiningChain(state, joins), fromBlock: 0, logger });
    const first = await follower.step();
    expect(first).toMatchObject({ kind: "blocks", from: 0, to: 2, clustering: { joined: 3, conflicts: [] } });
    expect((await store.addressClusters("BTC", ["a", "d"])).map((c) => c.size)).toEqual([4, 4]);
    // Block 3 joins "e" (Market) to the cluster of "a" (Alpha): a conflict, reported, logged.
    Object.assign(state, { length: 5 });
    const second = await follower.step();
    if (second.kind !== "blocks") throw new Error(`expected blocks, got ${second.kind}`);
    expect(second.clustering?.conflicts.map((c) => c.entities.map((e) => e.name))).toEqual([
      ["Alpha", "Market"],
    ]);
    expect(warnings.filter((w) => w.includes("one address cluster"))).toHaveLength(1);
    // Blocks 3 and 4 replaced: their transactions go, the clusters they formed stay (no split).
    Object.assign(state, { length: 6, forkAt: 3, fork: 1 });
    expect(await follower.step()).toMatchObject({ kind: "reorg", from: 3, removedTransfers: 2 });
    expect(await follower.step()).toMatchObject({
      kind: "blocks",
      from: 3,
      to: 5,
      clustering: { joined: 2 },
    });
    const clusters = await store.addressClusters("BTC", ["a", "e", "x", "p", "r", "s"]);
    const size = (address: string) => clusters.find((c) => c.address === address)?.size;
    expect([size("a"), size("e"), size("x"), size("p"), size("r"), size("s")]).toEqual([
      5,
      5,
      2,
      3,
      3,
      undefined,
    ]);
  });

  it("merges nothing with clustering off", async () => {
    const store = createMemoryStore();
    const source = joiningChain({ length: 3, forkAt: 99, fork: 0 }, joins);
    const follower = createChainFollower({ store, source, fromBlock: 0, clustering: false });
    expect(await follower.step()).toMatchObject({ kind: "blocks", clustering: null });
    expect(await store.addressClusters("BTC", ["a", "b"])).toEqual([]);
  });
});
