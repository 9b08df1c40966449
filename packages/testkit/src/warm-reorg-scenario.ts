/**
 * A chain follower undoes a reorganisation while a warm engine (another Engine over another
 * handle on the same database, as `serve --warm` beside `openkyt follow`) screens: the warm
 * copies drop the replaced ledger rows and UTXO transactions (with the spends and receipts they
 * indexed), and deposits of the new branch bind and trace through it, not the replaced one.
 *
 * With `screeningThreads`, the ETH case screens on a screening pool (`createPooledWarmSources`,
 * as `serve --warm --screening-threads`): the traces run on the pool's threads over its shared
 * ledger image, which cannot drop rows, so the pool must build a new image without the undone
 * blocks before it traces again (`screening-pool.ts`, the rewinds it reads at each catch-up).
 */
import {
  type BlockBatch,
  type BlockSource,
  createChainFollower,
  createEngine,
  createWarmSources,
  type LedgerTransfer,
  manualClock,
  type SourceBlock,
  type Store,
  type UtxoTransaction,
  type WarmSources,
} from "@openkyt/core";
import { createPooledWarmSources } from "@openkyt/runtime-node";
import { describe, expect, it } from "vitest";
import { B } from "./engine-scenarios-bitcoin.js";

/** Two handles on one database: the follower's and the warm engine's (the same store in memory). */
export interface WarmReorgStores {
  readonly follower: Store;
  readonly warm: Store;
  close(): Promise<void>;
}

const T = Date.UTC(2024, 0, 1);
const BLOCK_MS = 600_000;

/** What one simulated block holds. */
interface BlockContent {
  readonly transfers?: ReadonlyArray<LedgerTransfer>;
  readonly utxo?: ReadonlyArray<UtxoTransaction>;
}

/** A node whose blocks from a height on can be replaced by a fork, as a real node's can. */
class ForkableChain implements BlockSource {
  readonly blocks: Array<{ block: SourceBlock; content: BlockContent }> = [];
  #fork = 0;

  constructor(readonly network: string) {}

  /** Appends a block made by `content(height, time)`. */
  mine(content: (height: number, time: number) => BlockContent): void {
    const height = this.blocks.length;
    const parentHash = this.blocks[height - 1]?.block.hash ?? "genesis-parent";
    const time = T + height * BLOCK_MS;
    this.blocks.push({
      block: { height, hash: `${this.network}-${height}-fork${this.#fork}`, parentHash, time },
      content: content(height, time),
    });
  }

  /** Drops the blocks from `height` on; the next ones mined are a new fork. */
  forkFrom(height: number): void {
    this.blocks.length = height;
    this.#fork += 1;
  }

  async head(): Promise<number> {
    return this.blocks.length - 1;
  }

  async blockHash(height: number): Promise<string | null> {
    return this.blocks[height]?.block.hash ?? null;
  }

  async readBlocks(from: number, to: number): Promise<BlockBatch> {
    const picked = this.blocks.slice(from, to + 1);
    return {
      blocks: picked.map((b) => b.block),
      transfers: picked.flatMap((b) => b.content.transfers ?? []),
      utxoTransactions: picked.flatMap((b) => b.content.utxo ?? []),
    };
  }
}

/** Steps `source`'s follower over `store` until it has nothing to do; answers whether it undid a reorg. */
async function follow(store: Store, source: BlockSource): Promise<boolean> {
  const follower = createChainFollower({ store, source, fromBlock: 0, clustering: false });
  let undone = false;
  for (let i = 0; i < 50; i++) {
    const step = await follower.step();
    if (step.kind === "reorg") undone = true;
    if (step.kind === "idle") return undone;
  }
  throw new Error("the follower did not catch up");
}

const E = Object.freeze({
  mixer: "0x1111111111111111111111111111111111111111",
  exchange: "0x2222222222222222222222222222222222222222",
  mid: "0x3333333333333333333333333333333333333333",
  client: "0x4444444444444444444444444444444444444444",
});

const eth = (txHash: string, from: string, to: string, block: number, time: number): LedgerTransfer => ({
  network: "ETH",
  txHash,
  logIndex: 0,
  tokenId: "native",
  from,
  to,
  amount: 1,
  occurredAt: time,
  block,
  valueUsd: null,
});

const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const txid = (n: number) => n.toString(16).padStart(64, "c");
const SAT = 100_000_000;

