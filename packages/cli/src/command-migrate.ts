/** `openkyt migrate`: brings a store's schema to the latest version (SQLite file or Postgres). */
import { parseCommandArgs, stringOption } from "./cli-args.js";
import { type CliCommand, EXIT } from "./cli-command.js";
import { describeDbTarget, loadPostgres, openStore, resolveDbTarget } from "./db-target.js";

/** The migrate command. */
export const migrateCommand: CliCommand = {
  name: "migrate",
  summary: "migrate a store to the latest schema",
  usage: `usage: openkyt migrate [--db FILE|postgres://URL] [--json]

  --db  SQLite file or postgres:// URL; default $OPENKYT_DB, then ./openkyt.db`,
  async run(argv, io) {
    const args = parseCommandArgs(argv, { db: { type: "string" } });
    const target = resolveDbTarget(stringOption(args, "db"), io.env);
    if (target.kind === "postgres") {
      await (await loadPostgres()).migratePostgres(target.url);
    } else {
      await (await openStore(target, { migrateSqlite: true })).close();
    }
    const db = describeDbTarget(target);
    io.stdout(
      args.values.json ? `${JSON.stringify({ migrated: db })}\n` : `migrated ${db} to the latest schema\n`,
    );
    return EXIT.OK;
  },
};
