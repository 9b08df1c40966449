/**
 * Whether ClickHouse server settings cut the server's work per ingested ledger row (issue 35's
 * 500,000 rows/s: 4 us of CPU per row, client and server together, on two cores). Each variant
 * gets a fresh server of its own (startLocalClickHouse with the variant's `<merge_tree>` and
 * profile settings) and the same generated ledger (`--rows`, default 10,000,000, real-shaped),
 * ingested through the ledger's RowBinary path with two INSERTs in flight; then the background
 * merges are waited for (none running for 5 s, at most `--settle` seconds). Per variant: the
 * server's CPU per row during the ingest and with the merges after it, the client's, the active
 * parts and bytes per row, and `--traces` 20-hop traces (parts cost reads). Variants alternate
 * within one run (round 2 in reverse order), so the load they see is alike.
 *
 *   node --conditions=source --import tsx bench/src/scale/merge-settings-ab.ts [--rows N]
 *     [--rounds 1] [--only defaults,capped-merges,big-inserts] [--traces 20] [--settle 600]
 */
import { loadavg } from "node:os";
import {
  migrateClickHouseLedger,
  openChClient,
  openClickHouseLedger,
  parseClickHouseUrl,
  startLocalClickHouse,
} from "@openkyt/ledger-clickhouse";
import { ledgerRows } from "@openkyt/testkit";
import { benchShape } from "../bench-ledger-db.js";
import { argFlag, percentile, processCpuMs } from "../bench-stats.js";
import { benchReferenceResolver, sampleTransfers, traceSampleRow } from "../bench-tracing.js";

/** One server configuration and the client's rows per INSERT. */
interface Variant {
  readonly mergeTree?: Readonly<Record<string, number>>;
  readonly profile?: Readonly<Record<string, number>>;
  /** Rows per INSERT (the server's max_insert_block_size must be at least this for one block). */
  readonly rowsPerInsert?: number;
}

const VARIANTS: Readonly<Record<string, Variant>> = {
  defaults: {},
  // Merged parts stop at 128 MB (about 3.5M rows of one ordering), and inserts are not slowed
  // while the parts pile up: each row is rewritten fewer times, reads touch more parts.
  "capped-merges": {
    mergeTree: {
      max_bytes_to_merge_at_max_space_in_pool: 134_217_728,
      parts_to_delay_insert: 1_000,
      parts_to_throw_insert: 2_000,
    },
  },
  // Twice larger INSERTs, each one block: half the parts to merge. (4,194,304 rows per block
  // passed the server's 4 GB per-query memory limit while pushing to the hop views.)
  "big-inserts": { profile: { max_insert_block_size: 2_097_152 }, rowsPerInsert: 2_097_152 },
  // Fewer merges at once (the pool's size bounds the merges the selector plans).
  "small-pool": { profile: { background_pool_size: 2 } },
};

const rows = Number(argFlag("--rows") ?? "10000000");
const rounds = Number(argFlag("--rounds") ?? "1");
const traces = Number(argFlag("--traces") ?? "20");
const settleS = Number(argFlag("--settle") ?? "600");
const names = (argFlag("--only") ?? "defaults,capped-merges,big-inserts").split(",");
for (const name of names) if (!VARIANTS[name]) throw new Error(`unknown variant ${name}`);

interface Result {
  readonly variant: string;
  readonly round: number;
  readonly ingestS: number;
  readonly ingestServerUs: number;
  readonly clientUs: number;
  readonly settleS: number;
  readonly totalServerUs: number;
  readonly parts: number;
  readonly bytesPerRow: number;
  readonly traceP50Ms: number;
  readonly traceServerMs: number;
  readonly load: number;
}

