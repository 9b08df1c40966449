/**
 * The chain source and the block ingestor against a real regtest node (bcoin 1.0.2 in this
 * process): coins moved as a split, a peel chain (two hops in one block), a consolidation and
 * a CoinJoin-shaped transaction; the ledger must hold exactly the transactions signed here,
 * inputs and outputs to the satoshi, with each spent output's `spentBy`. Then a reorg replaces
 * the last block with one where a coin is spent differently: the ingestor deletes the replaced
 * block's transactions, the coins they spent read as unspent again, and the chain source no
 * longer finds the replaced transaction. The ingestor is core's chain follower over the
 * package's block source: what `openkyt follow BTC` runs.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChainFollower, Store, UtxoTransaction } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkBitcoinNode,
  createBitcoinBlockIngestor,
  createBitcoinChainSource,
  inputAddressOf,
} from "../src/index.js";
import {
  BCOIN_REGTEST,
  type Coin,
  followToHead,
  type RegtestNode,
  startRegtest,
  type Wallet,
} from "./bcoin-regtest.js";

const BTC = 100_000_000;
const FEE = 10_000;

let chain: RegtestNode;
let dir: string;
let store: Store;
let ingestor: ChainFollower;
/** What each transaction signed here must look like in the ledger. */
const expected = new Map<
  string,
  { inputs: Coin[]; outputs: Array<readonly [Wallet, number]>; block: number }
>();
let w: Record<
  "miner" | "sanctioned" | "r1" | "r2" | "r3" | "e1" | "e2" | "ransomWallet" | "j1" | "j2" | "j3" | "x",
  Wallet
>;
const txids: Record<string, string> = {};
let coins: Record<string, Coin> = {};

async function send(name: string, inputs: Coin[], outputs: Array<readonly [Wallet, number]>, block: number) {
  const sent = await chain.send(inputs, outputs);
  txids[name] = sent.txid;
  expected.set(sent.txid, { inputs, outputs, block });
  return sent.coins;
}

/** The coinbase txid of block `height`, as the node gives it. */
async function coinbaseTxid(height: number): Promise<string> {
  const hash = await chain.rpc("getblockhash", [height]);
  const block = (await chain.rpc("getblock", [hash, 1])) as { tx: string[] };
  return block.tx[0] as string;
}

const ledgerTx = async (txid: string): Promise<UtxoTransaction | undefined> =>
  (await store.utxoTransactions("BTC", [txid]))[0];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "openkyt-regtest-"));
  store = await createSqliteStore({ filename: join(dir, "ledger.db") });
  chain = await startRegtest();
  const names = [
    "miner",
    "sanctioned",
    "r1",
    "r2",
    "r3",
    "e1",
    "e2",
    "ransomWallet",
    "j1",
    "j2",
    "j3",
    "x",
  ] as const;
  w = Object.fromEntries(names.map((n) => [n, chain.wallet(n, n === "x")])) as typeof w;
  await chain.mine(101, w.miner); // coinbase 1 matures at 101
  const reward = await chain.coinbaseCoin(1, w.miner);
  // A split: one coin to five outputs (the sanctioned wallet, three ransom payments, change).
  const [s, r1, r2, r3, change] = await send(
    "split",
    [reward],
    [
      [w.sanctioned, 20 * BTC],
      [w.r1, 3 * BTC],
      [w.r2, 2 * BTC],
      [w.r3, 1 * BTC],
      [w.miner, reward.value - 26 * BTC - FEE],
    ],
    102,
  );
  await chain.mine(1, w.x);
  // A peel chain, both hops in block 103: 1 BTC peeled off each time, the rest to fresh change.
  const [, s2] = await send(
    "peel1",
    [s as Coin],
    [
      [w.e1, BTC],
      [w.sanctioned, 19 * BTC - FEE],
    ],
    103,
  );
  const [, s3] = await send(
    "peel2",
    [s2 as Coin],
    [
      [w.e2, BTC],
      [w.sanctioned, 18 * BTC - 2 * FEE],
    ],
    103,
  );
  await chain.mine(1, w.x);
  // A consolidation of the three ransom payments, then a CoinJoin-shaped transaction: three
  // inputs of three owners, three equal 5 BTC outputs and three change outputs.
  const [ransom] = await send(
    "consolidation",
    [r1 as Coin, r2 as Coin, r3 as Coin],
    [[w.ransomWallet, 6 * BTC - FEE]],
    104,
  );
  await send(
    "coinjoin",
    [s3 as Coin, ransom as Coin, change as Coin],
    [
      [w.j1, 5 * BTC],
      [w.j2, 5 * BTC],
      [w.j3, 5 * BTC],
      [w.sanctioned, (s3 as Coin).value - 5 * BTC - FEE],
      [w.ransomWallet, (ransom as Coin).value - 5 * BTC - FEE],
      [w.miner, (change as Coin).value - 5 * BTC - FEE],
    ],
    104,
  );
  await chain.mine(1, w.x);
  coins = { r1: r1 as Coin, r2: r2 as Coin };
  ingestor = createBitcoinBlockIngestor({
    store,
    rpc: chain.rpc,
    params: BCOIN_REGTEST,
    fromBlock: 0,
    batchBlocks: 40,
  });
}, 120_000);

