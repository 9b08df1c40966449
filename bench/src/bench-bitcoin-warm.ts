/**
 * Bitcoin end to end on one SQLite file, at full size (issue 31, item 8): a generated UTXO
 * ledger (`generateUtxoLedger`: exchange hot wallets, consolidations, peel chains, payments with
 * change; 250 transactions a block) of 1,000,000 transactions (20,000 with --quick)
 *
 * 1. imported as `openkyt import ledger` imports into an empty database: the store's bulk UTXO
 *    load (`bulkUtxoWriter`, exclusive), batches of 5,000, common-input clusters gathered per
 *    batch and written with the commit: transactions/s and CPU per 1,000 transactions, and the
 *    clustering's CPU per imported block (grouping each transaction's inputs, joining the
 *    groups in memory);
 * 2. loaded warm as `serve --warm` loads it (`createWarmSources`: the UTXO ledger in memory):
 *    load time, heap per transaction;
 * 3. traced warm at the defaults (20 hops, floor 1e-3, budget 10,000; haircut): p50, p99, CPU,
 *    right after the load and again over the same deposits once the heap has settled;
 * 4. screened through the README's embedding API (`createEngine({ store, ...warm })`,
 *    `registerTransfer` of BTC deposits, 64 in flight, the job runner checking): transfers/s and
 *    CPU per transfer.
 *
 * 5. the largest cluster: its size and the CPU of one walk of its labelled members (what the
 *    warm cluster cache repeats at most once a second).
 *
 * Labels: every exchange's hot wallet and one address in 200 (a third stolen_funds).
 *
 *   npm run bench -- --only bitcoin-warm
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addressOfScript, bitcoinParams } from "@openkyt/chain-bitcoin";
import {
  addressComponents,
  CLUSTER_LABEL_LIMIT,
  commonInputGroups,
  createEngine,
  createEntityResolver,
  createWarmSources,
  DEFAULT_EDGE_BUDGET,
  DEFAULT_MIN_PATH_WEIGHT,
  traceUtxoTransferExposure,
  type UtxoTransaction,
} from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { generatedHotWallet, generatedUtxoAddress, generateUtxoLedger, seededRandom } from "@openkyt/testkit";
import { type Figure, figure, percentile } from "./bench-stats.js";

const EXCHANGES = 8;
const BATCH = 5_000;
const INFLIGHT = 64;

function heapUsed(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

function cpuMsSince(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
}

const PARAMS = bitcoinParams("BTC");
const validAddresses = new Map<string, string>();

/**
 * A valid P2WPKH address standing for a generated one (the generator's addresses are readable
 * but fail the bech32 checksum, which the registration API checks): the same generated address
 * always maps to the same one.
 */
function valid(address: string): string {
  let out = validAddresses.get(address);
  if (out === undefined) {
    const hash = createHash("sha256").update(address).digest().subarray(0, 20);
    out = addressOfScript(Uint8Array.from([0x00, 0x14, ...hash]), PARAMS) as string;
    validAddresses.set(address, out);
  }
  return out;
}

/** `tx` with every address replaced by its valid stand-in. */
function withValidAddresses(tx: UtxoTransaction): UtxoTransaction {
  return {
    ...tx,
    inputs: tx.inputs.map((i) => (i.address === null ? i : { ...i, address: valid(i.address) })),
    outputs: tx.outputs.map((o) => (o.address === null ? o : { ...o, address: valid(o.address) })),
  };
}

/** The deposit a sample transaction makes: its largest output paying an address. */
function depositOf(tx: UtxoTransaction): { txid: string; address: string } {
  const output = [...tx.outputs].filter((o) => o.address !== null).sort((a, b) => b.value - a.value)[0];
  if (!output?.address) throw new Error(`${tx.txid} pays no address`);
  return { txid: tx.txid, address: output.address };
}

