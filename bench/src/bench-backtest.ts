/**
 * Backtest throughput on stored exposures: transfers evaluated per second by a backtest of a
 * candidate model over an account's screened history in a SQLite file, from the store scan
 * (a page of 1,000 transfers at a time, their stored results parsed) through both models'
 * evaluation to the report. The history is generated (testkit's `screenedHistory`: exposures
 * of up to 5 categories, counterparties, sanctions, two model versions), 200,000 transfers
 * (20,000 with --quick).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngine, DEFAULT_RISK_MODEL } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { BASE_TIME, historyModels, screenedHistory } from "@openkyt/testkit";
import { type Figure, figure, repeat } from "./bench-stats.js";

/** Backtest figures: transfers/s end to end, and the heap the run added. */
export async function benchBacktest(_ledgerSize: number, quick: boolean): Promise<Figure[]> {
  const count = quick ? 20_000 : 200_000;
  const runs = quick ? 3 : 5;
  const dir = await mkdtemp(join(tmpdir(), "openkyt-bench-backtest-"));
  const store = await createSqliteStore({ filename: join(dir, "kyt.db") });
  try {
    const { v1, v2 } = historyModels("lab");
    await store.putRiskModel("lab", v1, BASE_TIME);
    await store.putRiskModel("lab", v2, BASE_TIME);
    const history = screenedHistory({
      accountId: "lab",
      count,
      seed: 1,
      from: BASE_TIME,
      stepMs: 1_000,
      versions: ["lab@1", `${DEFAULT_RISK_MODEL.id}@${DEFAULT_RISK_MODEL.version}`],
    });
    for (let i = 0; i < history.length; i += 5_000) {
      const chunk = history.slice(i, i + 5_000);
      await store.transaction(async (tx) => {
        for (const t of chunk) await tx.insertTransfer(t);
      });
    }
    const lab = createEngine({ store }).forAccount("lab");
    const body = { model: "lab", from: "2000-01-01", to: "2100-01-01" };
    await lab.backtests.run(body); // warm-up: compiles, fills the page cache
    let peakHeap = 0;
    const cpuRates: number[] = [];
    const rates = await repeat(runs, async () => {
      const before = process.memoryUsage().heapUsed;
      const cpu = process.cpuUsage();
      const report = await lab.backtests.run(body, {
        onProgress: () => {
          peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed - before);
        },
      });
      const used = process.cpuUsage(cpu);
      if (report.evaluated + report.unchecked !== count) throw new Error("transfers missing from the report");
      // CPU time (user + system of this process) is what the machine's other load does not take.
      cpuRates.push((report.evaluated * 1e6) / (used.user + used.system));
      return (report.evaluated * 1000) / report.elapsed_ms;
    });
    const size = count.toLocaleString("en-US");
    return [
      figure(`backtest on stored exposures (SQLite, ${size} transfers)`, "transfers/s", rates, ">= 100,000"),
      figure("  the same per CPU-second of the process", "transfers/s", cpuRates),
      figure("  heap added during a backtest (pages of 1,000)", "MB", [peakHeap / 2 ** 20]),
    ];
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}
