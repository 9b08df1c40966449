/**
 * Two checkouts' ClickHouse readers alternating on one ledger, in one run: the way to compare
 * their hop reads on a shared machine. Starts a server on `--dir` (kept: the ledger of `--rows`
 * rows of the benchmark shape is loaded on the first run and reused after; delete the folder by
 * hand), then per round and checkout runs the same `--traces` 20-hop traces (default depth, floor
 * and edge budget) with that checkout's `openClickHouseLedger` (imported from its sources), and
 * prints per phase: client and server CPU per trace, p50/p99, edges, and the server's own figures
 * from system.query_log (queries, read_rows, read_bytes, the slowest query). The results of every
 * checkout must equal the first's (the run fails otherwise). `--workers N --screen S` then runs
 * each checkout's `openkyt worker` processes (bench-clickhouse-workers.ts) over S transfers.
 *
 *   node --conditions=source --import tsx src/bench-clickhouse-ab.ts --dir DIR --rows N
 *     [--traces N] [--rounds N] [--workers N --screen N] LABEL=CHECKOUT...
 *
 * A label ending in `-nocounts` opens that checkout's ledger with `countCap: 0` (no hop counts),
 * one ending in `-noprefetch` with `prefetch: false` (counts that keep nothing for the read), one
 * ending in `-nohubcache` runs its workers with OPENKYT_HUB_CACHE_MB=0 (no hub cache).
 */
import { mkdirSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import type { LedgerReader } from "@openkyt/core";
import {
  migrateClickHouseLedger,
  openChClient,
  openClickHouseLedger,
  parseClickHouseUrl,
  startLocalClickHouse,
} from "@openkyt/ledger-clickhouse";
import { ledgerRows } from "@openkyt/testkit";
import { benchClickHouseWorkers } from "./bench-clickhouse-workers.js";
import { benchShape } from "./bench-ledger-db.js";
import { argFlag, checkoutArgs, percentile, processCpuMs } from "./bench-stats.js";
import { benchReferenceResolver, sampleTransfers, traceSampleRow } from "./bench-tracing.js";

const dir = resolve(argFlag("--dir") ?? "/tmp/openkyt-ch-ab");
const rows = Number(argFlag("--rows") ?? "1000000");
const traces = Number(argFlag("--traces") ?? "100");
const rounds = Number(argFlag("--rounds") ?? "2");
const workers = Number(argFlag("--workers") ?? "0");
const screen = Number(argFlag("--screen") ?? "100");
const checkouts = checkoutArgs();
const cpuMs = processCpuMs;

type Opener = (
  target: ReturnType<typeof parseClickHouseUrl>,
  options: object,
) => LedgerReader & {
  close(): Promise<void>;
};

mkdirSync(dir, { recursive: true });
const server = await startLocalClickHouse({ dir });
try {
  const url = server.ledgerUrl("bench");
  const target = parseClickHouseUrl(url);
  await migrateClickHouseLedger(target);
  const admin = openChClient(target, { retry: { requestTimeoutMillis: 3_600_000 } });
  const [stored] = await admin.rows<{ n: number }>("SELECT count() AS n FROM bench.ledger_tx");
  if (Number(stored?.n ?? 0) < rows) {
    const loader = openClickHouseLedger(target, { retry: { requestTimeoutMillis: 600_000 } });
    const t0 = performance.now();
    await loader.ingestLedgerRows(ledgerRows(benchShape(rows)), { inFlight: 2 });
    await loader.close();
    console.error(`loaded ${rows} rows in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  const parts = await admin.rows<{ table: string; n: number }>(
    "SELECT table, count() AS n FROM system.parts WHERE database = 'bench' AND active GROUP BY table ORDER BY table",
  );
  console.error(`parts: ${parts.map((p) => `${p.table} ${p.n}`).join(", ")}`);
  const resolver = await benchReferenceResolver(rows);
  const sampler = openClickHouseLedger(target);
  const sample = await sampleTransfers(sampler, rows, traces);
  await sampler.close();
  const serverPid = server.process.pid ?? 0;
  const expected: string[] = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const [c, checkout] of checkouts.entries()) {
      const mod = (await import(join(checkout.dir, "packages/ledger-clickhouse/src/index.ts"))) as {
        openClickHouseLedger: Opener;
      };
      const ledger = mod.openClickHouseLedger(target, {
        ...(checkout.label.endsWith("-nocounts") ? { countCap: 0 } : {}),
        ...(checkout.label.endsWith("-noprefetch") ? { prefetch: false } : {}),
        settings: { log_queries: 1 },
        retry: { requestTimeoutMillis: 600_000 },
      });
      await new Promise((r) => setTimeout(r, 1_100));
      const startSecond = Math.floor(Date.now() / 1000);
      const ms: number[] = [];
      let edges = 0;
      const server0 = cpuMs(serverPid);
      const cpu0 = process.cpuUsage();
      for (const [i, row] of sample.entries()) {
        const t0 = performance.now();
        const result = await traceSampleRow({ ledger, resolver }, row, 20);
        ms.push(performance.now() - t0);
        edges += result.edgesRead;
        const digest = JSON.stringify(result);
        if (c === 0 && round === 0) expected[i] = digest;
        else if (expected[i] !== digest)
          throw new Error(`${checkout.label}: trace ${i} differs from the first`);
      }
      const cpu = process.cpuUsage(cpu0);
      const serverMs = cpuMs(serverPid) - server0;
      await ledger.close();
      await new Promise((r) => setTimeout(r, 1_100));
      await admin.command("SYSTEM FLUSH LOGS");
      const [log] = await admin.rows<Record<string, number>>(
        `SELECT count() AS q, sum(read_rows) AS rr, sum(read_bytes) AS rb,
           max(read_rows) AS mrr, max(query_duration_ms) AS mms, sum(result_rows) AS res
         FROM system.query_log WHERE type = 2 AND query_start_time >= ${startSecond}
           AND query_start_time < ${Math.floor(Date.now() / 1000)} AND query LIKE 'SELECT%'`,
      );
      const n = sample.length;
      console.log(
        `${checkout.label} round ${round}: ${n} traces, client ${((cpu.user + cpu.system) / 1000 / n).toFixed(1)} ms, server ${(serverMs / n).toFixed(1)} ms CPU per trace; p50 ${percentile(ms, 50).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms; edges ${(edges / n).toFixed(0)}; per trace: ${(Number(log?.q) / n).toFixed(1)} queries, read_rows ${(Number(log?.rr) / n).toFixed(0)}, read ${(Number(log?.rb) / n / 1e6).toFixed(1)} MB, result rows ${(Number(log?.res) / n).toFixed(0)}; max read_rows ${log?.mrr}, slowest ${log?.mms} ms; load ${loadavg()[0]?.toFixed(1)}`,
      );
    }
  }
  if (workers > 0) {
    const screened = await (async () => {
      const s = openClickHouseLedger(target);
      const out = await sampleTransfers(s, rows, screen);
      await s.close();
      return out;
    })();
    for (let round = 0; round < rounds; round += 1) {
      for (const checkout of checkouts) {
        const figures = await benchClickHouseWorkers(url, rows, screened, workers, serverPid, {
          bin: join(checkout.dir, "packages/cli/bin/openkyt.js"),
          schema: `bench_chhub_${checkout.label.replace(/\W/g, "_")}_${process.pid}`,
          ...(checkout.label.endsWith("-nohubcache") ? { env: { OPENKYT_HUB_CACHE_MB: "0" } } : {}),
        });
        console.log(
          `${checkout.label} workers round ${round}: ${figures.map((f) => `${f.name.trim()} ${JSON.stringify(f)}`).join("; ")}; load ${loadavg()[0]?.toFixed(1)}`,
        );
      }
    }
  }
  await admin.close();
} finally {
  await server.stop();
}
