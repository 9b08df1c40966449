/**
 * `openkyt serve`: the KYT interface over HTTP, with the job runner in-process so transfers
 * get checked while it serves. SQLite files are migrated on start; keys from OPENKYT_API_KEYS
 * are provisioned. It listens at once, answering /healthz, /readyz (503 until the store is open
 * and migrated and `--warm` sources are loaded) and /metrics while it starts. SIGTERM or SIGINT:
 * /readyz answers 503 (for `--drain-seconds`), then stop accepting, finish requests in flight,
 * stop the job runner, close the store, exit 0.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Store } from "@openkyt/core";
import {
  createHttpApp,
  createHttpLogger,
  createOpsApp,
  type FetchApp,
  type HttpServer,
  serveHttp,
} from "@openkyt/http";
import { parseApiKeysEnv, provisionEnvKeys } from "./api-keys-env.js";
import { bindingOption, CHAIN_OPTIONS, CHAIN_USAGE, liveChainSource } from "./chain-setup.js";
import {
  METRICS_OPTIONS,
  metricsAddressOption,
  type ParsedArgs,
  parseCommandArgs,
  portOption,
  secondsOption,
  stringOption,
} from "./cli-args.js";
import { type CliCommand, EXIT, UsageError } from "./cli-command.js";
import { consoleAssetsDir } from "./console-dir.js";
import { describeDbTarget, openStore, resolveDbTarget } from "./db-target.js";
import {
  createCliEngine,
  HUB_CACHE_OPTION,
  HUB_CACHE_USAGE,
  hubCacheOption,
  lazyPdfRenderer,
  PLAIN_SECRETS_WARNING,
  screeningSources,
  screeningThreadsOption,
} from "./engine-setup.js";
import {
  checkLedgerWithWarm,
  LEDGER_OPTION,
  LEDGER_USAGE,
  resolveLedgerTarget,
  withLedgerTarget,
} from "./ledger-target.js";
import { startProcessOps } from "./ops-setup.js";
import { readReportsConfig } from "./reports-config.js";

const OPTIONS = {
  db: { type: "string" },
  ...LEDGER_OPTION,
  port: { type: "string", short: "p" },
  host: { type: "string" },
  "no-workers": { type: "boolean" },
  "log-level": { type: "string" },
  warm: { type: "boolean" },
  "screening-threads": { type: "string" },
  "max-connections": { type: "string" },
  "max-connections-per-address": { type: "string" },
  "failed-auth-limit": { type: "string" },
  "no-console": { type: "boolean" },
  "reports-config": { type: "string" },
  "drain-seconds": { type: "string" },
  ...CHAIN_OPTIONS,
  ...HUB_CACHE_OPTION,
  ...METRICS_OPTIONS,
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

/**
 * Where the console is and who can sign in: the count of users, or, in a database with none
 * yet, how to make the first (so a database that has users, the demo's, is not told to make some).
 */
async function consoleUsersLine(store: Store, url: string): Promise<string> {
  const users = await store.countActiveUsers();
  if (users > 0) return `console at ${url} (${users} user${users === 1 ? "" : "s"} can sign in)\n`;
  return `console at ${url} (no users yet: openkyt users create --account NAME --email ADDRESS --role admin)\n`;
}

