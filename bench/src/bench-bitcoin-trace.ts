/**
 * Bitcoin tracing beside Ethereum tracing, in one run on the same machine: warm traces (the
 * ledger in memory) at the default depth and floor (20 hops, 1e-3) of deposits on a generated
 * UTXO ledger (`generateUtxoLedger`: exchange hot wallets, consolidations, peel chains, payments
 * with change) and of transfers on the generated account-model ledger, p50/p99 and CPU per
 * trace, and the BTC/ETH ratio of CPU per trace (target <= 1.5). Also the memory the UTXO ledger
 * takes per transaction in the memory store (heap after a forced GC, before and after loading).
 *
 * Labels: every exchange's hot wallet (exchange) and one address in 200 (a third of them
 * stolen_funds, the rest exchange), so traces meet entities at every depth.
 *
 *   npm run bench -- --only bitcoin-trace         (1,000,000 of each; --quick: 20,000 each)
 */
import {
  createEntityResolver,
  createMemoryStore,
  DEFAULT_EDGE_BUDGET,
  DEFAULT_MIN_PATH_WEIGHT,
  LedgerIndex,
  storeAttributionSource,
  storeSanctionsSource,
  traceUtxoTransferExposure,
  type UtxoTransaction,
} from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { generatedHotWallet, generatedUtxoAddress, generateUtxoLedger, seededRandom } from "@openkyt/testkit";
import { ledgerCopy, removeCopy } from "./bench-ledger-db.js";
import { type Figure, figure, percentile } from "./bench-stats.js";
import { benchReferenceResolver, loadLedgerInto, sampleTransfers, traceSampleRow } from "./bench-tracing.js";

const EXCHANGES = 8;
const MAX_HOPS = 20;

