/**
 * `openkyt worker`: the job runner only (binding and checks), for deployments where HTTP nodes
 * run with `--no-workers`. Several workers may share one Postgres; SIGTERM stops it gracefully.
 */
import { createHttpLogger } from "@openkyt/http";
import { parseCommandArgs, stringOption } from "./cli-args.js";
import { type CliCommand, EXIT } from "./cli-command.js";
import { describeDbTarget, openStore, resolveDbTarget } from "./db-target.js";
import { createCliEngine, warmSourcesIf } from "./engine-setup.js";

/** The worker command. */
export const workerCommand: CliCommand = {
  name: "worker",
  summary: "run the job runner only (binding and checks)",
  usage: `usage: openkyt worker [--db FILE|postgres://URL] [--warm] [--log-level info] [--json]

  --db         SQLite file (migrated on start) or postgres:// URL; default $OPENKYT_DB, then ./openkyt.db
  --warm       screen from memory: the ledger loaded and followed (SQLite or Postgres), labels,
               sanctions, tokens and prices cached
  --log-level  pino level of the log on stderr; default info

  A SQLite store is for one process: run a worker on it only when the server runs --no-workers.`,
  async run(argv, io) {
    const args = parseCommandArgs(argv, {
      db: { type: "string" },
      "log-level": { type: "string" },
      warm: { type: "boolean" },
    });
    const target = resolveDbTarget(stringOption(args, "db"), io.env);
    const logger = createHttpLogger({ level: stringOption(args, "log-level") ?? "info" });
    const store = await openStore(target, { migrateSqlite: true });
    try {
      const engine = createCliEngine(
        store,
        io.env,
        logger,
        await warmSourcesIf(args.values.warm === true, store),
      );
      engine.start();
      const stopped = io.untilSignal();
      const db = describeDbTarget(target);
      io.stdout(
        args.values.json
          ? `${JSON.stringify({ worker: "running", db })}\n`
          : `openkyt worker running (db ${db})\n`,
      );
      const signal = await stopped;
      io.stderr(`${signal}: finishing the jobs in hand\n`);
      await engine.stop();
      return EXIT.OK;
    } finally {
      await store.close();
      logger.flush();
    }
  },
};