async function measure(name: string, round: number): Promise<Result> {
  const variant = VARIANTS[name] as Variant;
  const server = await startLocalClickHouse({
    ...(variant.mergeTree ? { mergeTree: variant.mergeTree } : {}),
    ...(variant.profile ? { profile: variant.profile } : {}),
  });
  try {
    const pid = server.process.pid ?? 0;
    const target = parseClickHouseUrl(server.ledgerUrl("bench"));
    await migrateClickHouseLedger(target);
    const ledger = openClickHouseLedger(target, { retry: { requestTimeoutMillis: 600_000 } });
    const admin = openChClient(target);
    try {
      const server0 = processCpuMs(pid, 0);
      const client0 = process.cpuUsage();
      const t0 = performance.now();
      await ledger.ingestLedgerRows(ledgerRows(benchShape(rows)), {
        inFlight: 2,
        ...(variant.rowsPerInsert ? { rowsPerInsert: variant.rowsPerInsert } : {}),
      });
      const ingestS = (performance.now() - t0) / 1000;
      const client = process.cpuUsage(client0);
      const ingestServerMs = processCpuMs(pid, 0) - server0;
      // The merges the ingest left: wait until none has run for 5 s (or the cap).
      const s0 = performance.now();
      for (let idle = 0; idle < 5 && performance.now() - s0 < settleS * 1000; ) {
        await new Promise((r) => setTimeout(r, 1000));
        const [running] = await admin.rows<{ n: number }>("SELECT count() AS n FROM system.merges");
        idle = Number(running?.n ?? 0) === 0 ? idle + 1 : 0;
      }
      const settled = (performance.now() - s0) / 1000;
      const totalServerMs = processCpuMs(pid, 0) - server0;
      const [disk] = await admin.rows<{ bytes: number; parts: number }>(
        `SELECT sum(bytes_on_disk) AS bytes, countIf(table IN ('ledger_tx', 'ledger_hop_in', 'ledger_hop_out')) AS parts
         FROM system.parts WHERE database = 'bench' AND active`,
      );
      const resolver = await benchReferenceResolver(rows);
      const sample = await sampleTransfers(ledger, rows, traces);
      const ms: number[] = [];
      const trace0 = processCpuMs(pid, 0);
      for (const row of sample) {
        const started = performance.now();
        await traceSampleRow({ ledger, resolver }, row, 20);
        ms.push(performance.now() - started);
      }
      const result: Result = {
        variant: name,
        round,
        ingestS,
        ingestServerUs: (ingestServerMs * 1000) / rows,
        clientUs: (client.user + client.system) / rows,
        settleS: settled - 5,
        totalServerUs: (totalServerMs * 1000) / rows,
        parts: Number(disk?.parts ?? 0),
        bytesPerRow: Number(disk?.bytes ?? 0) / rows,
        traceP50Ms: percentile(ms, 50),
        traceServerMs: (processCpuMs(pid, 0) - trace0) / Math.max(1, sample.length),
        load: loadavg()[0] ?? 0,
      };
      console.error(JSON.stringify(result));
      return result;
    } finally {
      await admin.close();
      await ledger.close();
    }
  } finally {
    await server.stop();
  }
}

console.error(
  `merge settings A/B: ${rows.toLocaleString("en-US")} rows, ${names.join(", ")}, ${rounds} round(s); ${new Date().toISOString()}, load ${loadavg()[0]?.toFixed(1)}`,
);
const results: Result[] = [];
for (let round = 1; round <= rounds; round += 1) {
  for (const name of round % 2 === 1 ? names : [...names].reverse()) results.push(await measure(name, round));
}
const header = [
  "variant",
  "round",
  "ingest s",
  "server us/row (ingest)",
  "server us/row (+ merges after)",
  "client us/row",
  "merges after, s",
  "parts (3 tables)",
  "B/row",
  "trace p50 ms",
  "server ms/trace",
  "load",
];
console.log(`| ${header.join(" | ")} |`);
console.log(`| ${header.map(() => "---").join(" | ")} |`);
for (const r of results) {
  console.log(
    `| ${[
      r.variant,
      r.round,
      r.ingestS.toFixed(0),
      r.ingestServerUs.toFixed(2),
      r.totalServerUs.toFixed(2),
      r.clientUs.toFixed(2),
      r.settleS.toFixed(0),
      r.parts,
      r.bytesPerRow.toFixed(0),
      r.traceP50Ms.toFixed(0),
      r.traceServerMs.toFixed(0),
      r.load.toFixed(1),
    ].join(" | ")} |`,
  );
}
