/**
 * Truth, not only consistency (issue 31, item 7): the clusters that importing mainnet block
 * 300,025 with its undo (461 transactions, every input resolved) leaves in the store equal the
 * partition an independent union-find, written here, draws over the same transactions: the input
 * addresses of every transaction that is not a coinbase and not CoinJoin-shaped (the documented
 * rule, `coinJoinKind`, docs/risk-model.md) belong to one wallet. Also: importing the block a
 * second time changes no cluster, `clustering: false` merges none, and a batch whose clustering
 * fails is not written either (one store transaction).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bitcoinParams, blocksOfFiles } from "@openkyt/chain-bitcoin";
import { coinJoinKind, createMemoryStore, type Store, type UtxoTransaction } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { importFile } from "../src/index.js";
import { STORES } from "./import-fixtures.js";

const fixture = (name: string) =>
  fileURLToPath(new URL(`../../chain-bitcoin/test/fixtures/${name}`, import.meta.url));

const dir = mkdtempSync(join(tmpdir(), "openkyt-cluster-truth-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const block = join(dir, "block300025.raw");
copyFileSync(fixture("block300025.raw"), block);
copyFileSync(fixture("block300025-undo.raw"), join(dir, "block300025-undo.raw"));

/** The block's transactions, decoded from the fixture files. */
function blockTransactions(): UtxoTransaction[] {
  const blocks = [
    ...blocksOfFiles(
      new Uint8Array(readFileSync(fixture("block300025.raw"))),
      new Uint8Array(readFileSync(fixture("block300025-undo.raw"))),
      { params: bitcoinParams("BTC", "main") },
    ),
  ];
  const [only] = blocks;
  if (blocks.length !== 1 || !only || "problem" in only) throw new Error("block 300,025 did not decode");
  return [...only.transactions];
}

/** The test's own union-find: path halving, union by size. Answers the partition's groups. */
function independentPartition(txs: ReadonlyArray<UtxoTransaction>): string[][] {
  const parent = new Map<string, string>();
  const size = new Map<string, number>();
  const find = (a: string): string => {
    let x = a;
    for (let p = parent.get(x); p !== undefined && p !== x; p = parent.get(x)) {
      const grand = parent.get(p) ?? p;
      parent.set(x, grand);
      x = grand;
    }
    return x;
  };
  const add = (a: string) => {
    if (!parent.has(a)) {
      parent.set(a, a);
      size.set(a, 1);
    }
  };
  for (const tx of txs) {
    if (tx.coinbase || coinJoinKind(tx) !== null) continue;
    const addresses = [...new Set(tx.inputs.map((i) => i.address).filter((a): a is string => a !== null))];
    if (addresses.length < 2) continue;
    for (const a of addresses) add(a);
    for (const a of addresses.slice(1)) {
      const [x, y] = [find(addresses[0] as string), find(a)];
      if (x === y) continue;
      const [big, small] = (size.get(x) ?? 0) >= (size.get(y) ?? 0) ? [x, y] : [y, x];
      parent.set(small, big);
      size.set(big, (size.get(big) ?? 0) + (size.get(small) ?? 0));
    }
  }
  const groups = new Map<string, string[]>();
  for (const a of parent.keys()) {
    const root = find(a);
    groups.set(root, [...(groups.get(root) ?? []), a]);
  }
  return canonical([...groups.values()]);
}

/** Groups sorted inside and among themselves, for comparison. */
function canonical(groups: ReadonlyArray<ReadonlyArray<string>>): string[][] {
  return groups
    .map((g) => [...g].sort())
    .sort((a, b) => b.length - a.length || ((a[0] ?? "") < (b[0] ?? "") ? -1 : 1));
}

/** The partition the store keeps over `addresses`, with each cluster's size as the store says it. */
async function storedPartition(store: Store, addresses: ReadonlyArray<string>) {
  const clusters = await store.addressClusters("BTC", addresses);
  const groups = new Map<string, string[]>();
  const sizes = new Map<string, number>();
  for (const c of clusters) {
    groups.set(c.clusterId, [...(groups.get(c.clusterId) ?? []), c.address]);
    sizes.set(c.clusterId, c.size);
  }
  return { groups: canonical([...groups.values()]), sizes: [...sizes.values()].sort((a, b) => b - a) };
}

const txs = blockTransactions();
const truth = independentPartition(txs);
const everyInputAddress = [
  ...new Set(txs.flatMap((t) => t.inputs.map((i) => i.address).filter((a): a is string => a !== null))),
];