/** A BTC transaction of `block` spending `inputs` (none: a coinbase) to `outputs` (address, BTC). */
function btc(
  id: string,
  block: number,
  time: number,
  position: number,
  inputs: ReadonlyArray<readonly [string, number, string, number]>,
  outputs: ReadonlyArray<readonly [string, number]>,
): UtxoTransaction {
  return {
    network: "BTC",
    txid: id,
    block,
    blockHash: null,
    occurredAt: time,
    position,
    coinbase: inputs.length === 0,
    inputs:
      inputs.length === 0
        ? [{ prevTxid: null, prevVout: null, address: null, value: 0, coinbase: true }]
        : inputs.map(([prevTxid, prevVout, address, value]) => ({
            prevTxid,
            prevVout,
            address,
            value: value * SAT,
            coinbase: false,
          })),
    outputs: outputs.map(([address, value], vout) => ({ vout, address, value: value * SAT, spentBy: null })),
  };
}

/** The categories of a transfer's indirect exposure. */
async function categories(api: ReturnType<ReturnType<typeof createEngine>["forAccount"]>, id: string) {
  const exposure = await api.getTransferExposure(id);
  return (exposure.indirect_interaction ?? []).map((s) => s.entity_category).sort();
}

/** How the scenario's warm engine traces (see the module comment). */
export interface WarmReorgOptions {
  /**
   * Screening threads the ETH case traces on (a pool's shared image); 0 or absent: the traces
   * run inline over the warm ledger. The BTC case is registered only without threads: the pool
   * holds no UTXO ledger (BTC traces read the warm UTXO copy on the main thread either way).
   */
  readonly screeningThreads?: number;
}

/** The warm sources of the scenario's engine, with what closes them. */
async function warmSourcesOf(
  store: Store,
  threads: number,
): Promise<{ readonly sources: WarmSources; close(): Promise<void> }> {
  if (threads === 0) {
    return { sources: await createWarmSources(store, { ledger: { maxLagMs: 0 } }), close: async () => {} };
  }
  const sources = await createPooledWarmSources(store, {
    pool: { threads, maxLagMs: 0, referenceRefreshMs: 0 },
  });
  return { sources, close: () => sources.close() };
}

