/**
 * Migration 0001: the engine's tables (transfers, manual checks, risks, alerts and their
 * history, jobs, risk models, API keys) and the indexes their lists and lookups use.
 */
import { type Kysely, type Migration, sql } from "kysely";

/** Creates the engine's tables. */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("transfers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("client_id", "text")
    .addColumn("attempt_id", "text")
    .addColumn("registered_at", "bigint", (c) => c.notNull())
    .addColumn("network", "text", (c) => c.notNull())
    .addColumn("token_id", "text", (c) => c.notNull())
    .addColumn("token_symbol", "text")
    .addColumn("direction", "text", (c) => c.notNull())
    .addColumn("tx_status", "text", (c) => c.notNull())
    .addColumn("tx_hash", "text")
    .addColumn("occurred_at", "bigint")
    .addColumn("input_address", "text")
    .addColumn("output_address", "text")
    .addColumn("amount", "double precision")
    .addColumn("value_in_fiat", "double precision")
    .addColumn("risk_level", "text", (c) => c.notNull())
    .addColumn("risk_score", "double precision")
    .addColumn("risk_model_id", "text")
    .addColumn("risk_model_version", "text")
    .addColumn("checks", "text", (c) => c.notNull())
    .addColumn("disable_auto_check", "integer", (c) => c.notNull())
    .addColumn("exposure", "text")
    .addColumn("counterparty", "text")
    .addColumn("sanctions", "text")
    .addColumn("counterparty_name", "text")
    .addColumn("counterparty_category", "text")
    .addColumn("last_error", "text")
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("transfers_account_registered")
    .on("transfers")
    .columns(["account_id", "registered_at", "id"])
    .execute();
  await db.schema
    .createIndex("transfers_identity")
    .unique()
    .on("transfers")
    .columns(["account_id", "network", "tx_hash", "token_id", "output_address", "direction"])
    .where(sql.ref("tx_hash"), "is not", null)
    .execute();

  await db.schema
    .createTable("manual_checks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("check_type", "text", (c) => c.notNull())
    .addColumn("check_status", "text", (c) => c.notNull())
    .addColumn("checked_at", "bigint")
    .addColumn("network", "text", (c) => c.notNull())
    .addColumn("token_id", "text", (c) => c.notNull())
    .addColumn("token_symbol", "text")
    .addColumn("tx_hash", "text")
    .addColumn("output_address", "text")
    .addColumn("direction", "text")
    .addColumn("address", "text")
    .addColumn("tx_status", "text")
    .addColumn("occurred_at", "bigint")
    .addColumn("input_address", "text")
    .addColumn("counterparty_address", "text")
    .addColumn("amount", "double precision")
    .addColumn("value_in_fiat", "double precision")
    .addColumn("risk_level", "text", (c) => c.notNull())
    .addColumn("risk_score", "double precision")
    .addColumn("risk_model_id", "text")
    .addColumn("risk_model_version", "text")
    .addColumn("exposure", "text")
    .addColumn("counterparty", "text")
    .addColumn("sanctions", "text")
    .addColumn("last_error", "text")
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("manual_checks_account_created")
    .on("manual_checks")
    .columns(["account_id", "created_at"])
    .execute();

  await db.schema
    .createTable("risks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("subject_type", "text", (c) => c.notNull())
    .addColumn("subject_id", "text", (c) => c.notNull())
    .addColumn("check_kind", "text", (c) => c.notNull())
    .addColumn("risk_type", "text", (c) => c.notNull())
    .addColumn("risk_level", "text", (c) => c.notNull())
    .addColumn("level_rank", "integer", (c) => c.notNull())
    .addColumn("entity_category", "text", (c) => c.notNull())
    .addColumn("entity_name", "text")
    .addColumn("proximity", "text", (c) => c.notNull())
    .addColumn("value_in_fiat", "double precision")
    .addColumn("value_share", "double precision")
    .addColumn("rule", "text", (c) => c.notNull())
    .addColumn("occurred_at", "bigint", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("risks_subject")
    .on("risks")
    .columns(["subject_type", "subject_id", "check_kind"])
    .execute();

  await db.schema
    .createTable("alerts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("transfer_id", "text", (c) => c.notNull())
    .addColumn("dedupe_key", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint")
    .addColumn("risk_level", "text", (c) => c.notNull())
    .addColumn("risk_type", "text", (c) => c.notNull())
    .addColumn("risk_occurred_at", "bigint", (c) => c.notNull())
    .addColumn("alert_status", "text", (c) => c.notNull())
    .addColumn("entity_category", "text", (c) => c.notNull())
    .addColumn("proximity", "text", (c) => c.notNull())
    .addColumn("value_in_fiat", "double precision")
    .addColumn("value_share", "double precision")
    .addColumn("rule", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("alerts_transfer_dedupe")
    .unique()
    .on("alerts")
    .columns(["transfer_id", "dedupe_key"])
    .execute();
  await db.schema
    .createIndex("alerts_account_created")
    .on("alerts")
    .columns(["account_id", "created_at"])
    .execute();

  await db.schema
    .createTable("alert_history")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("alert_id", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("at", "bigint", (c) => c.notNull())
    .addColumn("actor", "text")
    .addColumn("from_status", "text")
    .addColumn("to_status", "text", (c) => c.notNull())
    .addColumn("comment", "text")
    .addUniqueConstraint("alert_history_alert_position", ["alert_id", "position"])
    .execute();

  await db.schema
    .createTable("jobs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("subject_id", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("run_at", "bigint", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull())
    .addColumn("lease_owner", "text")
    .addColumn("lease_until", "bigint")
    .addColumn("last_error", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("jobs_run_at").on("jobs").column("run_at").execute();
  await db.schema.createIndex("jobs_subject").on("jobs").column("subject_id").execute();

  await db.schema
    .createTable("risk_models")
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("rules", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("risk_models_pk", ["account_id", "id", "version"])
    .execute();

  await db.schema
    .createTable("api_keys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("revoked_at", "bigint")
    .execute();
  await db.schema
    .createIndex("api_keys_account")
    .on("api_keys")
    .columns(["account_id", "created_at"])
    .execute();
}

/** Drops the engine's tables (their indexes go with them). */
async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "api_keys",
    "risk_models",
    "jobs",
    "alert_history",
    "alerts",
    "risks",
    "manual_checks",
    "transfers",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

/** Migration 0001. */
export const engineTablesMigration: Migration = { up, down };
