/**
 * The client's share of a ClickHouse ingest without the server or the generator: the same
 * generated rows (testkit's benchmark ledger, `--rows`, default 1,000,000, held in memory)
 * encoded into RowBinary by each checkout's `RowBinaryEncoder` (imported from its sources),
 * alternating checkouts round by round so they see the same machine. Chunks are held as an
 * INSERT body of `--per-insert` rows (default 1,048,576) would be, then dropped, or given back to
 * the encoder when it can take them (`recycle`, as ch-ingest.ts does once the INSERT is
 * answered). Prints per checkout and round: CPU per row (user + system, us), of it system, and
 * the bytes encoded (which must be equal across checkouts: the run fails otherwise).
 *
 *   node --conditions=source --import tsx bench/src/scale/ch-encode-ab.ts [--rows N] [--rounds N]
 *     [--per-insert N] LABEL=CHECKOUT...
 */
import { join, resolve } from "node:path";
import type { LedgerTransfer } from "@openkyt/core";
import { ledgerRows } from "@openkyt/testkit";
import { benchShape } from "../bench-ledger-db.js";
import { argFlag } from "../bench-stats.js";

/** What the bench needs of a checkout's encoder. */
interface Encoder {
  push(row: LedgerTransfer): Buffer | null;
  flush(): Buffer;
  recycle?(chunks: ReadonlyArray<Buffer>): void;
}

const rows = Number(argFlag("--rows") ?? "1000000");
const rounds = Number(argFlag("--rounds") ?? "3");
const perInsert = Number(argFlag("--per-insert") ?? "1048576");
const checkouts = process.argv
  .slice(2)
  .filter((a) => /^[\w-]+=/.test(a))
  .map((a) => {
    const [label = "", path = ""] = a.split("=", 2);
    return { label, path: resolve(path) };
  });
if (checkouts.length === 0) throw new Error("name at least one LABEL=CHECKOUT");

const encoders = new Map<string, new () => Encoder>();
for (const c of checkouts) {
  const module = (await import(join(c.path, "packages/ledger-clickhouse/src/ch-row-binary.ts"))) as {
    RowBinaryEncoder: new () => Encoder;
  };
  encoders.set(c.label, module.RowBinaryEncoder);
}

const data: LedgerTransfer[] = [];
for (const row of ledgerRows(benchShape(rows))) data.push(row);

/** Encodes every row; returns CPU seconds (total, system) and the bytes encoded. */
function encodeAll(Encoder: new () => Encoder): { cpuS: number; sysS: number; bytes: number } {
  const encoder = new Encoder();
  let body: Buffer[] = [];
  let inBody = 0;
  let bytes = 0;
  const done = (chunks: Buffer[]) => {
    for (const chunk of chunks) bytes += chunk.length;
    encoder.recycle?.(chunks);
  };
  const cpu0 = process.cpuUsage();
  for (const row of data) {
    const chunk = encoder.push(row);
    if (chunk) body.push(chunk);
    if (++inBody < perInsert) continue;
    body.push(encoder.flush());
    done(body);
    body = [];
    inBody = 0;
  }
  body.push(encoder.flush());
  done(body);
  const cpu = process.cpuUsage(cpu0);
  return { cpuS: (cpu.user + cpu.system) / 1e6, sysS: cpu.system / 1e6, bytes };
}

const results: Record<string, number[]> = {};
let bytesSeen: number | null = null;
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? checkouts : [...checkouts].reverse();
  for (const c of order) {
    const Encoder = encoders.get(c.label);
    if (!Encoder) continue;
    const r = encodeAll(Encoder);
    if (bytesSeen !== null && r.bytes !== bytesSeen) {
      throw new Error(`${c.label} encoded ${r.bytes} bytes, another checkout ${bytesSeen}`);
    }
    bytesSeen = r.bytes;
    const us = (r.cpuS * 1e6) / rows;
    results[c.label] = [...(results[c.label] ?? []), us];
    console.error(
      `round ${round + 1} ${c.label}: ${us.toFixed(3)} us/row (system ${((r.sysS * 1e6) / rows).toFixed(3)}), ${(r.bytes / rows).toFixed(1)} B/row`,
    );
  }
}
console.log(JSON.stringify(results));
