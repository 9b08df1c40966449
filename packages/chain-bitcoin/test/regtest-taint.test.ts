/**
 * The taint of the regtest scenarios, reproduced exactly on a real node (bcoin 1.0.2 in this
 * process): coins are moved in the shapes of docs/risk-model.md, "Bitcoin" (a split, a peel
 * chain, a consolidation of coins of three origins, a CoinJoin-shaped transaction), core's chain
 * follower writes the blocks into a SQLite store through the package's block source (clustering
 * on, as `openkyt follow BTC` runs it), one source address is sanctioned and one is ransomware,
 * and deposits registered through the engine (bound from the ledger the follower wrote) must
 * carry the shares each construction implies, under the haircut rule (the default) and under
 * FIFO. The expected shares are ratios of the integer satoshis sent here, worked out below from
 * the amounts and not read from the engine. The consolidation's inputs end in one cluster; the
 * CoinJoin's do not (had they, the miner's coins would take the ransomware label and the
 * consolidation's mining share would read as ransomware). Last, a reorganisation replaces the
 * transaction that paid a deposit address from the sanctioned wallet with a double spend, and a
 * clean payment takes its place: the address's answer changes from sanctions to mining.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ChainFollower,
  createEngine,
  type Engine,
  type EngineConfig,
  type ExposureResult,
  manualClock,
  type Store,
} from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bitcoinParams, createBitcoinBlockIngestor } from "../src/index.js";
import { type Coin, followToHead, type RegtestNode, startRegtest, type Wallet } from "./bcoin-regtest.js";

const BTC = 100_000_000;
const FEE = 10_000;
const HOUR = 3_600_000;
const BTC_USD = 50_000;

let chain: RegtestNode;
let dir: string;
let store: Store;
let ingestor: ChainFollower;
const NAMES = [
  "miner",
  "sanctioned",
  "ransom",
  "m",
  "a",
  "b",
  "e",
  "c1",
  "c2",
  "c3",
  "c4",
  "p1",
  "k",
  "j1",
  "j2",
  "j3",
  "f",
  "d1",
  "d2",
  "d3",
  "d5",
] as const;
let w: Record<(typeof NAMES)[number], Wallet>;
/** The transactions signed here, by name. */
const tx: Record<string, string> = {};
/** Coins kept for the reorganisation. */
let kept: { sanctioned2: Coin; reward2: Coin };
/** Values of the coins the CoinJoin spends, in satoshis. */
let joined: { c3: number; ransom: number; miner: number };

/**
 * A wallet's address as the ledger and the API write it: the follower decodes scripts with
 * Bitcoin's mainnet prefixes (what `openkyt follow BTC` does), whatever the node's network.
 */
const addr = (x: Wallet): string => x.ring.getAddress("string", "main");

async function send(name: string, inputs: Coin[], outputs: Array<readonly [Wallet, number]>) {
  const sent = await chain.send(inputs, outputs);
  tx[name] = sent.txid;
  return sent.coins;
}

/** Shares of an exposure by category (every proximity summed). */
function sharesOf(e: ExposureResult | null | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of e?.shares ?? []) out[s.category] = (out[s.category] ?? 0) + s.share;
  return out;
}

/** `shares` equals `want` category for category, each to 1e-12 (floating division of integer satoshis). */
function expectShares(shares: Record<string, number>, want: Record<string, number>, what: string): void {
  expect(Object.keys(shares).sort(), what).toEqual(Object.keys(want).sort());
  for (const [category, share] of Object.entries(want)) {
    expect(Math.abs((shares[category] ?? 0) - share), `${what}: ${category}`).toBeLessThan(1e-12);
  }
}

/** An engine over the followed store; its clock a day past the chain's last block. */
function engineWith(overrides: Partial<EngineConfig> = {}): Engine {
  return createEngine({
    store,
    clock: manualClock(Date.now() + 24 * HOUR),
    binding: { windowMs: HOUR, pollMs: 60_000 },
    jobs: { backoffBaseMs: 1_000, backoffMaxMs: 10_000, maxAttempts: 3 },
    ...overrides,
  });
}

