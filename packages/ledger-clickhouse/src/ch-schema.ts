/**
 * The ledger's tables and their migrations.
 *
 * - `ledger_tx`: every transfer, ReplacingMergeTree ordered by its key (network, tx_hash,
 *   log_index): the hash lookup used for binding, and where inserts go.
 * - `ledger_hop_in` / `ledger_hop_out` (migration 3): the same rows ordered for hops, by
 *   (hop_key, occurred_at, tx_hash, log_index, network), where `hop_key` is
 *   `cityHash64(network, token_id, to_address | from_address)`: a fixed-width number leads the
 *   sort instead of three strings, which halves the server's work per row for these copies (see
 *   docs/benchmarks.md). The strings stay columns and every read checks them too, so two
 *   addresses sharing a hash cannot change an answer. Filled from `ledger_tx` by materialized
 *   views in the same INSERT. They are ReplacingMergeTree too (the key fixes the rest of the
 *   row, so their sorting keys hold it), and reads remove duplicates themselves until merges do,
 *   so answers are right while parts are unmerged.
 * - `ledger_hop_in_degree` / `ledger_hop_out_degree` (migrations 3 to 5): rows per hop key
 *   (SummingMergeTree). Migration 4's day tables took over their one use (which addresses are
 *   hot), and migration 5 drops them with their views: an INSERT no longer pays for them.
 * - `ledger_hop_in_days` / `ledger_hop_out_days` (migration 4): rows per hop key and day
 *   (SummingMergeTree), so a hub's read asks only for the days that hold the rows it needs
 *   (ClickHouse 18.16 cannot read a key range in order and stop: a top-n of a hub without a
 *   window scans its whole history). Over-counts are safe: they only make a first window short.
 * - `ledger_changes` (migration 6): per stored row, when (the server's clock, seconds) and its
 *   transaction, filled by a materialized view in the same INSERT: what a process that holds
 *   some rows (a worker's hub cache) reads to follow writes by any process
 *   (`ledgerChangesSince` in ch-ledger.ts, which takes the transactions DISTINCT). Ordered by the
 *   stamp alone and not grouped: a block's sort is then nearly free (about 0.1 us of server CPU
 *   per ingested row; grouped by transaction and sorted by the strings it cost 2.8 us).
 *   Partitioned by day, which the upkeep drops past the retention (ch-changes-upkeep.ts).
 * - `ledger_changes_horizon` (migration 7): how far the upkeep cut the change log, so a follower
 *   that lagged past it knows it cannot read all its changes.
 * - Migrations 1 and 2 made the first hop tables, ordered by the strings (`ledger_in`,
 *   `ledger_out` and their degree tables); migration 3 copies them into the new ones and drops
 *   them.
 *
 * A sharded ledger (`cluster`) keeps those tables as `*_local` on every shard and puts
 * `Distributed` tables of the same names on the server the ledger is opened on; inserts are
 * sharded by the key's hash, so a row and its duplicates land on one shard.
 *
 * Amounts are kept as the exact decimal text of the number (JavaScript's shortest round-trip
 * form): 18.16's float parser lands one ulp off on about one value in ten, and the ledger must
 * give back exactly what it was given (`toFloat64(amount)` for analytics).
 *
 * Every statement is plain SQL that ClickHouse 18.16 and current releases both accept (see
 * docs/scaling.md). Migrations are recorded in `ledger_schema_versions` on each server.
 */
import { sqlIdentifier, sqlInt, sqlString } from "./ch-escape.js";

/** The columns of a ledger row, in table order. */
export const LEDGER_COLUMNS = [
  "network",
  "tx_hash",
  "log_index",
  "token_id",
  "from_address",
  "to_address",
  "amount",
  "occurred_at",
  "block_number",
  "value_usd",
] as const;

const COLUMN_TYPES = `(
  network String,
  tx_hash String,
  log_index Int32,
  token_id String,
  from_address String,
  to_address String,
  amount String,
  occurred_at Int64,
  block_number Nullable(Int64),
  value_usd Nullable(String)
)`;

