/**
 * `openkyt serve`: the KYT interface over HTTP, with the job runner in-process so transfers
 * get checked while it serves. SQLite files are migrated on start; keys from OPENKYT_API_KEYS
 * are provisioned. SIGTERM or SIGINT: stop accepting, finish requests in flight, stop the job
 * runner, close the store, exit 0.
 */
import { createHttpApp, createHttpLogger, serveHttp } from "@openkyt/http";
import { parseApiKeysEnv, provisionEnvKeys } from "./api-keys-env.js";
import { parseCommandArgs, portOption, stringOption } from "./cli-args.js";
import { type CliCommand, EXIT } from "./cli-command.js";
import { describeDbTarget, openStore, resolveDbTarget } from "./db-target.js";
import { createCliEngine, lazyPdfRenderer, PLAIN_SECRETS_WARNING, warmSourcesIf } from "./engine-setup.js";

const OPTIONS = {
  db: { type: "string" },
  port: { type: "string", short: "p" },
  host: { type: "string" },
  "no-workers": { type: "boolean" },
  "log-level": { type: "string" },
  warm: { type: "boolean" },
} as const;

/** The serve command. */
export const serveCommand: CliCommand = {
  name: "serve",
  summary: "serve the KYT interface over HTTP (and run the job runner)",
  usage: `usage: openkyt serve [--db FILE|postgres://URL] [--port 8080] [--host 127.0.0.1] [--no-workers] [--warm] [--log-level info] [--json]

  --db          SQLite file (migrated on start) or postgres:// URL; default $OPENKYT_DB, then ./openkyt.db
  --port        port to listen on (0: any free port); default 8080
  --host        interface to bind; default 127.0.0.1
  --no-workers  do not run the job runner here (run \`openkyt worker\` elsewhere)
  --warm        screen from memory: load the ledger into memory (SQLite only; about 300 MB per
                million transfers) and cache labels and sanctions; rows imported meanwhile are
                traced within 1 s, labels and listings within 30 s
  --log-level   pino level of the request log on stderr; default info

  environment: OPENKYT_API_KEYS="id:secret:account,..." provisions keys at start;
               OPENKYT_VAULT_KEY (32+ characters) encrypts API secrets at rest.`,
  async run(argv, io) {
    const args = parseCommandArgs(argv, OPTIONS);
    const port = portOption(args, "port", 8080);
    const host = stringOption(args, "host") ?? "127.0.0.1";
    const workers = args.values["no-workers"] !== true;
    const envKeys = parseApiKeysEnv(io.env.OPENKYT_API_KEYS);
    const target = resolveDbTarget(stringOption(args, "db"), io.env);
    const logger = createHttpLogger({ level: stringOption(args, "log-level") ?? "info" });
    const store = await openStore(target, { migrateSqlite: true });
    const renderer = lazyPdfRenderer();
    try {
      const engine = createCliEngine(
        store,
        io.env,
        logger,
        await warmSourcesIf(args.values.warm === true, store),
        renderer,
      );
      if (!engine.apiKeys.encryptsSecrets) io.stderr(PLAIN_SECRETS_WARNING);
      await provisionEnvKeys(engine, envKeys);
      const server = await serveHttp(createHttpApp({ engine, logger }), { host, port });
      if (workers) engine.start();
      // Listen for signals before telling anyone where we listen: a supervisor may stop us at once.
      const stopped = io.untilSignal();
      const db = describeDbTarget(target);
      io.stdout(
        args.values.json
          ? `${JSON.stringify({ url: server.url, host: server.host, port: server.port, db, workers })}\n`
          : `openkyt serving the KYT interface at ${server.url} (db ${db}, workers ${workers ? "on" : "off"})\n`,
      );
      const signal = await stopped;
      io.stderr(`${signal}: shutting down\n`);
      await server.close();
      await engine.stop();
      return EXIT.OK;
    } finally {
      await renderer.close();
      await store.close();
      logger.flush();
    }
  },
};
