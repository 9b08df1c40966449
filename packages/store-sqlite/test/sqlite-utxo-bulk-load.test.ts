/**
 * The SQLite store's bulk UTXO load (`sqlite-utxo-bulk-load.ts`): the same ledger and clusters
 * (their labelled members included, and which clusters hold two or more) as `putUtxoTransactions`
 * and `mergeAddressClusters`, the
 * indexes back as they were, a repeated txid kept once (the first), a refused batch leaving nothing (refused by
 * the checks or by SQLite mid-write, the transaction ids given again), `abort` leaving nothing, and no
 * bulk load into a ledger that holds rows or a load that is not exclusive.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commonInputGroups, type Store, type UtxoTransaction } from "@openkyt/core";
import { generateUtxoLedger } from "@openkyt/testkit";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createSqliteStore } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "openkyt-utxo-bulk-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const open = () => createSqliteStore({ filename: join(dir, `ledger-${++files}.sqlite`) });

const txs: UtxoTransaction[] = [...generateUtxoLedger({ transactions: 600, seed: 5 })];
const txids = txs.map((t) => t.txid);
const addresses = [...new Set(txs.flatMap((t) => t.inputs.map((i) => i.address)).filter((a) => a !== null))];
const byTxid = (list: ReadonlyArray<UtxoTransaction>) => [...list].sort((a, b) => (a.txid < b.txid ? -1 : 1));

/** Partition of `addresses` as the store clusters them (cluster ids aside). */
async function partition(store: Store): Promise<string[][]> {
  const groups = new Map<string, string[]>();
  for (const c of await store.addressClusters("BTC", addresses))
    groups.set(c.clusterId, [...(groups.get(c.clusterId) ?? []), c.address]);
  return [...groups.values()]
    .map((g) => g.sort())
    .sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

describe("SQLite bulk UTXO load", () => {
  it("gives the ledger and clusters of putUtxoTransactions, a repeated txid kept once", async () => {
    const bulkStore = await open();
    const plain = await open();
    try {
      // Some addresses are labelled before the load: their clusters' labelled members are kept.
      const labelled = addresses
        .filter((_, i) => i % 7 === 0)
        .map((address) => ({
          network: "BTC",
          address,
          entityName: "E",
          entityCategory: "exchange",
          source: null,
        }));
      await bulkStore.putAttributions(labelled);
      await plain.putAttributions(labelled);
      const writer = await bulkStore.bulkUtxoWriter?.({ exclusive: true });
      if (!writer) throw new Error("no bulk load offered on an empty ledger");
      // A repeated txid (the same transaction again in a later batch, and a changed copy) is kept once.
      const changed = { ...(txs[3] as UtxoTransaction), position: 999 };
      await writer.write(txs.slice(0, 250));
      await writer.write([...txs.slice(250), txs[3] as UtxoTransaction, changed]);
      const { groups } = commonInputGroups(txs);
      const outcome = await writer.finish(groups);
      expect(outcome.added).toBe(txs.length);

      await plain.putUtxoTransactions(txs);
      const merged = await plain.mergeAddressClusters("BTC", groups.get("BTC") ?? []);
      expect(outcome.clusters.get("BTC")?.unions).toBe(merged.unions);
      expect(byTxid(await bulkStore.utxoTransactions("BTC", txids))).toEqual(
        byTxid(await plain.utxoTransactions("BTC", txids)),
      );
      expect(await partition(bulkStore)).toEqual(await partition(plain));
      const labelledMembers = async (store: Store) => {
        const ids = (await store.addressClusters("BTC", addresses)).map((c) => c.clusterId);
        return (await store.clusterLabelledMembers("BTC", ids, 1_000)).map((m) => m.address).sort();
      };
      const kept = await labelledMembers(bulkStore);
      expect(kept.length).toBeGreaterThan(0);
      expect(kept).toEqual(await labelledMembers(plain));
      // The clusters that can hold a conflict: those with two labelled members or more.
      const ids = (await plain.addressClusters("BTC", addresses)).map((c) => c.clusterId);
      const perCluster = new Map<string, number>();
      for (const m of await plain.clusterLabelledMembers("BTC", ids, 1_000))
        perCluster.set(m.clusterId, (perCluster.get(m.clusterId) ?? 0) + 1);
      const contestable = [...perCluster].filter(([, n]) => n > 1).map(([id]) => id);
      expect(contestable.length).toBeGreaterThan(0);
      expect(outcome.contestable?.get("BTC")).toEqual(contestable.sort());
      // The indexes are back: an address's receipts and the spender of an outpoint read alike.
      const someAddress = txs[10]?.outputs[0]?.address as string;
      const query = [{ address: someAddress, before: Number.MAX_SAFE_INTEGER }];
      expect(await bulkStore.utxoReceived("BTC", query, 50)).toEqual(
        await plain.utxoReceived("BTC", query, 50),
      );
      // The keys are back too: a second write of a stored transaction changes nothing.
      expect(await bulkStore.putUtxoTransactions([txs[0] as UtxoTransaction])).toBe(0);
      // The ledger holds rows now: no bulk load.
      expect(await bulkStore.bulkUtxoWriter?.({ exclusive: true })).toBeNull();
    } finally {
      await bulkStore.close();
      await plain.close();
    }
  });

  it("leaves nothing after abort, nothing of a refused batch, and is offered only for exclusive loads", async () => {
    const store = await open();
    try {
      expect(await store.bulkUtxoWriter?.({ exclusive: false })).toBeNull();
      const writer = await store.bulkUtxoWriter?.({ exclusive: true });
      if (!writer) throw new Error("no bulk load offered on an empty ledger");
      await writer.write(txs.slice(0, 100));
      const bad = {
        ...(txs[150] as UtxoTransaction),
        outputs: [{ vout: 0, address: null, value: 1.5, spentBy: null }],
      };
      await expect(writer.write([...txs.slice(100, 200), bad])).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
      });
      await writer.write(txs.slice(100, 200));
      await writer.abort();
      await writer.abort();
      await expect(writer.write(txs.slice(0, 1))).rejects.toThrow(/has ended/);
      expect(await store.utxoTransactions("BTC", txids)).toEqual([]);
      // The store is usable again, its keys in place.
      expect(await store.putUtxoTransactions(txs.slice(0, 10))).toBe(10);
      expect(await store.putUtxoTransactions(txs.slice(0, 10))).toBe(0);
    } finally {
      await store.close();
    }
  });

  it("after a batch SQLite refused mid-write (none of its rows kept), numbers the next transactions on", async () => {
    const file = join(dir, `ledger-${++files}.sqlite`);
    await (await createSqliteStore({ filename: file })).close();
    // A trigger (the load drops indexes, not triggers) refuses one output after rows of its batch went in.
    const raw = new BetterSqlite3(file);
    raw.exec(
      "CREATE TRIGGER refuse_boom BEFORE INSERT ON utxo_outputs WHEN NEW.address = 'boom' BEGIN SELECT RAISE(ABORT, 'boom refused'); END",
    );
    raw.close();
    const store = await createSqliteStore({ filename: file });
    const plain = await open();
    try {
      const writer = await store.bulkUtxoWriter?.({ exclusive: true });
      if (!writer) throw new Error("no bulk load offered on an empty ledger");
      await writer.write(txs.slice(0, 100));
      const boom = {
        ...(txs[180] as UtxoTransaction),
        outputs: [{ vout: 0, address: "boom", value: 1, spentBy: null }],
      };
      await expect(
        writer.write([...txs.slice(100, 180), boom, ...txs.slice(181, 300)]),
      ).rejects.toMatchObject({
        code: "STORE_ERROR",
      });
      await writer.write(txs.slice(100));
      expect((await writer.finish(new Map())).added).toBe(txs.length);
      await plain.putUtxoTransactions(txs);
      expect(byTxid(await store.utxoTransactions("BTC", txids))).toEqual(
        byTxid(await plain.utxoTransactions("BTC", txids)),
      );
      // The ids run 1..n with no gap: the refused batch's numbers were given again.
      const scanned = await store.scanUtxoTransactions?.(0, txs.length + 10);
      expect(scanned?.last).toBe(txs.length);
      expect(scanned?.txs.map((t) => t.txid)).toEqual(txids);
    } finally {
      await store.close();
      await plain.close();
    }
  });
});