/** Registers the scenario for stores that `open` gives. */
export function runWarmReorgScenario(
  name: string,
  open: () => Promise<WarmReorgStores>,
  options: WarmReorgOptions = {},
): void {
  const threads = options.screeningThreads ?? 0;
  const how = threads === 0 ? "" : `, ${threads} screening thread${threads === 1 ? "" : "s"}`;
  describe(`warm copies follow a reorganisation's deletes (${name}${how})`, () => {
    it("ETH: the warm ledger drops the replaced rows; the new branch binds and traces", async () => {
      const stores = await open();
      let closeWarm = async () => {};
      try {
        const chain = new ForkableChain("ETH");
        chain.mine(() => ({}));
        chain.mine((h, t) => ({ transfers: [eth(hash(1), E.mixer, E.mid, h, t)] }));
        chain.mine((h, t) => ({ transfers: [eth(hash(2), E.mid, E.client, h, t)] }));
        expect(await follow(stores.follower, chain)).toBe(false);
        await stores.follower.putAttributions([
          { network: "ETH", address: E.mixer, entityName: "Mixer", entityCategory: "mixer", source: "test" },
          {
            network: "ETH",
            address: E.exchange,
            entityName: "Exchange",
            entityCategory: "exchange",
            source: "test",
          },
        ]);
        const held = await warmSourcesOf(stores.warm, threads);
        closeWarm = held.close;
        const warm = held.sources;
        const engine = createEngine({ store: stores.warm, clock: manualClock(T + 10 * BLOCK_MS), ...warm });
        const api = engine.forAccount("acme");
        const deposit = async (txHash: string) => {
          const { transfer } = await api.registerTransfer({
            direction: "incoming",
            network: "ETH",
            tx_hash: txHash,
            output_address: E.client,
          });
          await engine.drain();
          return api.getTransfer(transfer.id);
        };
        const old = await deposit(hash(2));
        expect(old.tx_status).toBe("bound");
        expect(await categories(api, old.id)).toEqual(["mixer"]);

        // Blocks 1 and 2 are replaced: the mid address is funded by the exchange instead.
        chain.forkFrom(1);
        chain.mine((h, t) => ({ transfers: [eth(hash(11), E.exchange, E.mid, h, t)] }));
        chain.mine((h, t) => ({ transfers: [eth(hash(12), E.mid, E.client, h, t)] }));
        expect(await follow(stores.follower, chain)).toBe(true);

        expect(await warm.chainSource.lookup("ETH", hash(2))).toEqual({ kind: "not_found" });
        const received = await warm.ledger.ledgerIncoming(
          "ETH",
          "native",
          [{ address: E.mid, before: T + 9 * BLOCK_MS }],
          10,
        );
        expect(received.map((r) => r.txHash)).toEqual([hash(11)]);
        expect(warm.ledger.size).toBe(2);
        const fresh = await deposit(hash(12));
        expect(fresh.tx_status).toBe("bound");
        expect(await categories(api, fresh.id)).toEqual(["exchange"]);
        await engine.stop();
      } finally {
        await closeWarm();
        await stores.close();
      }
    });

    it.skipIf(threads > 0)(
      "BTC: the warm UTXO ledger drops the replaced transactions and their spends; the new branch binds and traces",
      async () => {
        const stores = await open();
        try {
          const chain = new ForkableChain("BTC");
          const [mint, toMid, oldDeposit, exMint, exToMid, newDeposit] = [1, 2, 3, 4, 5, 6].map(txid) as [
            string,
            string,
            string,
            string,
            string,
            string,
          ];
          chain.mine(() => ({}));
          chain.mine((h, t) => ({ utxo: [btc(mint, h, t, 0, [], [[B.mixer, 5]])] }));
          chain.mine((h, t) => ({ utxo: [btc(toMid, h, t, 1, [[mint, 0, B.mixer, 5]], [[B.a, 5]])] }));
          chain.mine((h, t) => ({ utxo: [btc(oldDeposit, h, t, 1, [[toMid, 0, B.a, 5]], [[B.client, 5]])] }));
          expect(await follow(stores.follower, chain)).toBe(false);
          await stores.follower.putAttributions([
            {
              network: "BTC",
              address: B.mixer,
              entityName: "Mixer",
              entityCategory: "mixer",
              source: "test",
            },
            {
              network: "BTC",
              address: B.exchange,
              entityName: "Exchange",
              entityCategory: "exchange",
              source: "test",
            },
          ]);
          const warm = await createWarmSources(stores.warm, { ledger: { maxLagMs: 0 } });
          const engine = createEngine({ store: stores.warm, clock: manualClock(T + 10 * BLOCK_MS), ...warm });
          const api = engine.forAccount("acme");
          const deposit = async (id: string) => {
            const { transfer } = await api.registerTransfer({
              direction: "incoming",
              network: "BTC",
              tx_hash: id,
              output_address: B.client,
            });
            await engine.drain();
            return api.getTransfer(transfer.id);
          };
          const old = await deposit(oldDeposit);
          expect(old.tx_status).toBe("bound");
          expect(await categories(api, old.id)).toEqual(["mixer"]);

          // Blocks 2 and 3 are replaced: the mixer's coins stay unspent, a's come from the exchange.
          chain.forkFrom(2);
          chain.mine((h, t) => ({
            utxo: [
              btc(exMint, h, t, 0, [], [[B.exchange, 6]]),
              btc(exToMid, h, t, 1, [[exMint, 0, B.exchange, 6]], [[B.a, 6]]),
            ],
          }));
          chain.mine((h, t) => ({
            utxo: [btc(newDeposit, h, t, 1, [[exToMid, 0, B.a, 6]], [[B.client, 6]])],
          }));
          expect(await follow(stores.follower, chain)).toBe(true);

          const ledger = warm.utxoLedger ?? stores.warm;
          expect(await ledger.utxoTransactions("BTC", [toMid, oldDeposit])).toEqual([]);
          const [minted] = await ledger.utxoTransactions("BTC", [mint]);
          expect(minted?.outputs[0]?.spentBy).toBeNull();
          const paid = await ledger.utxoReceived("BTC", [{ address: B.a, before: T + 9 * BLOCK_MS }], 10);
          expect(paid.map((p) => p.txid)).toEqual([exToMid]);
          expect(await warm.chainSource.lookup("BTC", oldDeposit)).toEqual({ kind: "not_found" });
          const fresh = await deposit(newDeposit);
          expect(fresh.tx_status).toBe("bound");
          expect(await categories(api, fresh.id)).toEqual(["exchange"]);
          await engine.stop();
        } finally {
          await stores.close();
        }
      },
    );
  });
}
