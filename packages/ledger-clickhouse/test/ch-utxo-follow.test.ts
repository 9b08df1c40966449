/**
 * A chain follower writing a BTC chain into the ClickHouse UTXO ledger (the store keeps the
 * cursor and the clusters, as `openkyt follow BTC --ledger clickhouse://...` runs), through a
 * reorganisation: the replaced blocks' transactions read as gone at once (tombstones, not the
 * asynchronous ALTER DELETE), the coins they spent read as unspent, and the replacing branch,
 * which holds some of the same txids in other blocks, reads as written. Every step, the reads
 * equal those of a follower writing the memory store from the same chain.
 */
import {
  type BlockSource,
  createChainFollower,
  createMemoryStore,
  type Store,
  type UtxoTransaction,
} from "@openkyt/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalClickHouse, startLocalClickHouse } from "../src/index.js";
import { CLICKHOUSE_MISSING, storeWithClickHouseLedger } from "./ch-test-server.js";

const hex = (n: number, width = 64) => n.toString(16).padStart(width, "0");
const hashOf = (height: number, fork: number) => (height < 0 ? hex(0) : `${hex(fork, 8)}${hex(height, 56)}`);
/** The coinbase of a block (one per block and fork) and the spend in it (the same txid on every fork). */
const coinbaseOf = (height: number, fork: number) => `c${hashOf(height, fork).slice(1)}`;
const spendOf = (height: number) => `d${hex(height, 63)}`;

/** A chain whose blocks from `forkAt` on are of fork `fork`; each block spends the previous block's coinbase. */
function chain(state: { length: number; forkAt: number; fork: number }): BlockSource {
  const forkAt = (h: number) => (h >= state.forkAt ? state.fork : 0);
  const hash = (h: number) => hashOf(h, forkAt(h));
  return {
    network: "BTC",
    head: async () => state.length - 1,
    blockHash: async (height) => (height < state.length ? hash(height) : null),
    readBlocks: async (from, to) => {
      const blocks = [];
      const utxoTransactions: UtxoTransaction[] = [];
      for (let height = from; height <= to; height++) {
        const time = 1_700_000_000_000 + height * 600_000;
        blocks.push({ height, hash: hash(height), parentHash: hash(height - 1), time });
        const base = { network: "BTC", block: height, blockHash: hash(height), occurredAt: time };
        utxoTransactions.push({
          ...base,
          txid: coinbaseOf(height, forkAt(height)),
          position: 0,
          coinbase: true,
          inputs: [{ prevTxid: null, prevVout: null, address: null, value: 0, coinbase: true }],
          outputs: [{ vout: 0, address: `miner${forkAt(height)}`, value: 5_000, spentBy: null }],
        });
        if (height > 0) {
          const prev = coinbaseOf(height - 1, forkAt(height - 1));
          utxoTransactions.push({
            ...base,
            txid: spendOf(height),
            position: 1,
            coinbase: false,
            inputs: [
              {
                prevTxid: prev,
                prevVout: 0,
                address: `miner${forkAt(height - 1)}`,
                value: 5_000,
                coinbase: false,
              },
            ],
            outputs: [
              { vout: 0, address: "payee", value: 4_000, spentBy: null },
              { vout: 1, address: `miner${forkAt(height - 1)}`, value: 900, spentBy: null },
            ],
          });
        }
      }
      return { blocks, transfers: [], utxoTransactions };
    },
  };
}

/** Every read a tracer makes, on the txids and addresses of forks 0 to 2 up to `length`. */
async function reads(store: Store, length: number) {
  const ids = Array.from({ length }, (_, h) => [
    coinbaseOf(h, 0),
    coinbaseOf(h, 1),
    coinbaseOf(h, 2),
    spendOf(h),
  ]).flat();
  const txs = [...(await store.utxoTransactions("BTC", ids))].sort((a, b) => (a.txid < b.txid ? -1 : 1));
  const addresses = ["miner0", "miner1", "miner2", "payee"];
  const received = await store.utxoReceived(
    "BTC",
    addresses.map((address) => ({ address, before: 1_800_000_000_000 })),
    100,
  );
  const spent = await store.utxoSpentFrom(
    "BTC",
    addresses.map((address) => ({ address, after: 0 })),
    100,
  );
  const clusters = await store.addressClusters("BTC", addresses);
  return { txs, received, spent, clusters };
}

describe.skipIf(CLICKHOUSE_MISSING !== null)("following BTC into the ClickHouse UTXO ledger", () => {
  let server: LocalClickHouse;
  beforeAll(async () => {
    server = await startLocalClickHouse();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("writes blocks, undoes a reorganisation at once and writes the new branch, as the memory store does", async () => {
    const withCh = await storeWithClickHouseLedger(server);
    const memory = createMemoryStore();
    const state = { length: 6, forkAt: 6, fork: 0 };
    const followers = [withCh, memory].map((store) =>
      createChainFollower({ store, source: chain(state), fromBlock: 0, batchBlocks: 3 }),
    );
    try {
      const step = async () => {
        const [a, b] = [await followers[0]?.step(), await followers[1]?.step()];
        expect(a).toEqual(b);
        expect(await reads(withCh, 8)).toEqual(await reads(memory, 8));
        return a;
      };
      expect(await step()).toMatchObject({ kind: "blocks", from: 0, to: 2, inserted: 5 });
      expect(await step()).toMatchObject({ kind: "blocks", from: 3, to: 5, inserted: 6 });
      // Blocks 4 and 5 replaced by three others (the spends of 4 and 5 come back in new blocks).
      Object.assign(state, { length: 7, forkAt: 4, fork: 1 });
      expect(await step()).toMatchObject({ kind: "reorg", from: 4, removedBlocks: 2, removedTransfers: 4 });
      const [coin] = await withCh.utxoTransactions("BTC", [coinbaseOf(3, 0)]);
      expect(coin?.outputs[0]?.spentBy).toBeNull();
      expect(await step()).toMatchObject({ kind: "blocks", from: 4, to: 6, inserted: 6 });
      const [again] = await withCh.utxoTransactions("BTC", [spendOf(4)]);
      expect(again).toMatchObject({ blockHash: hashOf(4, 1), inputs: [{ prevTxid: coinbaseOf(3, 0) }] });
      // A second, deeper reorg over the first one's tombstone.
      Object.assign(state, { length: 8, forkAt: 2, fork: 2 });
      expect(await step()).toMatchObject({ kind: "reorg", from: 2 });
      expect(await step()).toMatchObject({ kind: "blocks", from: 2 });
      await step();
      expect(await reads(withCh, 8)).toEqual(await reads(memory, 8));
    } finally {
      await withCh.close();
      await memory.close();
    }
  }, 300_000);
});