/** One migration: statements run in order on one server. */
export interface LedgerMigration {
  readonly version: number;
  readonly name: string;
  /** The statements for database `db`; `local` is the table suffix ("" on one server, "_local" on shards). */
  statements(db: string, local: string): ReadonlyArray<MigrationStatement>;
}

/**
 * One statement of a migration: run as it is, or only while table `ifTable` of the migrated
 * database exists (a copy out of a table the same migration drops later: a run cut short after
 * the drop and before its version was recorded must not fail on the copy when it is run again).
 */
export type MigrationStatement = string | { readonly sql: string; readonly ifTable: string };

/** Every migration of the ledger's own tables (on one server or on each shard), oldest first. */
export const LEDGER_MIGRATIONS: ReadonlyArray<LedgerMigration> = [
  {
    version: 1,
    name: "ledger tables: by key, incoming hops, outgoing hops",
    statements: (db, local) => [
      `CREATE TABLE IF NOT EXISTS ${db}.ledger_tx${local} ${COLUMN_TYPES}
       ENGINE = ReplacingMergeTree() ORDER BY (network, tx_hash, log_index)`,
      `CREATE TABLE IF NOT EXISTS ${db}.ledger_in${local} ${COLUMN_TYPES}
       ENGINE = ReplacingMergeTree() ORDER BY (network, token_id, to_address, occurred_at, tx_hash, log_index)`,
      `CREATE TABLE IF NOT EXISTS ${db}.ledger_out${local} ${COLUMN_TYPES}
       ENGINE = ReplacingMergeTree() ORDER BY (network, token_id, from_address, occurred_at, tx_hash, log_index)`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ledger_in_mv${local} TO ${db}.ledger_in${local}
       AS SELECT ${LEDGER_COLUMNS.join(", ")} FROM ${db}.ledger_tx${local}`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ledger_out_mv${local} TO ${db}.ledger_out${local}
       AS SELECT ${LEDGER_COLUMNS.join(", ")} FROM ${db}.ledger_tx${local}`,
    ],
  },
  {
    version: 2,
    name: "rows per address and direction, to route hot addresses to a bounded read",
    statements: (db, local) => [
      `CREATE TABLE IF NOT EXISTS ${db}.ledger_in_degree${local} ${DEGREE_COLUMNS}
       ENGINE = SummingMergeTree(rows) ORDER BY (network, token_id, address)`,
      `CREATE TABLE IF NOT EXISTS ${db}.ledger_out_degree${local} ${DEGREE_COLUMNS}
       ENGINE = SummingMergeTree(rows) ORDER BY (network, token_id, address)`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ledger_in_degree_mv${local} TO ${db}.ledger_in_degree${local}
       AS SELECT network, token_id, to_address AS address, toUInt64(count()) AS rows
       FROM ${db}.ledger_tx${local} GROUP BY network, token_id, to_address`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ledger_out_degree_mv${local} TO ${db}.ledger_out_degree${local}
       AS SELECT network, token_id, from_address AS address, toUInt64(count()) AS rows
       FROM ${db}.ledger_tx${local} GROUP BY network, token_id, from_address`,
    ],
  },
  {
    version: 3,
    name: "hop tables ordered by a 64-bit hash of (network, token, address) instead of the strings",
    statements: (db, local) => {
      const hop = (direction: "in" | "out") => {
        const column = direction === "in" ? "to_address" : "from_address";
        const key = `cityHash64(network, token_id, ${column})`;
        const table = `${db}.ledger_hop_${direction}${local}`;
        const degree = `${db}.ledger_hop_${direction}_degree${local}`;
        const old = `${db}.ledger_${direction}${local}`;
        const oldDegree = `${db}.ledger_${direction}_degree${local}`;
        return {
          create: [
            `CREATE TABLE IF NOT EXISTS ${table} ${HOP_COLUMN_TYPES}
             ENGINE = ReplacingMergeTree() ORDER BY (hop_key, occurred_at, tx_hash, log_index, network)`,
            `CREATE TABLE IF NOT EXISTS ${degree} ${HOP_DEGREE_COLUMNS}
             ENGINE = SummingMergeTree(rows) ORDER BY hop_key`,
            // From here on every INSERT fills the new tables as well as the old ones.
            `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ledger_hop_${direction}_mv${local} TO ${table}
             AS SELECT ${key} AS hop_key, ${LEDGER_COLUMNS.join(", ")} FROM ${db}.ledger_tx${local}`,
            `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ledger_hop_${direction}_degree_mv${local} TO ${degree}
             AS SELECT ${key} AS hop_key, toUInt64(count()) AS rows FROM ${db}.ledger_tx${local} GROUP BY hop_key`,
          ],
          // The rows stored before: copied (rows inserted meanwhile may land twice, which reads
          // and merges remove; a degree over-counted is safe), then the old tables dropped.
          // A run cut short and run again copies what is left: rows copied twice are removed by
          // reads and merges, degrees counted twice only over-count; a dropped table is skipped.
          copy: [
            {
              sql: `INSERT INTO ${table} (hop_key, ${LEDGER_COLUMNS.join(", ")})
             SELECT ${key}, ${LEDGER_COLUMNS.join(", ")} FROM ${old}`,
              ifTable: `ledger_${direction}${local}`,
            },
            {
              sql: `INSERT INTO ${degree} (hop_key, rows)
             SELECT cityHash64(network, token_id, address), rows FROM ${oldDegree}`,
              ifTable: `ledger_${direction}_degree${local}`,
            },
          ],
          drop: [
            `DROP TABLE IF EXISTS ${db}.ledger_${direction}_mv${local}`,
            `DROP TABLE IF EXISTS ${db}.ledger_${direction}_degree_mv${local}`,
            `DROP TABLE IF EXISTS ${old}`,
            `DROP TABLE IF EXISTS ${oldDegree}`,
          ],
        };
      };
      const hopIn = hop("in");
      const hopOut = hop("out");
      return [
        ...hopIn.create,
        ...hopOut.create,
        ...hopIn.copy,
        ...hopOut.copy,
        ...hopIn.drop,
        ...hopOut.drop,
      ];
    },
  },
  {
    version: 4,
    name: "rows per hop key and day, so a hub's read starts at the days that hold its latest rows",
    statements: (db, local) =>
      (["in", "out"] as const).flatMap((direction) => {
        const column = direction === "in" ? "to_address" : "from_address";
        const days = `${db}.ledger_hop_${direction}_days${local}`;
        return [
          // Small granules: a frontier's 200 keys read 200 granules of this table, 8,192 rows
          // each at the default (most of a 10M-row ledger's day table), 256 here.
          `CREATE TABLE IF NOT EXISTS ${days} ${HOP_DAY_COLUMNS}
           ENGINE = SummingMergeTree(rows) ORDER BY (hop_key, day) SETTINGS index_granularity = 256`,
          `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ledger_hop_${direction}_days_mv${local} TO ${days}
           AS SELECT cityHash64(network, token_id, ${column}) AS hop_key, ${DAY_OF_ROW} AS day,
             toUInt64(count()) AS rows FROM ${db}.ledger_tx${local} GROUP BY hop_key, day`,
          // The rows stored before (rows inserted meanwhile are counted twice: an over-count,
          // which only widens a read's first window; so does running this again after a kill).
          `INSERT INTO ${days} (hop_key, day, rows)
           SELECT hop_key, ${DAY_OF_ROW} AS day, toUInt64(count()) FROM ${db}.ledger_hop_${direction}${local}
           GROUP BY hop_key, day`,
        ];
      }),
  },
  {
    version: 5,
    name: "drop the rows-per-hop-key tables: no read has used them since migration 4",
    // The view first, so no INSERT fills a table being dropped; both idempotent.
    statements: (db, local) =>
      (["in", "out"] as const).flatMap((direction) => [
        `DROP TABLE IF EXISTS ${db}.ledger_hop_${direction}_degree_mv${local}`,
        `DROP TABLE IF EXISTS ${db}.ledger_hop_${direction}_degree${local}`,
      ]),
  },
  {
    version: 6,
    name: "the transactions stored per second, for the hub caches of processes that follow the ledger",
    // The view stamps a block by the server's clock as the server pushes it to its views (after
    // its own table). Old days are dropped by the upkeep (ch-changes-upkeep.ts, migration 7).
    statements: (db, local) => [
      `CREATE TABLE IF NOT EXISTS ${db}.ledger_changes${local} ${CHANGE_COLUMNS}
       ENGINE = MergeTree() PARTITION BY toYYYYMMDD(stored_at) ORDER BY stored_at`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ledger_changes_mv${local} TO ${db}.ledger_changes${local}
       AS SELECT now() AS stored_at, network, tx_hash FROM ${db}.ledger_tx${local}`,
    ],
  },
  {
    version: 7,
    name: "how far the change log was cut: what tells a follower that lagged past its retention",
    // Written by the upkeep (ch-changes-upkeep.ts) before it drops days of ledger_changes.
    statements: (db, local) => [
      `CREATE TABLE IF NOT EXISTS ${db}.ledger_changes_horizon${local} ${HORIZON_COLUMNS}
       ENGINE = MergeTree() ORDER BY dropped_before`,
    ],
  },
];

/** The change log's horizon (migration 7): changes stamped before `dropped_before` may be gone. */
const HORIZON_COLUMNS = "(dropped_before DateTime, recorded_at DateTime)";

/** The statement putting a `Distributed` table over the shards' horizons of migration 7. */
export function horizonDistributedStatements(db: string, cluster: string): ReadonlyArray<string> {
  const d = sqlIdentifier(db);
  const c = sqlIdentifier(cluster);
  return [
    `CREATE TABLE IF NOT EXISTS ${d}.ledger_changes_horizon ${HORIZON_COLUMNS}
     ENGINE = Distributed(${c}, ${d}, ledger_changes_horizon_local, rand())`,
  ];
}

/** The change log of migration 6: when a transaction's rows were stored (server seconds). */
const CHANGE_COLUMNS = "(stored_at DateTime, network String, tx_hash String)";

/** The statement putting a `Distributed` table over the shards' change logs of migration 6. */
export function changesDistributedStatements(db: string, cluster: string): ReadonlyArray<string> {
  const d = sqlIdentifier(db);
  const c = sqlIdentifier(cluster);
  return [
    `CREATE TABLE IF NOT EXISTS ${d}.ledger_changes ${CHANGE_COLUMNS}
     ENGINE = Distributed(${c}, ${d}, ledger_changes_local, cityHash64(network, tx_hash))`,
  ];
}

/** Milliseconds in a day: the width of the buckets of the `*_days` tables. */
export const DAY_MILLIS = 86_400_000;

/** A row's day (floored, so times before 1970 fall in the day they belong to); see `dayOf`. */
const DAY_OF_ROW = `toInt32(floor(occurred_at / ${DAY_MILLIS}))`;

/** The day of a time in milliseconds, as the `*_days` tables count it. */
export function dayOf(millis: number): number {
  return Math.floor(millis / DAY_MILLIS);
}

/** The rows-per-hop-key-and-day tables (summed on merge; duplicates and shared hashes only over-count). */
const HOP_DAY_COLUMNS = "(hop_key UInt64, day Int32, rows UInt64)";

/** The columns of a hop table: the hop key, then a ledger row. */
const HOP_COLUMN_TYPES = COLUMN_TYPES.replace("(", "(\n  hop_key UInt64,");

/** The rows-per-hop-key tables (summed on merge; duplicates and shared hashes only over-count, which is safe). */
const HOP_DEGREE_COLUMNS = "(hop_key UInt64, rows UInt64)";

/** The rows-per-address tables (summed on merge; duplicates only over-count, which is safe). */
const DEGREE_COLUMNS = "(network String, token_id String, address String, rows UInt64)";

/** The statements creating the Distributed tables of `db` over cluster `cluster`. */
export function distributedStatements(db: string, cluster: string): ReadonlyArray<string> {
  const d = sqlIdentifier(db);
  const c = sqlIdentifier(cluster);
  const table = (name: string, shardBy: string) =>
    `CREATE TABLE IF NOT EXISTS ${d}.${name} ${COLUMN_TYPES}
     ENGINE = Distributed(${c}, ${d}, ${name}_local, ${shardBy})`;
  const degree = (name: string) =>
    `CREATE TABLE IF NOT EXISTS ${d}.${name} ${DEGREE_COLUMNS}
     ENGINE = Distributed(${c}, ${d}, ${name}_local, cityHash64(network, address))`;
  return [
    table("ledger_tx", "cityHash64(network, tx_hash)"),
    table("ledger_in", "cityHash64(network, tx_hash)"),
    table("ledger_out", "cityHash64(network, tx_hash)"),
    degree("ledger_in_degree"),
    degree("ledger_out_degree"),
  ];
}

/**
 * The statements putting `Distributed` tables over the shards' hop tables of migration 3 on a
 * sharded ledger's entry server, and dropping the ones over the tables that migration dropped.
 */
export function hopDistributedStatements(db: string, cluster: string): ReadonlyArray<string> {
  const d = sqlIdentifier(db);
  const c = sqlIdentifier(cluster);
  const over = (name: string, columns: string, shardBy: string) =>
    `CREATE TABLE IF NOT EXISTS ${d}.${name} ${columns}
     ENGINE = Distributed(${c}, ${d}, ${name}_local, ${shardBy})`;
  return [
    over("ledger_hop_in", HOP_COLUMN_TYPES, "cityHash64(network, tx_hash)"),
    over("ledger_hop_out", HOP_COLUMN_TYPES, "cityHash64(network, tx_hash)"),
    over("ledger_hop_in_degree", HOP_DEGREE_COLUMNS, "hop_key"),
    over("ledger_hop_out_degree", HOP_DEGREE_COLUMNS, "hop_key"),
    ...["ledger_in", "ledger_out", "ledger_in_degree", "ledger_out_degree"].map(
      (name) => `DROP TABLE IF EXISTS ${d}.${name}`,
    ),
  ];
}

/** The statements dropping the `Distributed` tables over the per-hop-key tables migration 5 drops. */
export function hopDegreeDropStatements(db: string): ReadonlyArray<string> {
  const d = sqlIdentifier(db);
  return ["ledger_hop_in_degree", "ledger_hop_out_degree"].map((name) => `DROP TABLE IF EXISTS ${d}.${name}`);
}

/** The statements putting `Distributed` tables over the shards' day tables of migration 4. */
export function hopDaysDistributedStatements(db: string, cluster: string): ReadonlyArray<string> {
  const d = sqlIdentifier(db);
  const c = sqlIdentifier(cluster);
  return ["ledger_hop_in_days", "ledger_hop_out_days"].map(
    (name) =>
      `CREATE TABLE IF NOT EXISTS ${d}.${name} ${HOP_DAY_COLUMNS}
       ENGINE = Distributed(${c}, ${d}, ${name}_local, hop_key)`,
  );
}

/** The versions table and the query of what it holds. */
export function versionsTable(db: string): string {
  return `CREATE TABLE IF NOT EXISTS ${sqlIdentifier(db)}.ledger_schema_versions
    (version UInt32, name String, applied_at DateTime) ENGINE = ReplacingMergeTree() ORDER BY version`;
}

/** The INSERT recording a migration as applied. */
export function recordVersion(db: string, migration: LedgerMigration): string {
  return `INSERT INTO ${sqlIdentifier(db)}.ledger_schema_versions (version, name, applied_at)
    VALUES (${sqlInt(migration.version)}, ${sqlString(migration.name)}, now())`;
}