/** Registers deposits `[tx, output wallet]` for `account`, runs the engine, answers their exposures. */
async function depositsOf(
  engine: Engine,
  account: string,
  deposits: ReadonlyArray<readonly [string, Wallet]>,
): Promise<ExposureResult[]> {
  const api = engine.forAccount(account);
  const ids: string[] = [];
  for (const [hash, to] of deposits) {
    const { transfer } = await api.registerTransfer({
      direction: "incoming",
      network: "BTC",
      tx_hash: hash,
      output_address: addr(to),
    });
    ids.push(transfer.id);
  }
  await engine.drain();
  const out: ExposureResult[] = [];
  for (const id of ids) {
    const record = await store.getTransfer(id);
    expect(record?.txStatus, `${id}: ${record?.lastError}`).toBe("bound");
    out.push(record?.exposure as ExposureResult);
  }
  return out;
}

/** An address check, as the API answers it. */
async function addressCheck(engine: Engine, account: string, wallet: Wallet) {
  const api = engine.forAccount(account);
  const { id } = await api.checkAddress({ network: "BTC", address: addr(wallet) });
  await engine.drain();
  return api.getManualCheckAddressExposure(id);
}

/** An address check's shares, as the API answers them. */
async function addressShares(engine: Engine, account: string, wallet: Wallet) {
  return (await addressCheck(engine, account, wallet)).exposure ?? [];
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "openkyt-regtest-taint-"));
  store = await createSqliteStore({ filename: join(dir, "ledger.db") });
  chain = await startRegtest();
  w = Object.fromEntries(NAMES.map((n) => [n, chain.wallet(n)])) as typeof w;
  // Coinbases 1 and 2 mature at 101 and 102; mined in calls of 17 blocks, each well within the
  // RPC client's timeout on a loaded machine.
  for (let i = 0; i < 6; i++) await chain.mine(17, w.miner);
  const reward = await chain.coinbaseCoin(1, w.miner);
  const reward2 = await chain.coinbaseCoin(2, w.miner);

  // Block 103. Funding: the miner's 50 BTC reward pays the sanctioned wallet (20 and 2 BTC),
  // the ransomware wallet (10), a wallet m (5) and its own change.
  const [s20, r10, m5, s2, minerChange] = (await send(
    "fund",
    [reward],
    [
      [w.sanctioned, 20 * BTC],
      [w.ransom, 10 * BTC],
      [w.m, 5 * BTC],
      [w.sanctioned, 2 * BTC],
      [w.miner, 13 * BTC - FEE],
    ],
  )) as [Coin, Coin, Coin, Coin, Coin];
  await chain.mine(1, w.miner);

  // Block 104. A split of the sanctioned 20 BTC: a 4, the deposit d1 3, the rest to c1. Then a
  // peel chain from c1: 1 BTC peeled to p1, then 1 BTC to the deposit d2, the change moving on.
  // The ransomware wallet pays b 4 BTC; m pays e 2 BTC (coins with mining as their origin).
  const [a4, , c1] = (await send(
    "split",
    [s20],
    [
      [w.a, 4 * BTC],
      [w.d1, 3 * BTC],
      [w.c1, 13 * BTC - FEE],
    ],
  )) as [Coin, Coin, Coin];
  const [, c2] = (await send(
    "peel1",
    [c1],
    [
      [w.p1, BTC],
      [w.c2, 12 * BTC - 2 * FEE],
    ],
  )) as [Coin, Coin];
  const [, c3] = (await send(
    "peel2",
    [c2],
    [
      [w.d2, BTC],
      [w.c3, 11 * BTC - 3 * FEE],
    ],
  )) as [Coin, Coin];
  const [b4, ransom6] = (await send(
    "ransomPays",
    [r10],
    [
      [w.b, 4 * BTC],
      [w.ransom, 6 * BTC - FEE],
    ],
  )) as [Coin, Coin];
  const [e2] = (await send(
    "mPays",
    [m5],
    [
      [w.e, 2 * BTC],
      [w.m, 3 * BTC - FEE],
    ],
  )) as [Coin, Coin];
  await chain.mine(1, w.miner);

  // Block 105. A consolidation of a (sanctioned origin), b (ransomware) and e (mining): the
  // deposit d3 7 BTC, change k. A CoinJoin-shaped transaction (JoinMarket's shape: three equal
  // 5 BTC outputs, each participant's change): c3 (the peel chain's change), the ransomware
  // wallet's 6 BTC and the miner's change.
  await send(
    "consolidation",
    [a4, b4, e2],
    [
      [w.d3, 7 * BTC],
      [w.k, 3 * BTC - FEE],
    ],
  );
  joined = { c3: c3.value, ransom: ransom6.value, miner: minerChange.value };
  await send(
    "coinjoin",
    [c3, ransom6, minerChange],
    [
      [w.j1, 5 * BTC],
      [w.j2, 5 * BTC],
      [w.j3, 5 * BTC],
      [w.c4, c3.value - 5 * BTC - FEE],
      [w.ransom, ransom6.value - 5 * BTC - FEE],
      [w.miner, minerChange.value - 5 * BTC - FEE],
    ],
  );
  await chain.mine(1, w.miner);

  // Block 106: the sanctioned wallet's other 2 BTC pays the deposit address d5 1.5 BTC.
  await send(
    "tainted",
    [s2],
    [
      [w.d5, 1.5 * BTC],
      [w.sanctioned, 0.5 * BTC - FEE],
    ],
  );
  await chain.mine(1, w.miner);
  kept = { sanctioned2: s2, reward2 };

  ingestor = createBitcoinBlockIngestor({
    store,
    rpc: chain.rpc,
    params: bitcoinParams("BTC", "main"),
    fromBlock: 0,
    batchBlocks: 200,
  });
  const steps = await followToHead(ingestor);
  expect(steps.at(-1)).toMatchObject({ kind: "idle", cursor: 106 });

  // The labels: the sanctioned wallet on a sanctions list, the ransomware wallet attributed.
  const engine = engineWith();
  await engine.reference.loadSanctions([
    {
      network: "BTC",
      address: addr(w.sanctioned),
      listName: "OFAC SDN",
      program: "CYBER2",
      entity: "Bad Actor",
      listedAt: null,
      delistedAt: null,
    },
  ]);
  await engine.reference.loadAttributions([
    {
      network: "BTC",
      address: addr(w.ransom),
      entityName: "Locker",
      entityCategory: "ransomware",
      source: "test",
    },
  ]);
  const days = [-2, -1, 0, 1, 2].map((d) => new Date(Date.now() + d * 24 * HOUR).toISOString().slice(0, 10));
  await engine.reference.loadPrices(
    days.map((day) => ({ network: "BTC", tokenId: "native", day, usd: BTC_USD })),
  );
  await engine.stop();
}, 120_000);