function heapUsed(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

/** CPU milliseconds of the process since `from`. */
function cpuSince(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
}

/** Warm BTC traces: p50, p99 (ms) and CPU per trace (ms). */
async function bitcoinTraces(transactions: number, samples: number) {
  const store = createMemoryStore();
  const before = heapUsed();
  const batch: UtxoTransaction[] = [];
  const candidates: UtxoTransaction[] = [];
  const rnd = seededRandom(7);
  let seen = 0;
  for (const tx of generateUtxoLedger({ transactions, exchanges: EXCHANGES, seed: 31 })) {
    batch.push(tx);
    seen += 1;
    // Deposits to screen: transactions after the first tenth that pay an address and spend coins.
    if (seen > transactions / 10 && tx.inputs.some((i) => !i.coinbase) && rnd() < 0.02) candidates.push(tx);
    if (batch.length === 5_000) {
      await store.putUtxoTransactions(batch.splice(0));
    }
  }
  if (batch.length > 0) await store.putUtxoTransactions(batch.splice(0));
  const bytesPerTx = (heapUsed() - before) / transactions;
  const labels = [];
  for (let e = 0; e < EXCHANGES; e++)
    labels.push({
      network: "BTC",
      address: generatedHotWallet(e),
      entityName: `Exchange ${e}`,
      entityCategory: "exchange",
      source: "bench",
    });
  for (let n = 0; n < transactions * 2; n += 200)
    labels.push({
      network: "BTC",
      address: generatedUtxoAddress(n),
      entityName: n % 600 === 0 ? `Theft ${n}` : `Service ${n}`,
      entityCategory: n % 600 === 0 ? "stolen_funds" : "exchange",
      source: "bench",
    });
  await store.putAttributions(labels);
  const resolver = createEntityResolver({
    attributions: storeAttributionSource(store),
    sanctions: storeSanctionsSource(store),
  });
  const sample = candidates.slice(0, samples);
  const trace = async (tx: UtxoTransaction) => {
    const output = [...tx.outputs].filter((o) => o.address !== null).sort((a, b) => b.value - a.value)[0];
    const [stored] = await store.utxoTransactions("BTC", [tx.txid]);
    if (!output?.address || !stored) throw new Error(`deposit ${tx.txid} not in the ledger`);
    return traceUtxoTransferExposure({
      ledger: store,
      resolver,
      network: "BTC",
      direction: "incoming",
      tx: stored,
      address: output.address,
      value: 1_000,
      span: { from: tx.occurredAt, to: tx.occurredAt },
      maxHops: MAX_HOPS,
      minPathWeight: DEFAULT_MIN_PATH_WEIGHT,
      edgeBudget: DEFAULT_EDGE_BUDGET,
    });
  };
  for (const tx of sample.slice(0, 20)) await trace(tx); // warm-up
  const ms: number[] = [];
  let edges = 0;
  const cpu0 = process.cpuUsage();
  for (const tx of sample) {
    const t0 = performance.now();
    const result = await trace(tx);
    ms.push(performance.now() - t0);
    edges += result.edgesRead;
  }
  return {
    ms,
    cpuPerTrace: cpuSince(cpu0) / sample.length,
    edges: edges / sample.length,
    bytesPerTx,
    n: sample.length,
  };
}

/** Warm ETH traces on the generated account-model ledger of `transfers` rows. */
async function ethereumTraces(transfers: number, samples: number) {
  const file = await ledgerCopy(transfers, "bitcoin-trace");
  try {
    const sqlite = await createSqliteStore({ filename: file });
    const sample = await sampleTransfers(sqlite, transfers, samples);
    await sqlite.close();
    const index = new LedgerIndex();
    await loadLedgerInto(index, file);
    const deps = { ledger: index, resolver: await benchReferenceResolver(transfers) };
    const trace = (row: (typeof sample)[number]) => traceSampleRow(deps, row, MAX_HOPS);
    for (const row of sample.slice(0, 20)) await trace(row); // warm-up
    const ms: number[] = [];
    let edges = 0;
    const cpu0 = process.cpuUsage();
    for (const row of sample) {
      const t0 = performance.now();
      const result = await trace(row);
      ms.push(performance.now() - t0);
      edges += result.edgesRead;
    }
    return { ms, cpuPerTrace: cpuSince(cpu0) / sample.length, edges: edges / sample.length };
  } finally {
    removeCopy(file);
  }
}

/** The figures: BTC and ETH warm traces at the default depth, their ratio, memory per transaction. */
export async function benchBitcoinTrace(ledgerSize: number, quick: boolean): Promise<Figure[]> {
  // Full size: as many UTXO transactions as the ETH ledger has transfers (1M: about 2.2 GB of heap).
  const size = quick ? Math.min(ledgerSize, 20_000) : ledgerSize;
  const samples = quick ? 200 : 1_000;
  const btc = await bitcoinTraces(size, samples);
  const eth = await ethereumTraces(ledgerSize, samples);
  const label = `${size.toLocaleString("en-US")}-transaction UTXO ledger`;
  return [
    figure(`BTC 20-hop trace p50, warm (memory store), ${label}`, "ms", [percentile(btc.ms, 50)]),
    figure(`BTC 20-hop trace p99, warm`, "ms", [percentile(btc.ms, 99)]),
    figure(`BTC 20-hop CPU per trace, warm (mean of ${btc.n})`, "ms", [btc.cpuPerTrace]),
    figure(`BTC 20-hop edges read per trace (mean)`, "edges", [btc.edges]),
    figure(
      `ETH 20-hop CPU per trace, warm, same run (${ledgerSize.toLocaleString("en-US")} transfers)`,
      "ms",
      [eth.cpuPerTrace],
    ),
    figure(`ETH 20-hop edges read per trace (mean)`, "edges", [eth.edges]),
    figure(`BTC/ETH CPU per trace`, "x", [btc.cpuPerTrace / eth.cpuPerTrace], "<= 1.5"),
    figure(`BTC/ETH CPU per edge read`, "x", [btc.cpuPerTrace / btc.edges / (eth.cpuPerTrace / eth.edges)]),
    figure(`UTXO ledger memory per transaction (memory store, heap)`, "bytes", [btc.bytesPerTx]),
  ];
}