afterAll(async () => {
  await chain?.close();
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the block ingestor on a bcoin regtest node", () => {
  it("checks the node's genesis block against the network named", async () => {
    expect(await checkBitcoinNode(chain.rpc, "BTC")).toBe("regtest");
    await expect(checkBitcoinNode(chain.rpc, "LTC")).rejects.toThrow(
      /genesis block 0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206 is not LTC's .*: it is a BTC node/,
    );
  });

  it("writes every block's transactions exactly as they were signed", async () => {
    const runs = await followToHead(ingestor);
    expect(runs.map((r) => r.kind)).toEqual(["blocks", "blocks", "blocks", "idle"]);
    expect(runs.at(-1)).toMatchObject({ cursor: 104, safeHead: 104 });
    expect(await store.followedHead("BTC")).toMatchObject({ height: 104 });
    for (const [txid, want] of expected) {
      const tx = await ledgerTx(txid);
      expect(tx, txid).toMatchObject({ network: "BTC", txid, block: want.block, coinbase: false });
      expect(tx?.inputs).toEqual(
        want.inputs.map((c) => ({
          prevTxid: c.txid,
          prevVout: c.vout,
          address: c.owner.address,
          value: c.value,
          coinbase: false,
        })),
      );
      expect(tx?.outputs.map((o) => [o.vout, o.address, o.value])).toEqual(
        want.outputs.map(([owner, value], vout) => [vout, owner.address, value]),
      );
    }
    // Addresses read from the scripts: bcoin's regtest P2PKH (R...) and P2WPKH (rb1q...).
    expect(w.sanctioned.address).toMatch(/^R/);
    expect(w.x.address).toMatch(/^rb1q/);
    const tipBlock = (await store.utxoTransactions("BTC", [await coinbaseTxid(104)]))[0];
    expect(tipBlock?.outputs[0]).toMatchObject({ address: w.x.address, value: 50 * BTC + 4 * FEE }); // subsidy + the fees of the consolidation and the CoinJoin
    const peel1 = await ledgerTx(txids.peel1 as string);
    expect(peel1?.position).toBe(1);
    expect((await ledgerTx(txids.peel2 as string))?.position).toBe(2);
  });

  it("links every spent output to the input that spent it", async () => {
    const split = await ledgerTx(txids.split as string);
    expect(split?.outputs.map((o) => o.spentBy)).toEqual([
      { txid: txids.peel1, vin: 0 },
      { txid: txids.consolidation, vin: 0 },
      { txid: txids.consolidation, vin: 1 },
      { txid: txids.consolidation, vin: 2 },
      { txid: txids.coinjoin, vin: 2 },
    ]);
    const coinjoin = await ledgerTx(txids.coinjoin as string);
    expect(coinjoin?.outputs.every((o) => o.spentBy === null)).toBe(true);
  });

  it("answers lookups: found with the whole transaction, pending in the mempool or short of confirmations", async () => {
    const source = createBitcoinChainSource({ rpc: chain.rpc, params: BCOIN_REGTEST });
    const found = await source.lookup("BTC", txids.coinjoin as string);
    expect(found.kind).toBe("found");
    if (found.kind !== "found") return;
    expect(found.utxo).toEqual(
      await ledgerTx(txids.coinjoin as string).then((t) => ({
        ...t,
        outputs: t?.outputs.map((o) => ({ ...o, spentBy: null })),
      })),
    );
    // One transfer per output, from the documented input address: the largest input's.
    expect(found.transfers).toHaveLength(6);
    expect(found.transfers[0]).toMatchObject({ logIndex: 0, to: w.j1.address, amount: 5, tokenId: "native" });
    expect(new Set(found.transfers.map((t) => t.from))).toEqual(
      new Set([inputAddressOf(found.utxo as UtxoTransaction)]),
    );
    expect(found.transfers[0]?.from).toBe(w.miner.address); // the miner's change is the largest input
    const strict = createBitcoinChainSource({ rpc: chain.rpc, params: BCOIN_REGTEST, confirmations: 2 });
    expect(await strict.lookup("BTC", txids.coinjoin as string)).toEqual({ kind: "pending" });
    expect(await strict.lookup("BTC", txids.peel1 as string)).toMatchObject({ kind: "found" });
    expect(await source.lookup("BTC", "ab".repeat(32))).toEqual({ kind: "not_found" });
    expect(await source.lookup("BTC", "not a txid")).toEqual({ kind: "not_found" });
    await expect(source.lookup("LTC", txids.peel1 as string)).rejects.toThrow(/answers for BTC, not LTC/);
  });

  it("follows a reorg: the replaced block's transactions leave the ledger, their coins are unspent again", async () => {
    const source = createBitcoinChainSource({ rpc: chain.rpc, params: BCOIN_REGTEST });
    const tip = (await chain.rpc("getbestblockhash", [])) as string;
    await chain.rpc("invalidateblock", [tip]);
    await chain.node.mempool.reset();
    // The replacing chain spends the first ransom payment otherwise, and is longer.
    const { txid: doubleSpend } = await chain.send([coins.r1 as Coin], [[w.x, 3 * BTC - FEE]]);
    await chain.mine(2, w.x);
    const runs = await followToHead(ingestor);
    // block 104's coinbase, consolidation, coinjoin
    expect(runs[0]).toMatchObject({ kind: "reorg", from: 104, removedBlocks: 1, removedTransfers: 3 });
    expect(await store.followedHead("BTC")).toMatchObject({ height: 105 });
    expect(await ledgerTx(txids.consolidation as string)).toBeUndefined();
    expect(await ledgerTx(txids.coinjoin as string)).toBeUndefined();
    expect((await ledgerTx(doubleSpend))?.block).toBe(104);
    const split = await ledgerTx(txids.split as string);
    expect(split?.outputs.map((o) => o.spentBy)).toEqual([
      { txid: txids.peel1, vin: 0 },
      { txid: doubleSpend, vin: 0 },
      null,
      null,
      null,
    ]);
    expect((await source.lookup("BTC", txids.consolidation as string)).kind).not.toBe("found");
    expect(await source.lookup("BTC", doubleSpend)).toMatchObject({ kind: "found" });
  });
});
