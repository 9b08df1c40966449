import { describe, expect, it } from "vitest";
import { type FuzzOptions, runFuzz } from "./security-fuzz-runner.js";

/** Requests per CI run; `OPENKYT_FUZZ_RUNS` raises it (the nightly script runs more). */
const RUNS = Number(process.env.OPENKYT_FUZZ_RUNS ?? 10_000);
const HTTP_RUNS = Math.max(200, Math.round(RUNS / 20));

async function fuzz(label: string, options: FuzzOptions) {
  const started = performance.now();
  const report = await runFuzz(options);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.info(
    `fuzz (${label}): ${report.tried} requests in ${seconds} s, seed ${report.seed}, ` +
      `by status ${JSON.stringify(report.byStatus)}, ${report.digestChecks} rolled-back refusals digest-checked`,
  );
  return report;
}

describe("fuzzing every endpoint of the table", () => {
  it(`${RUNS} generated requests in-process: never a 5xx, refusals are JSON and change nothing`, {
    timeout: 300_000,
  }, async () => {
    const report = await fuzz("in-process", { runs: RUNS });
    expect(report.failure).toBeNull();
    expect(report.tried).toBeGreaterThanOrEqual(RUNS);
    // The generator reaches every kind of answer, successes included.
    for (const status of ["200", "201", "400", "401", "404", "405"]) {
      expect(report.byStatus[status] ?? 0, status).toBeGreaterThan(0);
    }
  });

  it(`${HTTP_RUNS} of them over real HTTP on 127.0.0.1`, { timeout: 120_000 }, async () => {
    const report = await fuzz("http", { runs: HTTP_RUNS, transport: "http", chunk: HTTP_RUNS });
    expect(report.failure).toBeNull();
    expect(report.tried).toBeGreaterThanOrEqual(HTTP_RUNS);
  });
});
