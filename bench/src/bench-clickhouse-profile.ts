/**
 * Where the ClickHouse server's ingest CPU goes, by table: one INSERT of the same RowBinary body
 * (`--rows` rows of the benchmark ledger, default 1,048,576: one block) into a fresh database per
 * variant, the server's CPU over that INSERT (from /proc) per row, and the bytes its parts take.
 * Variants: a Null table (parsing alone), an unsorted MergeTree (parsing + writing one copy), each
 * sorted copy alone with the string sort keys of migrations 1-2 and the hop keys of migration 3,
 * and the whole schema both ways (the package's own migration statements), then the schema of
 * migrations 5 and 6 (as shipped, with and without the change log). The INSERT is sent as one
 * block of `--rows` rows (max_insert_block_size), as the ledger's ingest does. RANDOM_HEX=1 replaces
 * the generator's zero-padded hashes and addresses by random-looking hex of the same length
 * (real chains' values: they share no prefix and do not compress).
 *
 *   node --conditions=source --import tsx src/bench-clickhouse-profile.ts [--rows N] [--rounds N] [--only a,b]
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import {
  LEDGER_COLUMNS,
  LEDGER_MIGRATIONS,
  openChClient,
  parseClickHouseUrl,
  RowBinaryEncoder,
  startLocalClickHouse,
} from "@openkyt/ledger-clickhouse";
import { ledgerRows } from "@openkyt/testkit";
import { benchShape } from "./bench-ledger-db.js";
import { argFlag } from "./bench-stats.js";

const rows = Number(argFlag("--rows") ?? "1048576");
const rounds = Number(argFlag("--rounds") ?? "2");

const T = `(network String, tx_hash String, log_index Int32, token_id String, from_address String,
  to_address String, amount String, occurred_at Int64, block_number Nullable(Int64), value_usd Nullable(String))`;
const keyed = (key: string) => T.replace("(network", `(${key} UInt64 MATERIALIZED ${HASHES[key]}, network`);
const HASHES: Record<string, string> = {
  tx_key: "cityHash64(network, tx_hash)",
  in_key: "cityHash64(network, token_id, to_address)",
  out_key: "cityHash64(network, token_id, from_address)",
};
const replacing = (columns: string, orderBy: string) => [
  `CREATE TABLE p.ledger_tx ${columns} ENGINE = ReplacingMergeTree() ORDER BY (${orderBy})`,
];
/** The schema after the package's migrations up to `version` (run in order, so every copy's table exists). */
const migrated = (version: number) =>
  LEDGER_MIGRATIONS.filter((m) => m.version <= version)
    .flatMap((m) => m.statements("p", ""))
    .map((s) => (typeof s === "string" ? s : s.sql));

/** Each variant's statements; every INSERT goes into `p.ledger_tx`. */
const VARIANTS: Record<string, ReadonlyArray<string>> = {
  null: [`CREATE TABLE p.ledger_tx ${T} ENGINE = Null`],
  unsorted: [`CREATE TABLE p.ledger_tx ${T} ENGINE = MergeTree() ORDER BY tuple()`],
  tx_strings: replacing(T, "network, tx_hash, log_index"),
  tx_hashkey: replacing(keyed("tx_key"), "tx_key, tx_hash, log_index, network"),
  in_strings: replacing(T, "network, token_id, to_address, occurred_at, tx_hash, log_index"),
  in_hopkey: replacing(keyed("in_key"), "in_key, occurred_at, tx_hash, log_index, network"),
  out_strings: replacing(T, "network, token_id, from_address, occurred_at, tx_hash, log_index"),
  out_hopkey: replacing(keyed("out_key"), "out_key, occurred_at, tx_hash, log_index, network"),
  schema_v2: migrated(2),
  schema_v3: migrated(3),
  // Migration 5 (hop copies, day tables, no degree tables) and 6 (the change log on top): the
  // difference is what the change log costs per row.
  schema_v5: migrated(5),
  schema_v6: migrated(6),
};

function serverCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const random = process.env.RANDOM_HEX === "1";
const hex = (value: string, digits: number) =>
  `0x${createHash("sha256").update(value).digest("hex").slice(0, digits)}`;
const encoder = new RowBinaryEncoder();
const body: Buffer[] = [];
let count = 0;
for (const row of ledgerRows(benchShape(Math.max(rows, 10_000_000)))) {
  const shaped = random
    ? { ...row, txHash: hex(row.txHash, 64), from: hex(row.from, 40), to: hex(row.to, 40) }
    : row;
  const chunk = encoder.push(shaped);
  if (chunk) body.push(chunk);
  if (++count >= rows) break;
}
body.push(encoder.flush());

const only = (argFlag("--only") ?? Object.keys(VARIANTS).join(",")).split(",");
const server = await startLocalClickHouse();
const pid = server.process.pid ?? 0;
const client = openChClient(parseClickHouseUrl(server.ledgerUrl("default")), {
  database: null,
  retry: { requestTimeoutMillis: 600_000 },
});
const results: Record<string, number[]> = {};
try {
  for (let round = 0; round < rounds; round++) {
    for (const name of only) {
      const statements = VARIANTS[name];
      if (!statements) throw new Error(`--only: no variant ${name} (${Object.keys(VARIANTS).join(", ")})`);
      await client.command("DROP DATABASE IF EXISTS p");
      await client.command("CREATE DATABASE p");
      for (const statement of statements) await client.command(statement);
      const cpu0 = serverCpuSeconds(pid);
      await client.insertBody("p.ledger_tx", LEDGER_COLUMNS, "RowBinary", body, rows);
      const us = ((serverCpuSeconds(pid) - cpu0) * 1e6) / rows;
      results[name] = [...(results[name] ?? []), us];
      const [disk] = await client.rows<{ b: number }>(
        "SELECT sum(bytes_on_disk) AS b FROM system.parts WHERE database = 'p' AND active",
      );
      console.error(
        `${name}: ${us.toFixed(2)} us/row server CPU, ${(Number(disk?.b ?? 0) / rows).toFixed(1)} B/row, load ${loadavg()[0]?.toFixed(1)}`,
      );
    }
  }
} finally {
  await client.close();
  await server.stop();
}
console.log(JSON.stringify(results));
