/**
 * Versioned migrations of the kysely store, run by kysely's `Migrator` from a static list.
 * The running engine never migrates implicitly: callers (the CLI's `migrate`, store factories
 * with `migrate: true`) run these.
 */
import { KytError } from "@openkyt/core";
import { type Kysely, type Migration, type MigrationResult, Migrator, NO_MIGRATIONS } from "kysely";
import { engineTablesMigration } from "./kysely-migration-0001-engine.js";
import { referenceTablesMigration } from "./kysely-migration-0002-reference.js";
import { settingsMigration } from "./kysely-migration-0003-settings.js";
import { workflowMigration } from "./kysely-migration-0004-workflow.js";
import { listIndexesMigration } from "./kysely-migration-0005-list-indexes.js";
import { ledgerKeyMigration } from "./kysely-migration-0006-ledger-key.js";
import { replayGuardMigration } from "./kysely-migration-0007-replay-guard.js";
import { webhookStateMigration } from "./kysely-migration-0008-webhook-state.js";
import { sanctionsDatesMigration } from "./kysely-migration-0009-sanctions-dates.js";
import { ledgerSeqMigration } from "./kysely-migration-0010-ledger-seq.js";
import { usersMigration } from "./kysely-migration-0011-users.js";
import { backtestsMigration } from "./kysely-migration-0013-backtests.js";
import { transferPositionMigration } from "./kysely-migration-0014-transfer-position.js";
import { jobLeasesMigration } from "./kysely-migration-0015-job-leases.js";
import { transferStatusIndexMigration } from "./kysely-migration-0018-transfer-status-index.js";
import { followedBlocksMigration } from "./kysely-migration-0020-followed-blocks.js";
import { utxoLedgerMigration } from "./kysely-migration-0030-utxo-ledger.js";
import { utxoClustersMigration } from "./kysely-migration-0031-utxo-clusters.js";
import { utxoKeysMigration } from "./kysely-migration-0032-utxo-keys.js";
import { caseworkMigration } from "./kysely-migration-0040-casework.js";
import { modelChangeReasonMigration } from "./kysely-migration-0060-model-change-reason.js";
import { ledgerRewindsMigration } from "./kysely-migration-0070-ledger-rewinds.js";
import { teamApprovalMigration } from "./kysely-migration-0080-team-approval.js";
import { clusterLabelsMigration } from "./kysely-migration-0090-cluster-labels.js";
import { jobNotifyMigration } from "./kysely-migration-0100-job-notify.js";
import { utxoNarrowMigration } from "./kysely-migration-0101-utxo-narrow.js";
import type { Database } from "./kysely-schema.js";

/** Every migration by name; names sort in the order they run. */
export const STORE_MIGRATIONS: Readonly<Record<string, Migration>> = Object.freeze({
  "0001_engine_tables": engineTablesMigration,
  "0002_reference_tables": referenceTablesMigration,
  "0003_settings": settingsMigration,
  "0004_workflow": workflowMigration,
  "0005_list_indexes": listIndexesMigration,
  "0006_ledger_key": ledgerKeyMigration,
  "0007_replay_guard": replayGuardMigration,
  "0008_webhook_state": webhookStateMigration,
  "0009_sanctions_dates": sanctionsDatesMigration,
  "0010_ledger_seq": ledgerSeqMigration,
  "0011_users": usersMigration,
  "0013_backtests": backtestsMigration,
  "0014_transfer_position": transferPositionMigration,
  "0015_job_leases": jobLeasesMigration,
  "0018_transfer_status_index": transferStatusIndexMigration,
  "0020_followed_blocks": followedBlocksMigration,
  "0030_utxo_ledger": utxoLedgerMigration,
  "0031_utxo_clusters": utxoClustersMigration,
  "0032_utxo_keys": utxoKeysMigration,
  "0040_casework": caseworkMigration,
  "0060_model_change_reason": modelChangeReasonMigration,
  "0070_ledger_rewinds": ledgerRewindsMigration,
  "0080_team_approval": teamApprovalMigration,
  "0090_cluster_labels": clusterLabelsMigration,
  "0100_job_notify": jobNotifyMigration,
  "0101_utxo_narrow": utxoNarrowMigration,
});

/** What a migration run did: the migrations it ran, in order, with their direction. */
export interface MigrationOutcome {
  readonly applied: ReadonlyArray<{ readonly name: string; readonly direction: "Up" | "Down" }>;
}

/** Where the migrations run. */
export interface MigrationTarget {
  /**
   * The schema that holds the store's tables (Postgres). The migration bookkeeping tables go
   * there too, so that stores in other schemas of the same database do not see each other's
   * history; the tables themselves are created in the connection's search_path, which the
   * caller points at the same schema. Default: none (SQLite, or Postgres's default schema).
   */
  readonly schema?: string;
}

/** A Migrator over the static list. */
function migratorOf(db: Kysely<Database>, target: MigrationTarget): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...STORE_MIGRATIONS }) },
    ...(target.schema === undefined ? {} : { migrationTableSchema: target.schema }),
  });
}

/** Turns a migrator result into an outcome, or throws STORE_ERROR (cause kept). */
function outcomeOf(run: { error?: unknown; results?: MigrationResult[] }): MigrationOutcome {
  if (run.error !== undefined) {
    const failed = run.results?.find((r) => r.status === "Error")?.migrationName;
    const message = failed === undefined ? "migration failed" : `migration ${failed} failed`;
    throw new KytError("STORE_ERROR", message, { cause: run.error });
  }
  return {
    applied: (run.results ?? []).map((r) => ({ name: r.migrationName, direction: r.direction })),
  };
}

/** Runs every pending migration. */
export async function migrateToLatest(
  db: Kysely<Database>,
  target: MigrationTarget = {},
): Promise<MigrationOutcome> {
  return outcomeOf(await migratorOf(db, target).migrateToLatest());
}

/**
 * Reverts migrations: the last one (`"previous"`, the default) or all of them (`"zero"`),
 * which drops every table of the store.
 */
export async function migrateDown(
  db: Kysely<Database>,
  to: "previous" | "zero" = "previous",
  target: MigrationTarget = {},
): Promise<MigrationOutcome> {
  const migrator = migratorOf(db, target);
  return outcomeOf(to === "zero" ? await migrator.migrateTo(NO_MIGRATIONS) : await migrator.migrateDown());
}

/** Names of the migrations applied so far, in order. */
export async function appliedMigrations(
  db: Kysely<Database>,
  target: MigrationTarget = {},
): Promise<ReadonlyArray<string>> {
  const all = await migratorOf(db, target).getMigrations();
  return all.filter((m) => m.executedAt !== undefined).map((m) => m.name);
}