/** The figures of one run over `transactions` generated transactions. */
export async function benchBitcoinWarm(ledgerSize: number, quick: boolean): Promise<Figure[]> {
  const transactions = quick ? Math.min(ledgerSize, 20_000) : ledgerSize;
  const samples = quick ? 200 : 1_000;
  const label = `${transactions.toLocaleString("en-US")} txs`;
  const dir = mkdtempSync(join(tmpdir(), "openkyt-btc-warm-"));
  const store = await createSqliteStore({ filename: join(dir, "btc.sqlite") });
  try {
    // 1. Import.
    const bulk = await store.bulkUtxoWriter?.({ exclusive: true });
    if (!bulk) throw new Error("the SQLite store offered no bulk UTXO load");
    const groups = new Map<string, string[][]>();
    const candidates: UtxoTransaction[] = [];
    const rnd = seededRandom(7);
    const blocks = new Set<number>();
    let batch: UtxoTransaction[] = [];
    let importMs = 0;
    let importCpuMs = 0;
    let clusterCpuMs = 0;
    const flush = async () => {
      const written = batch;
      batch = [];
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      const clusterCpu = process.cpuUsage();
      const found = commonInputGroups(written);
      for (const [network, list] of found.groups) {
        const all = groups.get(network);
        if (all) for (const g of list) all.push(g);
        else groups.set(network, [...list]);
      }
      clusterCpuMs += cpuMsSince(clusterCpu);
      await bulk.write(written);
      importMs += performance.now() - t0;
      importCpuMs += cpuMsSince(cpu);
    };
    let seen = 0;
    let largestComponent: string[] | undefined;
    for (const generated of generateUtxoLedger({ transactions, exchanges: EXCHANGES, seed: 31 })) {
      const tx = withValidAddresses(generated);
      batch.push(tx);
      seen++;
      if (tx.block !== null) blocks.add(tx.block);
      if (seen > transactions / 10 && !tx.coinbase && rnd() < (samples * 3) / transactions)
        candidates.push(tx);
      if (batch.length === BATCH) await flush();
    }
    if (batch.length > 0) await flush();
    {
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      const joinCpu = process.cpuUsage();
      // The in-memory union-find the load's commit runs again: timed alone for the clustering figure.
      for (const list of groups.values())
        for (const component of addressComponents(list))
          if (component.length > (largestComponent?.length ?? 0)) largestComponent = component;
      clusterCpuMs += cpuMsSince(joinCpu);
      const outcome = await bulk.finish(groups);
      importMs += performance.now() - t0;
      importCpuMs += cpuMsSince(cpu) - 0;
      if (outcome.added !== transactions) throw new Error(`imported ${outcome.added} of ${transactions}`);
    }
    console.error(
      `import: ${Math.round(transactions / (importMs / 1000))} tx/s, ${(importCpuMs / (transactions / 1000)).toFixed(1)} ms CPU per 1k tx`,
    );

    const labels = [];
    for (let e = 0; e < EXCHANGES; e++)
      labels.push({
        network: "BTC",
        address: valid(generatedHotWallet(e)),
        entityName: `Exchange ${e}`,
        entityCategory: "exchange",
        source: "bench",
      });
    for (let n = 0; n < transactions * 2; n += 200)
      labels.push({
        network: "BTC",
        address: valid(generatedUtxoAddress(n)),
        entityName: n % 600 === 0 ? `Theft ${n}` : `Service ${n}`,
        entityCategory: n % 600 === 0 ? "stolen_funds" : "exchange",
        source: "bench",
      });
    await store.putAttributions(labels);
    validAddresses.clear();

    // 2. Warm load.
    const heap0 = heapUsed();
    const t0 = performance.now();
    const warmCpu = process.cpuUsage();
    const warm = await createWarmSources(store);
    const warmMs = performance.now() - t0;
    const warmCpuMs = cpuMsSince(warmCpu);
    const bytesPerTx = (heapUsed() - heap0) / transactions;
    if (warm.utxoLedger?.size !== transactions) throw new Error("the warm UTXO ledger is incomplete");
    console.error(`warm load: ${Math.round(warmMs)} ms, ${Math.round(bytesPerTx)} bytes/tx`);

    // 3. Warm traces.
    const ledger = warm.utxoLedger;
    const resolver = createEntityResolver({ attributions: warm.attributions, sanctions: warm.sanctions });
    const trace = async (tx: UtxoTransaction) => {
      const { address } = depositOf(tx);
      const [held] = await ledger.utxoTransactions("BTC", [tx.txid]);
      if (!held) throw new Error(`${tx.txid} not held`);
      return traceUtxoTransferExposure({
        ledger,
        resolver,
        network: "BTC",
        direction: "incoming",
        tx: held,
        address,
        value: 1_000,
        span: { from: tx.occurredAt, to: tx.occurredAt },
        minPathWeight: DEFAULT_MIN_PATH_WEIGHT,
        edgeBudget: DEFAULT_EDGE_BUDGET,
      });
    };
    const traced = candidates.slice(0, samples);
    for (const tx of traced.slice(0, 20)) await trace(tx);
    // Two passes over the same deposits: the first right after the load (as a process that has
    // just started serves), the second once the heap has settled (on a 1M ledger the first
    // pass's scavenges cost several times the traces' own work).
    const pass = async () => {
      const ms: number[] = [];
      let edges = 0;
      const traceCpu = process.cpuUsage();
      for (const tx of traced) {
        const s = performance.now();
        edges += (await trace(tx)).edgesRead;
        ms.push(performance.now() - s);
      }
      return { ms, edges, cpuPerTrace: cpuMsSince(traceCpu) / traced.length };
    };
    const { ms, edges, cpuPerTrace } = await pass();
    const settled = await pass();
    console.error(
      `warm traces: p50 ${percentile(ms, 50).toFixed(2)} ms, p99 ${percentile(ms, 99).toFixed(2)} ms, ${cpuPerTrace.toFixed(2)} ms CPU per trace; second pass p50 ${percentile(settled.ms, 50).toFixed(2)} ms, p99 ${percentile(settled.ms, 99).toFixed(2)} ms, ${settled.cpuPerTrace.toFixed(2)} ms CPU`,
    );

    // 4. Screening through the embedding API.
    const screened = candidates.slice(samples, samples * 2);
    const engine = createEngine({ store, jobs: { pollIntervalMs: 20 }, ...warm });
    const api = engine.forAccount("bench");
    let checked = 0;
    let lastCheckedAt = 0;
    const allChecked = new Promise<void>((resolve) => {
      engine.events.on("transfer.checked", () => {
        checked++;
        lastCheckedAt = performance.now();
        if (checked === screened.length) resolve();
      });
    });
    // The runner's timers do not hold the process: keep it alive until every check is written.
    const alive = setInterval(
      () => console.error(`screening: ${checked} of ${screened.length} checked`),
      5_000,
    );
    const screenCpu = process.cpuUsage();
    const s0 = performance.now();
    engine.start();
    let next = 0;
    await Promise.all(
      Array.from({ length: INFLIGHT }, async () => {
        while (next < screened.length) {
          const { txid, address } = depositOf(screened[next++] as UtxoTransaction);
          await api.registerTransfer({
            direction: "incoming",
            network: "BTC",
            tx_hash: txid,
            output_address: address,
          });
        }
      }),
    );
    // At most two minutes: a deposit whose checks never finish is reported, not waited for.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([allChecked, new Promise((r) => (timer = setTimeout(r, 120_000)))]);
    clearTimeout(timer);
    clearInterval(alive);
    if (checked < screened.length) console.error(`screening: only ${checked} of ${screened.length} checked`);
    const screenSeconds = (lastCheckedAt - s0) / 1000;
    const screenCpuMs = cpuMsSince(screenCpu) / checked;
    await engine.stop();

    // 5. What a BTC check's cluster resolution costs the store at this size: the largest
    // cluster (customers' two-input payments join their addresses into one that grows with the
    // ledger) and one walk of its labelled members, which the warm cluster cache
    // (`cached-clusters.ts`) repeats at most once a second.
    const [largest] = await store.addressClusters("BTC", largestComponent?.slice(0, 1) ?? []);
    const walk = async () =>
      largest ? store.clusterLabelledMembers("BTC", [largest.clusterId], CLUSTER_LABEL_LIMIT) : [];
    await walk();
    const walkCpu = process.cpuUsage();
    const labelledFound = (await walk()).length;
    const walkCpuMs = cpuMsSince(walkCpu);
    console.error(
      `largest cluster: ${largest?.size ?? 0} addresses (${labelledFound} labelled members read); one walk ${walkCpuMs.toFixed(1)} ms CPU`,
    );

    return [
      figure(
        `BTC import into SQLite, bulk load with clusters (${label})`,
        "tx/s",
        [transactions / (importMs / 1000)],
        ">= 100,000 tx/s",
      ),
      figure(`BTC import CPU per 1,000 tx (${label})`, "ms", [importCpuMs / (transactions / 1000)]),
      figure(`BTC clustering CPU per imported block of 250 tx (${label})`, "ms", [
        clusterCpuMs / blocks.size,
      ]),
      figure(`BTC warm load from SQLite (${label})`, "ms", [warmMs]),
      figure(`BTC warm load CPU per 1,000 tx`, "ms", [warmCpuMs / (transactions / 1000)]),
      figure(`BTC warm UTXO ledger memory per transaction (heap)`, "bytes", [bytesPerTx]),
      figure(`BTC 20-hop trace p50, warm from SQLite (${label})`, "ms", [percentile(ms, 50)]),
      figure(`BTC 20-hop trace p99, warm`, "ms", [percentile(ms, 99)]),
      figure(`BTC 20-hop CPU per trace, warm (mean of ${traced.length})`, "ms", [cpuPerTrace]),
      figure(`BTC 20-hop edges read per trace (mean)`, "edges", [edges / traced.length]),
      figure(`BTC 20-hop trace p50, warm, second pass`, "ms", [percentile(settled.ms, 50)]),
      figure(`BTC 20-hop trace p99, warm, second pass`, "ms", [percentile(settled.ms, 99)]),
      figure(`BTC 20-hop CPU per trace, warm, second pass`, "ms", [settled.cpuPerTrace]),
      figure(`BTC deposits screened, warm, embedding API (${checked} of ${screened.length})`, "transfers/s", [
        checked / screenSeconds,
      ]),
      figure(`BTC screening CPU per deposit`, "ms", [screenCpuMs]),
      figure(`BTC largest cluster (addresses)`, "addresses", [largest?.size ?? 0]),
      figure(`BTC one walk of the largest cluster's labelled members`, "ms", [walkCpuMs]),
    ];
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
