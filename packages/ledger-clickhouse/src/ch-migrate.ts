/**
 * Runs the ledger's pending migrations on one server, or on every shard of a sharded ledger and
 * then the Distributed tables on its entry server. Statements are idempotent (IF NOT EXISTS), so
 * two processes migrating at once both end with the same tables.
 */
import { KytError } from "@openkyt/core";
import { type ChClient, openChClient, type RetryPolicy } from "./ch-client.js";
import { sqlIdentifier, sqlString } from "./ch-escape.js";
import {
  changesDistributedStatements,
  distributedStatements,
  hopDaysDistributedStatements,
  hopDegreeDropStatements,
  hopDistributedStatements,
  horizonDistributedStatements,
  LEDGER_MIGRATIONS,
  type LedgerMigration,
  type MigrationStatement,
  recordVersion,
  versionsTable,
} from "./ch-schema.js";
import type { ClickHouseTarget } from "./ch-target.js";
import { UTXO_MIGRATIONS, utxoDistributedStatements } from "./ch-utxo-schema.js";

/** The version of the Distributed tables on a sharded ledger's entry server. */
export const DISTRIBUTED_VERSION = 1001;

/** The version of the UTXO Distributed tables on a sharded ledger's entry server. */
export const UTXO_DISTRIBUTED_VERSION = 1002;

/** The version of the Distributed hop tables of migration 3 on a sharded ledger's entry server. */
export const HOP_DISTRIBUTED_VERSION = 1003;

/** The version of the Distributed day tables of migration 4 on a sharded ledger's entry server. */
export const HOP_DAYS_DISTRIBUTED_VERSION = 1004;

/** The version dropping the Distributed per-hop-key tables (migration 5) on a sharded ledger's entry server. */
export const HOP_DEGREE_DROP_VERSION = 1005;

/** The version of the Distributed change log of migration 6 on a sharded ledger's entry server. */
export const CHANGES_DISTRIBUTED_VERSION = 1006;

/** The version of the Distributed change log horizon of migration 7 on a sharded ledger's entry server. */
export const HORIZON_DISTRIBUTED_VERSION = 1007;

/** The account ledger's migrations, then the UTXO ledger's (numbered from 101). */
const SERVER_MIGRATIONS: ReadonlyArray<LedgerMigration> = [...LEDGER_MIGRATIONS, ...UTXO_MIGRATIONS];

/** What a migration run did. */
export interface ClickHouseMigrationOutcome {
  /** Versions applied now, per server URL. */
  readonly applied: Readonly<Record<string, ReadonlyArray<number>>>;
}

/** Options of {@link migrateClickHouseLedger}. */
export interface MigrateOptions {
  /**
   * The shards of a sharded ledger (the target's `cluster`), each an HTTP target of its own; the
   * local tables are created on each. Required when the target names a cluster.
   */
  readonly shards?: ReadonlyArray<ClickHouseTarget>;
  readonly retry?: Partial<RetryPolicy>;
}