/** The serve command. */
export const serveCommand: CliCommand = {
  name: "serve",
  summary: "serve the KYT interface over HTTP (and run the job runner)",
  usage: `usage: openkyt serve [--db FILE|postgres://URL] [--port 8080] [--host 127.0.0.1] [--no-workers] [--warm] [--screening-threads N] [--log-level info]
                     [--max-connections N] [--max-connections-per-address N] [--failed-auth-limit N] [--no-console] [--json]
                     [--reports-config FILE] [--hub-cache-mb N]
                     [--metrics-host 127.0.0.1 --metrics-port N] [--drain-seconds 0]
                     [--chain NETWORK=URL ...] [--confirmations 1] [--bind-poll-ms 15000]

  --db          SQLite file (migrated on start) or postgres:// URL; default $OPENKYT_DB, then ./openkyt.db
${LEDGER_USAGE}
  --port        port to listen on (0: any free port); default 8080
  --host        interface to bind; default 127.0.0.1
  --no-workers  do not run the job runner here (run \`openkyt worker\` elsewhere)
  --warm        screen from memory: load the ledger into memory (SQLite or Postgres; about 0.5 GB
                per million transfers) and cache labels, sanctions, tokens and prices; rows
                imported meanwhile are traced within 1 s, reference data within 30 s
  --screening-threads  with --warm: threads that run the checks' traces over one shared copy of
                the ledger while this thread serves the API and the store; default: one fewer
                than the cores this process may use (0 on one core); 0: trace on this thread
                (docs/deployment.md)
  --no-console  do not serve the analyst console at /console/ nor accept console sign-ins
                (signed requests only); users are made with \`openkyt users create\`
  --reports-config  JSON file of report settings: block explorer URL templates per network and
                the goAML profile of your FIU (docs/reports.md); default built-in explorers, no goAML
  --log-level   pino level of the request log on stderr; default info
  --max-connections  most open connections in all (0: no cap); default $OPENKYT_MAX_CONNECTIONS,
                then 1,000 (less when the open-file limit is low)
  --max-connections-per-address  most open connections from one address (an IPv6 /64; 0: no cap);
                default $OPENKYT_MAX_CONNECTIONS_PER_ADDRESS, then 100. Behind a proxy, raise it or set 0
  --failed-auth-limit  failed authentications per second per address and per key, bursts of twice
                that, then 429 (0: no budget); default $OPENKYT_FAILED_AUTH_LIMIT, then 10. Behind a
                proxy every client has its address: raise it or set 0
  --metrics-port  serve /metrics (and /readyz, /healthz) on a port of its own instead of --port,
                so it need not face the public (0: any free port); default: /metrics on --port
  --metrics-host  interface of --metrics-port; default 127.0.0.1
  --drain-seconds  on SIGTERM, answer /readyz 503 this long before refusing connections, so a
                load balancer stops sending first; default 0 (see docs/operations.md)
${HUB_CACHE_USAGE}
${CHAIN_USAGE}

  environment: OPENKYT_API_KEYS="id:secret:account,..." provisions keys at start;
               OPENKYT_VAULT_KEY (32+ characters) encrypts API secrets at rest.
               OPENKYT_CONSOLE_DIR serves another build of the console (a folder with index.html);
               OPENKYT_SECURE_COOKIE=1 marks the console's session cookie Secure behind a TLS proxy.`,
  async run(argv, io) {
    const args = parseCommandArgs(argv, OPTIONS);
    const port = portOption(args, "port", 8080);
    const host = stringOption(args, "host") ?? "127.0.0.1";
    const workers = args.values["no-workers"] !== true;
    const reports = readReportsConfig(stringOption(args, "reports-config"));
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
    const warm = args.values.warm === true;
    const screeningThreads = screeningThreadsOption(args, warm);
    const hubCache = hubCacheOption(args, io.env);
    const ledger = resolveLedgerTarget(stringOption(args, "ledger"), io.env);
    checkLedgerWithWarm(ledger, warm);
    const drainSeconds = secondsOption(args, "drain-seconds", 0);
    const ops = await startProcessOps(
      warm ? ["store", "warm_sources", "engine"] : ["store", "engine"],
      metricsAddressOption(args),
      io.env,
    );
    let server: HttpServer | null = null;
    try {
      // Listen before the store opens and the ledger loads: meanwhile only the operations routes answer.
      let app: FetchApp = createOpsApp({ ...ops.mainRoutes, starting: true });
      server = await serveHttp(
        { fetch: (request, env) => app.fetch(request, env) },
        {
          host,
          port,
          logger,
          ...(maxConnections === undefined ? {} : { maxConnections }),
          ...(maxConnectionsPerAddress === undefined ? {} : { maxConnectionsPerAddress }),
        },
      );
      const store = ops.countStore(
        await withLedgerTarget(await openStore(target, { migrateSqlite: true }), ledger),
      );
      ops.readiness.done("store");
      const renderer = lazyPdfRenderer();
      try {
        const warmSources = await screeningSources(warm, store, io.stderr, screeningThreads, hubCache);
        if (warm) ops.readiness.done("warm_sources");
        const live = await liveChainSource(args, io.env, store, logger, warmSources.chainSource);
        const engine = createCliEngine(
          store,
          io.env,
          logger,
          // --no-workers: the jobs run in `openkyt worker` processes, so ?wait= polls the store.
          {
            ...warmSources,
            ...ops.engineTracing,
            ...(workers ? {} : { jobs: { runsElsewhere: true } }),
            ...(live ? { chainSource: live.chainSource } : {}),
            ...bindingOption(args),
          },
          renderer,
        );
        if (live) io.stderr(`live chain sources: ${live.described}\n`);
        ops.watch(engine, warmSources);
        if (!engine.apiKeys.encryptsSecrets) io.stderr(PLAIN_SECRETS_WARNING);
        await provisionEnvKeys(engine, envKeys);
        const failedAuth =
          failedAuthLimit === undefined
            ? {}
            : {
                failedAuth:
                  failedAuthLimit === 0 ? null : { perSecond: failedAuthLimit, burst: 2 * failedAuthLimit },
              };
        const consoleDir = args.values["no-console"] === true ? null : consoleAssetsDir(io.env);
        if (args.values["no-console"] !== true && consoleDir === null) {
          io.stderr("the console is not built (npm run build): serving without /console/\n");
        }
        // Behind a proxy that ends TLS the request arrives over http: OPENKYT_SECURE_COOKIE=1 marks the cookie Secure.
        const secureCookie = io.env.OPENKYT_SECURE_COOKIE === "1" ? true : ("auto" as const);
        const consoleOption =
          args.values["no-console"] === true ? null : { assetsDir: consoleDir, secureCookie };
        app = createHttpApp({
          engine,
          logger,
          limits: failedAuth,
          console: consoleOption,
          reports,
          ops: ops.mainRoutes,
        });
        if (workers) engine.start();
        ops.readiness.done("engine");
        // Listen for signals before telling anyone where we listen: a supervisor may stop us at once.
        const stopped = io.untilSignal();
        const db = describeDbTarget(target);
        const metrics = `${ops.server?.url ?? server.url}/metrics`;
        const consoleLine = consoleDir ? await consoleUsersLine(store, `${server.url}/console/`) : "";
        io.stdout(
          args.values.json
            ? `${JSON.stringify({ url: server.url, host: server.host, port: server.port, db, workers, console: consoleDir ? `${server.url}/console/` : null, metrics })}\n`
            : `openkyt serving the KYT interface at ${server.url} (db ${db}, workers ${workers ? "on" : "off"}, metrics ${metrics})\n${consoleLine}`,
        );
        const signal = await stopped;
        io.stderr(`${signal}: shutting down\n`);
        ops.readiness.drain();
        if (drainSeconds > 0) await sleep(drainSeconds * 1000);
        await server.close();
        await engine.stop();
        await warmSources.traceExecutor?.close();
        return EXIT.OK;
      } finally {
        await renderer.close();
        await store.close();
      }
    } finally {
      await server?.close();
      await ops.close();
      logger.flush();
    }
  },
};
