import { createMetrics, httpRequestCounter } from "@openkyt/metrics";
import { describe, expect, it } from "vitest";
import { withTestPostgres } from "../../store-postgres/test/pg-test-suite.js";
import { parsePrometheusText } from "../../testkit/src/prometheus-text.js";
import { ENDPOINTS } from "../src/index.js";
import { type FuzzOptions, runFuzz } from "./security-fuzz-runner.js";

/** Requests per CI run; `OPENKYT_FUZZ_RUNS` raises it (the nightly script runs more). */
const RUNS = Number(process.env.OPENKYT_FUZZ_RUNS ?? 10_000);
const HTTP_RUNS = Math.max(200, Math.round(RUNS / 20));
/** Requests against Postgres (each world is a migrated schema); `OPENKYT_FUZZ_PG_RUNS` changes it. */
const PG_RUNS = Number(process.env.OPENKYT_FUZZ_PG_RUNS ?? 2_000);
/** Requests that each carry an unstorable string (half as many on Postgres). */
const UNSTORABLE_RUNS = Math.max(500, Math.round(RUNS / 5));

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
    const metrics = createMetrics({ processMetrics: false });
    const observe = httpRequestCounter(metrics);
    const report = await fuzz("in-process", { runs: RUNS, http: { ops: { observe } } });
    expect(report.failure).toBeNull();
    expect(report.tried).toBeGreaterThanOrEqual(RUNS);
    // The generator reaches every kind of answer, successes included.
    for (const status of ["200", "201", "400", "401", "404", "405"]) {
      expect(report.byStatus[status] ?? 0, status).toBeGreaterThan(0);
    }
    // Every request was counted, under labels from closed sets: route templates of the table
    // (or the fixed routes), never an id, a hash or an address from a path.
    const families = parsePrometheusText(await metrics.registry.metrics());
    const samples = families.get("openkyt_http_requests_total")?.samples ?? [];
    expect(samples.reduce((sum, s) => sum + s.value, 0)).toBe(report.tried);
    const routes = new Set(samples.map((s) => s.labels.route));
    const known = new Set([...ENDPOINTS.map((e) => e.path), "/healthz", "/v1/openapi.json", "unmatched"]);
    expect(
      [...routes].filter((route) => !known.has(route ?? "") && !/^\/v1\/session/.test(route ?? "")),
    ).toEqual([]);
    const values = [...families.values()].flatMap((f) => f.samples.flatMap((s) => Object.values(s.labels)));
    expect(values.filter((v) => /0x[0-9a-f]{6}|[0-9a-f]{8}-[0-9a-f]{4}|[^\x20-\x7e]/i.test(v))).toEqual([]);
    expect(new Set(samples.map((s) => s.labels.method)).size).toBeLessThanOrEqual(8);
    console.info(`fuzz (in-process): ${samples.length} request series over ${routes.size} routes`);
  });

  it(`${HTTP_RUNS} of them over real HTTP on 127.0.0.1`, { timeout: 120_000 }, async () => {
    const report = await fuzz("http", { runs: HTTP_RUNS, transport: "http", chunk: HTTP_RUNS });
    expect(report.failure).toBeNull();
    expect(report.tried).toBeGreaterThanOrEqual(HTTP_RUNS);
  });

  it(`${UNSTORABLE_RUNS} requests with a NUL, a lone surrogate or an overlong form in a string they read: each refused`, {
    timeout: 120_000,
  }, async () => {
    const report = await fuzz("unstorable strings", { runs: UNSTORABLE_RUNS, cases: "unstorable" });
    expect(report.failure).toBeNull();
    expect(Object.keys(report.byStatus).sort()).toEqual(["400", "404"]);
    const http = await fuzz("unstorable strings, http", {
      runs: HTTP_RUNS,
      transport: "http",
      chunk: HTTP_RUNS,
      cases: "unstorable",
    });
    expect(http.failure).toBeNull();
  });
});

// The same generator against Postgres, which refuses what SQLite stores (a NUL in text): a fresh
// schema per world. Without a server it is skipped with the reason; under CI it fails instead.
await withTestPostgres("fuzzing every endpoint on Postgres", ({ stores }) => {
  it(`${PG_RUNS} generated requests in-process on Postgres: never a 5xx`, { timeout: 300_000 }, async () => {
    const report = await fuzz("in-process, postgres", {
      runs: PG_RUNS,
      chunk: 1_000,
      store: { name: "postgres", create: () => stores.createStore(), destroy: (s) => stores.destroyStore(s) },
    });
    expect(report.failure).toBeNull();
    expect(report.tried).toBeGreaterThanOrEqual(PG_RUNS);
    for (const status of ["200", "400", "404"])
      expect(report.byStatus[status] ?? 0, status).toBeGreaterThan(0);
  });

  const runs = Math.round(UNSTORABLE_RUNS / 2);
  it(`${runs} requests with an unstorable string on Postgres: each refused, never a 5xx`, {
    timeout: 300_000,
  }, async () => {
    const report = await fuzz("unstorable strings, postgres", {
      runs,
      chunk: runs,
      cases: "unstorable",
      store: { name: "postgres", create: () => stores.createStore(), destroy: (s) => stores.destroyStore(s) },
    });
    expect(report.failure).toBeNull();
    expect(Object.keys(report.byStatus).sort()).toEqual(["400", "404"]);
  });
});
