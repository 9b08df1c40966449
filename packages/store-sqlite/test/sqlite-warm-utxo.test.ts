/**
 * The warm UTXO ledger (`createWarmUtxoLedger`) over a SQLite store answers exactly as the store:
 * the same transactions (with their spenders), the same receipts of an address, the same
 * spends, and so the same BTC exposures under both taint rules; transactions stored after it
 * loaded are read on the next catch-up. And `createWarmSources` serves it to the engine.
 */
import {
  createEntityResolver,
  createWarmSources,
  createWarmUtxoLedger,
  type Store,
  storeAttributionSource,
  storeSanctionsSource,
  traceUtxoTransferExposure,
  type UtxoLedgerReader,
  type UtxoTaintRule,
  type UtxoTransaction,
} from "@openkyt/core";
import { generatedHotWallet, generatedUtxoAddress, generateUtxoLedger } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSqliteStore } from "../src/index.js";

const all: UtxoTransaction[] = [...generateUtxoLedger({ transactions: 1_500, exchanges: 4, seed: 17 })];
const first = all.slice(0, 1_200);
const later = all.slice(1_200);
const byTxid = (list: ReadonlyArray<UtxoTransaction>) => [...list].sort((a, b) => (a.txid < b.txid ? -1 : 1));

let store: Store;
beforeAll(async () => {
  store = await createSqliteStore({ filename: ":memory:" });
  for (let at = 0; at < first.length; at += 400) await store.putUtxoTransactions(first.slice(at, at + 400));
  const labels = [];
  for (let e = 0; e < 4; e++)
    labels.push({
      network: "BTC",
      address: generatedHotWallet(e),
      entityName: `Exchange ${e}`,
      entityCategory: "exchange",
      source: "test",
    });
  for (let n = 0; n < 3_000; n += 40)
    labels.push({
      network: "BTC",
      address: generatedUtxoAddress(n),
      entityName: n % 120 === 0 ? `Theft ${n}` : `Service ${n}`,
      entityCategory: n % 120 === 0 ? "stolen_funds" : "exchange",
      source: "test",
    });
  await store.putAttributions(labels);
});
afterAll(async () => {
  await store.close();
});

/** The exposure of `tx`'s largest addressed output, traced over `ledger`. */
async function exposure(ledger: UtxoLedgerReader, tx: UtxoTransaction, rule: UtxoTaintRule) {
  const output = [...tx.outputs].filter((o) => o.address !== null).sort((a, b) => b.value - a.value)[0];
  const [held] = await ledger.utxoTransactions("BTC", [tx.txid]);
  if (!output?.address || !held) throw new Error(`${tx.txid} not held`);
  const resolver = createEntityResolver({
    attributions: storeAttributionSource(store),
    sanctions: storeSanctionsSource(store),
  });
  return traceUtxoTransferExposure({
    ledger,
    resolver,
    network: "BTC",
    direction: "incoming",
    tx: held,
    address: output.address,
    value: 1_000,
    span: { from: tx.occurredAt, to: tx.occurredAt },
    rule,
  });
}

describe("warm UTXO ledger over SQLite", () => {
  it("answers every read as the store does, and traces to the same exposures", async () => {
    const warm = await createWarmUtxoLedger(store, { maxLagMs: 60_000 });
    if (!warm) throw new Error("the SQLite store cannot list its UTXO ledger");
    expect(warm.size).toBe(first.length);
    const txids = first.map((t) => t.txid);
    expect(byTxid(await warm.utxoTransactions("BTC", txids))).toEqual(
      byTxid(await store.utxoTransactions("BTC", txids)),
    );
    const addresses = [
      ...new Set(first.flatMap((t) => t.outputs.map((o) => o.address)).filter((a) => a !== null)),
    ].slice(0, 300);
    const received = addresses.map((address) => ({ address, before: Number.MAX_SAFE_INTEGER }));
    expect(await warm.utxoReceived("BTC", received, 20)).toEqual(
      await store.utxoReceived("BTC", received, 20),
    );
    const spent = addresses.map((address) => ({ address, after: 0 }));
    expect(await warm.utxoSpentFrom("BTC", spent, 20)).toEqual(await store.utxoSpentFrom("BTC", spent, 20));
    const deposits = first.filter((t, i) => i > 300 && i % 37 === 0 && !t.coinbase);
    let flagged = 0;
    for (const tx of deposits)
      for (const rule of ["haircut", "fifo"] as const) {
        const fromWarm = await exposure(warm, tx, rule);
        expect(fromWarm).toEqual(await exposure(store, tx, rule));
        if (fromWarm.shares.length > 0 || fromWarm.direct !== null) flagged++;
      }
    // The comparison means something: traces meet labelled entities.
    expect(flagged).toBeGreaterThan(deposits.length / 2);
  });

  it("reads transactions stored after it loaded at the next catch-up", async () => {
    const warm = await createWarmUtxoLedger(store, { maxLagMs: 0 });
    if (!warm) throw new Error("the SQLite store cannot list its UTXO ledger");
    const newest = later[later.length - 1] as UtxoTransaction;
    expect(await warm.utxoTransactions("BTC", [newest.txid])).toEqual([]);
    await store.putUtxoTransactions(later);
    expect(byTxid(await warm.utxoTransactions("BTC", [newest.txid]))).toEqual(
      byTxid(await store.utxoTransactions("BTC", [newest.txid])),
    );
    expect(warm.size).toBe(all.length);
    // The engine's warm sources carry it, and bind BTC hashes from it.
    const sources = await createWarmSources(store);
    expect(sources.utxoLedger?.size).toBe(all.length);
    const found = await sources.chainSource.lookup("BTC", newest.txid);
    expect(found).toMatchObject({ kind: "found", utxo: { txid: newest.txid } });
  });
});
