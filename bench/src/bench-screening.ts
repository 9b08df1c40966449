/**
 * Screening throughput and latency on one process over a SQLite file holding the generated
 * ledger: transfers registered, bound, checked (exposure, counterparty, sanctions), risks and
 * alerts written.
 */
import { createEngine, type Engine, type LedgerTransfer } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { ledgerCopy, removeCopy } from "./bench-ledger-db.js";
import { type Figure, figure, percentile, repeat } from "./bench-stats.js";
import { sampleTransfers } from "./bench-tracing.js";

const body = (row: LedgerTransfer) => ({
  direction: "incoming",
  network: row.network,
  tx_hash: row.txHash,
  token_id: row.tokenId,
  output_address: row.to,
});

async function withEngine<T>(
  ledgerSize: number,
  run: (engine: Engine, sample: LedgerTransfer[]) => Promise<T>,
  count: number,
) {
  const file = await ledgerCopy(ledgerSize, "screening");
  const store = await createSqliteStore({ filename: file });
  try {
    const sample = await sampleTransfers(store, ledgerSize, count);
    const engine = createEngine({ store, jobs: { concurrency: 32 } });
    return await run(engine, sample);
  } finally {
    await store.close();
    removeCopy(file);
  }
}

/** Registers `count` transfers, runs every job, and returns transfers/s with risk and alert counts. */
async function throughputRun(ledgerSize: number, count: number) {
  return withEngine(
    ledgerSize,
    async (engine, sample) => {
      const api = engine.forAccount("bench");
      let alerts = 0;
      engine.events.on("alert.created", () => {
        alerts += 1;
      });
      const t0 = performance.now();
      for (const row of sample) await api.registerTransfer(body(row));
      await engine.drain();
      const seconds = (performance.now() - t0) / 1000;
      const checked = await api.listTransfers({ page_size: "1" });
      if (checked.total_items !== sample.length) throw new Error("not every transfer was registered");
      return { rate: sample.length / seconds, alerts };
    },
    count,
  );
}

/** Latency register -> all checks finished, at a fixed arrival rate with the runner in the background. */
async function latencyRun(ledgerSize: number, count: number, perSecond: number) {
  return withEngine(
    ledgerSize,
    async (engine, sample) => {
      const api = engine.forAccount("bench");
      const started = new Map<string, number>();
      const latencies: number[] = [];
      let done: () => void = () => {};
      const finished = new Promise<void>((resolve) => {
        done = resolve;
      });
      engine.events.on("transfer.checked", (t) => {
        const at = started.get(t.id);
        if (at === undefined) return;
        started.delete(t.id);
        latencies.push(performance.now() - at);
        if (latencies.length === sample.length) done();
      });
      engine.start();
      const interval = 1000 / perSecond;
      const t0 = performance.now();
      for (const [i, row] of sample.entries()) {
        const due = t0 + i * interval;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const at = performance.now();
        const { transfer } = await api.registerTransfer(body(row));
        started.set(transfer.id, at);
      }
      await finished;
      await engine.stop();
      return latencies;
    },
    count,
  );
}

/** Throughput, then latency at half the measured rate. */
export async function benchScreening(ledgerSize: number, quick: boolean): Promise<Figure[]> {
  const count = quick ? 300 : 1_000;
  const runs = await repeat(quick ? 1 : 3, () => throughputRun(ledgerSize, count));
  const rates = runs.map((r) => r.rate);
  const rate = percentile(rates, 50);
  const half = Math.max(10, Math.floor(rate / 2));
  const latencies = await latencyRun(ledgerSize, quick ? 200 : Math.min(5_000, half * 5), half);
  return [
    figure(`screening throughput, SQLite, 1 process (${count} transfers)`, "transfers/s", rates, ">= 5,000"),
    figure(
      "alerts written per run",
      "alerts",
      runs.map((r) => r.alerts),
    ),
    figure(`register -> checked latency p50 at ${half}/s`, "ms", [percentile(latencies, 50)]),
    figure(`register -> checked latency p99 at ${half}/s`, "ms", [percentile(latencies, 99)], "<= 50"),
  ];
}
