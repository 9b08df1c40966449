/**
 * `openkyt migrate`: brings a store's schema to the latest version (SQLite file or Postgres)
 * and says what it applied: each migration's name, or that the store was already up to date.
 */
import { type MigrationOutcome, migrateToLatest, STORE_MIGRATIONS } from "@openkyt/store-kysely";
import { parseCommandArgs, stringOption } from "./cli-args.js";
import { type CliCommand, EXIT } from "./cli-command.js";
import { type DbTarget, describeDbTarget, loadPostgres, resolveDbTarget } from "./db-target.js";

/** Runs the pending migrations of the store at `target`; answers the ones it ran. */
async function migrate(target: DbTarget): Promise<MigrationOutcome> {
  if (target.kind === "postgres") return (await loadPostgres()).migratePostgres(target.url);
  const { openSqliteDatabase } = await import("@openkyt/store-sqlite");
  const db = openSqliteDatabase(target.filename);
  try {
    return await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}

/** The migrate command. */
export const migrateCommand: CliCommand = {
  name: "migrate",
  summary: "migrate a store to the latest schema",
  usage: `usage: openkyt migrate [--db FILE|postgres://URL] [--json]

  --db  SQLite file or postgres:// URL; default $OPENKYT_DB, then ./openkyt.db
  Prints each migration it applied, or that the store was already up to date.`,
  async run(argv, io) {
    const args = parseCommandArgs(argv, { db: { type: "string" } });
    const target = resolveDbTarget(stringOption(args, "db"), io.env);
    const applied = (await migrate(target)).applied.map((m) => m.name);
    const db = describeDbTarget(target);
    const latest = Object.keys(STORE_MIGRATIONS).length;
    if (args.values.json) {
      io.stdout(`${JSON.stringify({ migrated: db, applied, migrations: latest })}\n`);
    } else if (applied.length === 0) {
      io.stdout(`${db} is already up to date (${latest} migrations)\n`);
    } else {
      io.stdout(
        `migrated ${db} to the latest schema (${latest} migrations), applying:\n${applied.map((name) => `  ${name}\n`).join("")}`,
      );
    }
    return EXIT.OK;
  },
};