describe("clustering of mainnet block 300,025 against an independent union-find", () => {
  it("the block is what the issue says: 461 transactions, every input resolved", () => {
    expect(txs).toHaveLength(461);
    expect(txs.filter((t) => !t.coinbase).every((t) => t.inputs.every((i) => i.prevTxid !== null))).toBe(
      true,
    );
  });

  it("the independent partition: its clusters and their sizes", () => {
    const sizes = truth.map((g) => g.length);
    expect({
      clusters: truth.length,
      addresses: sizes.reduce((a, b) => a + b, 0),
      largest: sizes.slice(0, 5),
    }).toEqual(TRUTH_FIGURES);
  });

  for (const [name, open] of STORES) {
    it(`${name} store: the imported clusters equal it, a second import changes none, clustering off merges none`, async () => {
      const store = await open();
      try {
        const summary = await importFile(store, { kind: "ledger", file: block, format: "bitcoin-blocks" });
        expect(summary.added).toBe(461);
        const stored = await storedPartition(store, everyInputAddress);
        expect(stored.groups).toEqual(truth);
        expect(stored.sizes).toEqual(truth.map((g) => g.length));
        const again = await importFile(store, { kind: "ledger", file: block, format: "bitcoin-blocks" });
        expect(again.unchanged).toBe(461);
        expect(again.utxo?.clustering?.unions).toBe(0);
        expect((await storedPartition(store, everyInputAddress)).groups).toEqual(truth);
      } finally {
        await store.close();
      }
      const off = await open();
      try {
        const summary = await importFile(off, {
          kind: "ledger",
          file: block,
          format: "bitcoin-blocks",
          clustering: false,
        });
        expect(summary.utxo?.clustering).toBeNull();
        expect(await off.addressClusters("BTC", everyInputAddress)).toEqual([]);
      } finally {
        await off.close();
      }
    });
  }
});

describe("the SQLite bulk load (an exclusive import into an empty ledger)", () => {
  it("leaves the same ledger, clusters and summary as a batch at a time", async () => {
    const sqlite = await createSqliteStore({ filename: ":memory:" });
    let bulkLoads = 0;
    const bulk: Store = {
      ...sqlite,
      async bulkUtxoWriter(options) {
        const writer = (await sqlite.bulkUtxoWriter?.(options)) ?? null;
        if (writer !== null) bulkLoads++;
        return writer;
      },
    };
    const batched = await createSqliteStore({ filename: ":memory:" });
    try {
      const viaBulk = await importFile(bulk, {
        kind: "ledger",
        file: block,
        format: "bitcoin-blocks",
        exclusiveStore: true,
        batchSize: 100,
      });
      const viaBatches = await importFile(batched, {
        kind: "ledger",
        file: block,
        format: "bitcoin-blocks",
        batchSize: 100,
      });
      expect(viaBulk.added).toBe(461);
      expect(bulkLoads).toBe(1);
      expect(viaBulk.utxo).toEqual(viaBatches.utxo);
      expect((await storedPartition(bulk, everyInputAddress)).groups).toEqual(truth);
      const txids = txs.map((t) => t.txid);
      const sorted = (list: ReadonlyArray<UtxoTransaction>) =>
        [...list].sort((a, b) => (a.txid < b.txid ? -1 : 1));
      expect(sorted(await bulk.utxoTransactions("BTC", txids))).toEqual(
        sorted(await batched.utxoTransactions("BTC", txids)),
      );
      // The ledger is no longer empty: a second exclusive import goes a batch at a time.
      const again = await importFile(bulk, {
        kind: "ledger",
        file: block,
        format: "bitcoin-blocks",
        exclusiveStore: true,
      });
      expect(again.unchanged).toBe(461);
      expect(again.utxo?.clustering?.unions).toBe(0);
      expect(bulkLoads).toBe(1);
    } finally {
      await bulk.close();
      await batched.close();
    }
  });
});

/** `store` whose transactions fail when they merge clusters. */
function failingMerges(store: Store): Store {
  const bound = <T extends object>(target: T, p: string | symbol) => {
    const v = Reflect.get(target, p);
    return typeof v === "function" ? v.bind(target) : v;
  };
  return new Proxy(store, {
    get(target, p) {
      if (p !== "transaction") return bound(target, p);
      return (fn: Parameters<Store["transaction"]>[0]) =>
        target.transaction((tx) =>
          fn(
            new Proxy(tx, {
              get(view, q) {
                if (q === "mergeAddressClusters") return async () => Promise.reject(new Error("disk full"));
                return bound(view, q);
              },
            }),
          ),
        );
    },
  });
}

describe("a batch and its clustering land together", () => {
  it("a failed merge leaves the batch unwritten", async () => {
    const store = createMemoryStore();
    await expect(
      importFile(failingMerges(store), { kind: "ledger", file: block, format: "bitcoin-blocks" }),
    ).rejects.toThrow(/disk full/);
    expect(await store.utxoTransactions("BTC", [txs[1]?.txid as string])).toEqual([]);
    expect(await store.addressClusters("BTC", everyInputAddress)).toEqual([]);
  });
});

/** Counted by the union-find above over the block (pinned so that a change of the rule shows). */
const TRUTH_FIGURES = { clusters: 138, addresses: 617, largest: [54, 42, 28, 27, 21] };
