/**
 * `openkyt serve`: the KYT interface over HTTP, with the job runner in-process so transfers
 * get checked while it serves. SQLite files are migrated on start; keys from OPENKYT_API_KEYS
 * are provisioned. SIGTERM or SIGINT: stop accepting, finish requests in flight, stop the job
 * runner, close the store, exit 0.
 */
import { createHttpApp, createHttpLogger, serveHttp } from "@openkyt/http";
import { parseApiKeysEnv, provisionEnvKeys } from "./api-keys-env.js";
import { type ParsedArgs, parseCommandArgs, portOption, stringOption } from "./cli-args.js";
import { type CliCommand, EXIT, UsageError } from "./cli-command.js";
import { consoleAssetsDir } from "./console-dir.js";
import { describeDbTarget, openStore, resolveDbTarget } from "./db-target.js";
import { createCliEngine, lazyPdfRenderer, PLAIN_SECRETS_WARNING, warmSourcesIf } from "./engine-setup.js";

const OPTIONS = {
  db: { type: "string" },
  port: { type: "string", short: "p" },
  host: { type: "string" },
  "no-workers": { type: "boolean" },
  "log-level": { type: "string" },
  warm: { type: "boolean" },
  "max-connections": { type: "string" },
  "max-connections-per-address": { type: "string" },
  "failed-auth-limit": { type: "string" },
  "no-console": { type: "boolean" },
} as const;

/** A connection cap from its flag, else its environment variable, else undefined (the default). */
function capOption(
  args: ParsedArgs,
  name: string,
  env: string | undefined,
  envName: string,
): number | undefined {
  const flag = stringOption(args, name);
  const raw = flag ?? env;
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d+$/.test(raw)) {
    throw new UsageError(
      `${flag === undefined ? envName : `--${name}`} must be a whole number (0: off), got ${raw}`,
    );
  }
  return Number(raw);
}

/** The serve command. */
export const serveCommand: CliCommand = {
  name: "serve",
  summary: "serve the KYT interface over HTTP (and run the job runner)",
  usage: `usage: openkyt serve [--db FILE|postgres://URL] [--port 8080] [--host 127.0.0.1] [--no-workers] [--warm] [--log-level info]
                     [--max-connections N] [--max-connections-per-address N] [--failed-auth-limit N] [--no-console] [--json]

  --db          SQLite file (migrated on start) or postgres:// URL; default $OPENKYT_DB, then ./openkyt.db
  --port        port to listen on (0: any free port); default 8080
  --host        interface to bind; default 127.0.0.1
  --no-workers  do not run the job runner here (run \`openkyt worker\` elsewhere)
  --warm        screen from memory: load the ledger into memory (SQLite or Postgres; about 0.5 GB
                per million transfers) and cache labels, sanctions, tokens and prices; rows
                imported meanwhile are traced within 1 s, reference data within 30 s
  --no-console  do not serve the analyst console at /console/ nor accept console sign-ins
                (signed requests only); users are made with \`openkyt users create\`
  --log-level   pino level of the request log on stderr; default info
  --max-connections  most open connections in all (0: no cap); default $OPENKYT_MAX_CONNECTIONS,
                then 1,000 (less when the open-file limit is low)
  --max-connections-per-address  most open connections from one address (an IPv6 /64; 0: no cap);
                default $OPENKYT_MAX_CONNECTIONS_PER_ADDRESS, then 100. Behind a proxy, raise it or set 0
  --failed-auth-limit  failed authentications per second per address and per key, bursts of twice
                that, then 429 (0: no budget); default $OPENKYT_FAILED_AUTH_LIMIT, then 10. Behind a
                proxy every client has its address: raise it or set 0

  environment: OPENKYT_API_KEYS="id:secret:account,..." provisions keys at start;
               OPENKYT_VAULT_KEY (32+ characters) encrypts API secrets at rest.`,
  async run(argv, io) {
    const args = parseCommandArgs(argv, OPTIONS);
    const port = portOption(args, "port", 8080);
    const host = stringOption(args, "host") ?? "127.0.0.1";
    const workers = args.values["no-workers"] !== true;
    const maxConnections = capOption(
      args,
      "max-connections",
      io.env.OPENKYT_MAX_CONNECTIONS,
      "OPENKYT_MAX_CONNECTIONS",
    );
    const failedAuthLimit = capOption(
      args,
      "failed-auth-limit",
      io.env.OPENKYT_FAILED_AUTH_LIMIT,
      "OPENKYT_FAILED_AUTH_LIMIT",
    );
    const maxConnectionsPerAddress = capOption(
      args,
      "max-connections-per-address",
      io.env.OPENKYT_MAX_CONNECTIONS_PER_ADDRESS,
      "OPENKYT_MAX_CONNECTIONS_PER_ADDRESS",
    );
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
      const failedAuth =
        failedAuthLimit === undefined
          ? {}
          : {
              failedAuth:
                failedAuthLimit === 0 ? null : { perSecond: failedAuthLimit, burst: 2 * failedAuthLimit },
            };
      const consoleDir = args.values["no-console"] === true ? null : consoleAssetsDir();
      if (args.values["no-console"] !== true && consoleDir === null) {
        io.stderr("the console is not built (npm run build): serving without /console/\n");
      }
      const consoleOption = args.values["no-console"] === true ? null : { assetsDir: consoleDir };
      const app = createHttpApp({ engine, logger, limits: failedAuth, console: consoleOption });
      const server = await serveHttp(app, {
        host,
        port,
        logger,
        ...(maxConnections === undefined ? {} : { maxConnections }),
        ...(maxConnectionsPerAddress === undefined ? {} : { maxConnectionsPerAddress }),
      });
      if (workers) engine.start();
      // Listen for signals before telling anyone where we listen: a supervisor may stop us at once.
      const stopped = io.untilSignal();
      const db = describeDbTarget(target);
      io.stdout(
        args.values.json
          ? `${JSON.stringify({ url: server.url, host: server.host, port: server.port, db, workers, console: consoleDir ? `${server.url}/console/` : null })}\n`
          : `openkyt serving the KYT interface at ${server.url} (db ${db}, workers ${workers ? "on" : "off"})\n${consoleDir ? `console at ${server.url}/console/ (users: openkyt users create)\n` : ""}`,
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