afterAll(async () => {
  await chain?.close();
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * What each deposit must carry, worked out from the amounts sent above (satoshis).
 * - d1, the split: wholly the sanctioned 20 BTC coin, by either rule (its only input is the
 *   sanctioned wallet's: a direct interaction).
 * - d2, the peel chain: wholly sanctioned by either rule, three hops back (d2 <- c2 <- c1 <- S).
 * - d3, the consolidation of a 4 (sanctioned), b 4 (ransomware), e 2 (mining):
 *   haircut 4/10, 4/10, 2/10; FIFO takes the first 7 BTC of the inputs in order: a's 4 and 3 of
 *   b's 4, so sanctions 4/7, ransomware 3/7.
 * - j3, the CoinJoin's third 5 BTC output, the inputs c3 (sanctioned), R (ransomware), M (mining):
 *   haircut c3/(c3+R+M), R/(c3+R+M), M/(c3+R+M); FIFO lays the outputs end to end, j3 is
 *   [10 BTC, 15 BTC), c3 covers [0, c3): sanctions (c3 - 10 BTC)/5 BTC, ransomware the rest.
 * - j1, the first equal output: haircut as j3; FIFO [0, 5 BTC) lies in c3: wholly sanctioned.
 */
function expected(
  rule: "haircut" | "fifo",
): Record<"d1" | "d2" | "d3" | "j3" | "j1", Record<string, number>> {
  const { c3, ransom, miner } = joined;
  const pool = c3 + ransom + miner;
  const mix = { sanctions: c3 / pool, ransomware: ransom / pool, mining: miner / pool };
  return rule === "haircut"
    ? {
        d1: { sanctions: 1 },
        d2: { sanctions: 1 },
        d3: {
          sanctions: (4 * BTC) / (10 * BTC),
          ransomware: (4 * BTC) / (10 * BTC),
          mining: (2 * BTC) / (10 * BTC),
        },
        j3: mix,
        j1: mix,
      }
    : {
        d1: { sanctions: 1 },
        d2: { sanctions: 1 },
        d3: { sanctions: (4 * BTC) / (7 * BTC), ransomware: (3 * BTC) / (7 * BTC) },
        j3: { sanctions: (c3 - 10 * BTC) / (5 * BTC), ransomware: (15 * BTC - c3) / (5 * BTC) },
        j1: { sanctions: 1 },
      };
}

describe("taint of the regtest scenarios on a bcoin regtest node, followed into a store", () => {
  it("the amounts give the fractions stated", () => {
    // c3 = 11 BTC - 3 fees, R = 6 BTC - 1 fee, M = 13 BTC - 1 fee: j3's FIFO sanctions share is
    // (1 BTC - 3 fees) / 5 BTC = 0.19994, its haircut sanctions share 1,099,970,000 / 2,999,950,000.
    expect(joined).toEqual({ c3: 11 * BTC - 3 * FEE, ransom: 6 * BTC - FEE, miner: 13 * BTC - FEE });
    expect(expected("fifo").j3).toEqual({ sanctions: 0.19994, ransomware: 0.80006 });
    expect(expected("haircut").j3?.sanctions).toBe(1_099_970_000 / 2_999_950_000);
  });

  for (const rule of ["haircut", "fifo"] as const) {
    it(`deposits carry the shares their construction implies (${rule})`, async () => {
      const engine = engineWith(rule === "fifo" ? { tracing: { utxoRule: "fifo" } } : {});
      try {
        const [d1, d2, d3, j3, j1] = await depositsOf(engine, `acme-${rule}`, [
          [tx.split as string, w.d1],
          [tx.peel2 as string, w.d2],
          [tx.consolidation as string, w.d3],
          [tx.coinjoin as string, w.j3],
          [tx.coinjoin as string, w.j1],
        ]);
        const want = expected(rule);
        expectShares(sharesOf(d1), want.d1, "split");
        expect(d1?.direct).toMatchObject({ category: "sanctions" });
        expectShares(sharesOf(d2), want.d2, "peel chain");
        expectShares(sharesOf(d3), want.d3, "consolidation");
        expectShares(sharesOf(j3), want.j3, "coinjoin j3");
        expectShares(sharesOf(j1), want.j1, "coinjoin j1");
        // The peel chain's path: the deposit's coin, the two changes, the sanctioned coin.
        const peel = d2?.shares.find((s) => s.category === "sanctions");
        expect(peel?.minHops).toBe(3);
        expect(peel?.path).toEqual([addr(w.d2), addr(w.c2), addr(w.c1), addr(w.sanctioned)]);
        expect(peel?.pathTxHashes).toEqual([
          `${tx.peel2}:0`,
          `${tx.peel1}:1`,
          `${tx.split}:2`,
          `${tx.fund}:0`,
        ]);
        expect(d3?.inputAddresses).toEqual([addr(w.a), addr(w.b), addr(w.e)]);
        // The mining share of the consolidation was traced to the miner's coinbase, through m's
        // coin and the funding reward: neither took a label from the CoinJoin's inputs.
        if (rule === "haircut") {
          const mining = d3?.shares.find((s) => s.category === "mining");
          expect(mining?.path).toEqual([addr(w.d3), addr(w.e), addr(w.m), addr(w.miner)]);
        }
      } finally {
        await engine.stop();
      }
    }, 60_000);
  }

  it("clusters the consolidation's inputs, not the CoinJoin's", async () => {
    const cons = await store.addressClusters("BTC", [addr(w.a), addr(w.b), addr(w.e)]);
    expect(cons).toHaveLength(3);
    expect(new Set(cons.map((c) => c.clusterId)).size).toBe(1);
    expect(cons[0]?.size).toBe(3);
    const mix = await store.addressClusters("BTC", [addr(w.c3), addr(w.ransom), addr(w.miner)]);
    // Each is in no cluster, or in one of its own: none shares a cluster with another.
    expect(new Set(mix.map((c) => c.clusterId)).size).toBe(mix.length);
    expect(mix.every((c) => c.size === 1)).toBe(true);
    // So the ransomware label stays on its address: the CoinJoin's other participants are not
    // identified as ransomware, while the consolidation's addresses share their (unlabelled) cluster.
    const engine = engineWith();
    try {
      expect(await addressCheck(engine, "acme-clusters", w.ransom)).toMatchObject({
        entity_category: "ransomware",
      });
      for (const other of [w.miner, w.c3]) {
        expect(await addressCheck(engine, "acme-clusters", other)).toMatchObject({
          entity_category: null,
          entity_name: null,
        });
      }
    } finally {
      await engine.stop();
    }
  }, 60_000);

  it("a reorganisation that replaces the tainted payment changes the answer", async () => {
    const engine = engineWith();
    try {
      const [before] = await depositsOf(engine, "acme-reorg", [[tx.tainted as string, w.d5]]);
      expectShares(sharesOf(before), { sanctions: 1 }, "d5 before");
      const d5Before = await addressShares(engine, "acme-reorg", w.d5);
      expect(d5Before.map((s) => [s.entity_category, s.value_share])).toEqual([["sanctions", 1]]);

      // Block 106 is replaced: the sanctioned coin is spent otherwise (to f), and d5 is paid
      // 1.5 BTC from the miner's second reward instead; the new chain is longer.
      await chain.rpc("invalidateblock", [await chain.rpc("getbestblockhash", [])]);
      await chain.node.mempool.reset();
      await send("doubleSpend", [kept.sanctioned2], [[w.f, 2 * BTC - FEE]]);
      await send(
        "clean",
        [kept.reward2],
        [
          [w.d5, 1.5 * BTC],
          [w.miner, kept.reward2.value - 1.5 * BTC - FEE],
        ],
      );
      await chain.mine(2, w.miner);
      const steps = await followToHead(ingestor);
      // block 106's coinbase and the tainted payment
      expect(steps[0]).toMatchObject({ kind: "reorg", from: 106, removedBlocks: 1, removedTransfers: 2 });
      expect(await store.utxoTransactions("BTC", [tx.tainted as string])).toEqual([]);

      const d5After = await addressShares(engine, "acme-reorg", w.d5);
      expect(d5After.map((s) => [s.entity_category, s.value_share])).toEqual([["mining", 1]]);
      const [after] = await depositsOf(engine, "acme-reorg", [[tx.clean as string, w.d5]]);
      expectShares(sharesOf(after), { mining: 1 }, "d5 after");
      expect(after?.shares[0]?.pathTxHashes).toEqual([`${tx.clean}:0`, `${kept.reward2.txid}:0`]);
    } finally {
      await engine.stop();
    }
  }, 60_000);
});