/** Creates the database and runs the pending migrations. */
export async function migrateClickHouseLedger(
  target: ClickHouseTarget,
  options: MigrateOptions = {},
): Promise<ClickHouseMigrationOutcome> {
  const applied: Record<string, ReadonlyArray<number>> = {};
  if (target.cluster === null) {
    applied[target.url] = await migrateServer(target, "", SERVER_MIGRATIONS, options.retry);
    return { applied };
  }
  const shards =
    options.shards ?? target.shards.map((url) => ({ ...target, url, cluster: null, shards: [] }));
  if (shards.length === 0) {
    throw new KytError(
      "NOT_CONFIGURED",
      `a sharded ClickHouse ledger (cluster ${target.cluster}) needs its shards' HTTP addresses to migrate`,
    );
  }
  for (const shard of shards) {
    applied[shard.url] = await migrateServer(
      { ...shard, database: target.database },
      "_local",
      SERVER_MIGRATIONS,
      options.retry,
    );
  }
  // Numbered apart from the shards' own migrations: the entry server is often a shard too.
  const entry: LedgerMigration = {
    version: DISTRIBUTED_VERSION,
    name: `distributed ledger tables over cluster ${target.cluster}`,
    statements: (db) => distributedStatements(db, target.cluster ?? ""),
  };
  const utxoEntry: LedgerMigration = {
    version: UTXO_DISTRIBUTED_VERSION,
    name: `distributed utxo tables over cluster ${target.cluster}`,
    statements: (db) => utxoDistributedStatements(db, target.cluster ?? ""),
  };
  const hopEntry: LedgerMigration = {
    version: HOP_DISTRIBUTED_VERSION,
    name: `distributed hop tables by hop key over cluster ${target.cluster}`,
    statements: (db) => hopDistributedStatements(db, target.cluster ?? ""),
  };
  const daysEntry: LedgerMigration = {
    version: HOP_DAYS_DISTRIBUTED_VERSION,
    name: `distributed hop day tables over cluster ${target.cluster}`,
    statements: (db) => hopDaysDistributedStatements(db, target.cluster ?? ""),
  };
  const degreeDrop: LedgerMigration = {
    version: HOP_DEGREE_DROP_VERSION,
    name: `drop the distributed per-hop-key tables over cluster ${target.cluster}`,
    statements: (db) => hopDegreeDropStatements(db),
  };
  const changesEntry: LedgerMigration = {
    version: CHANGES_DISTRIBUTED_VERSION,
    name: `distributed change log over cluster ${target.cluster}`,
    statements: (db) => changesDistributedStatements(db, target.cluster ?? ""),
  };
  const horizonEntry: LedgerMigration = {
    version: HORIZON_DISTRIBUTED_VERSION,
    name: `distributed change log horizon over cluster ${target.cluster}`,
    statements: (db) => horizonDistributedStatements(db, target.cluster ?? ""),
  };
  const entryApplied = await migrateServer(
    target,
    "",
    [entry, utxoEntry, hopEntry, daysEntry, degreeDrop, changesEntry, horizonEntry],
    options.retry,
  );
  applied[target.url] = [...(applied[target.url] ?? []), ...entryApplied];
  return { applied };
}

async function migrateServer(
  target: ClickHouseTarget,
  local: string,
  migrations: ReadonlyArray<LedgerMigration>,
  retry: Partial<RetryPolicy> | undefined,
): Promise<ReadonlyArray<number>> {
  const db = sqlIdentifier(target.database);
  const admin: ChClient = openChClient(target, { database: null, ...(retry ? { retry } : {}) });
  try {
    await admin.command(`CREATE DATABASE IF NOT EXISTS ${db}`);
    await admin.command(versionsTable(db));
    const done = new Set(
      (await admin.rows<{ version: number }>(`SELECT version FROM ${db}.ledger_schema_versions`)).map((r) =>
        Number(r.version),
      ),
    );
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      for (const statement of migration.statements(db, local))
        await runMigrationStatement(admin, target.database, statement);
      await admin.command(recordVersion(db, migration));
      applied.push(migration.version);
    }
    return applied;
  } finally {
    await admin.close();
  }
}

/**
 * Runs one migration statement in `database` (a name `sqlIdentifier` accepts); a conditional one
 * only while its table exists.
 */
export async function runMigrationStatement(
  admin: ChClient,
  database: string,
  statement: MigrationStatement,
): Promise<void> {
  if (typeof statement === "string") {
    await admin.command(statement);
    return;
  }
  const [found] = await admin.rows<{ n: number | string }>(
    `SELECT count() AS n FROM system.tables WHERE database = ${sqlString(database)} AND name = ${sqlString(statement.ifTable)}`,
  );
  if (Number(found?.n ?? 0) > 0) await admin.command(statement.sql);
}
