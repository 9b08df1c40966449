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

/**
 * The numbers below the last migration that no migration has, as `0012` or `0016-0017`. They
 * were never used (numbers are handed out in ranges to work done side by side, and some went
 * unused), so a store without them misses nothing. They stay unused: a migration slipped into a
 * gap would run after later ones on the stores that have them, so new ones take the next number.
 */
export function unusedMigrationNumbers(names: ReadonlyArray<string>): string[] {
  const used = new Set(names.map((name) => Number.parseInt(name.slice(0, 4), 10)));
  const last = Math.max(0, ...used);
  const gaps: string[] = [];
  const pad = (n: number) => String(n).padStart(4, "0");
  for (let n = 1; n <= last; n += 1) {
    if (used.has(n)) continue;
    let end = n;
    while (end + 1 <= last && !used.has(end + 1)) end += 1;
    gaps.push(end === n ? pad(n) : `${pad(n)}-${pad(end)}`);
    n = end;
  }
  return gaps;
}

/** The line that says the gaps in the numbering are not missing migrations, or "". */
function gapNote(names: ReadonlyArray<string>): string {
  const gaps = unusedMigrationNumbers(names);
  return gaps.length === 0
    ? ""
    : `  (no migration is numbered ${gaps.join(", ")}: those numbers were never used, nothing is missing)\n`;
}

/** The migrate command. */
export const migrateCommand: CliCommand = {
  name: "migrate",
  summary: "migrate a store to the latest schema",
  usage: `usage: openkyt migrate [--db FILE|postgres://URL] [--json]

  --db  SQLite file or postgres:// URL; default $OPENKYT_DB, then ./openkyt.db
  Prints each migration it applied, or that the store was already up to date. The numbering
  has gaps (0012, for one): numbers never used, not missing migrations.`,
  async run(argv, io) {
    const args = parseCommandArgs(argv, { db: { type: "string" } });
    const target = resolveDbTarget(stringOption(args, "db"), io.env);
    const applied = (await migrate(target)).applied.map((m) => m.name);
    const db = describeDbTarget(target);
    const names = Object.keys(STORE_MIGRATIONS);
    const latest = names.length;
    if (args.values.json) {
      const unused = unusedMigrationNumbers(names);
      io.stdout(`${JSON.stringify({ migrated: db, applied, migrations: latest, unused_numbers: unused })}\n`);
    } else if (applied.length === 0) {
      io.stdout(`${db} is already up to date (${latest} migrations)\n`);
    } else {
      io.stdout(
        `migrated ${db} to the latest schema (${latest} migrations), applying:\n${applied.map((name) => `  ${name}\n`).join("")}${gapNote(names)}`,
      );
    }
    return EXIT.OK;
  },
};
