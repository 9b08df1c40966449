/**
 * `openkyt worker`: the job runner only (binding and checks), for deployments where HTTP nodes
 * run with `--no-workers`. Several workers may share one Postgres; SIGTERM stops it gracefully.
 * With `--metrics-port` it serves /metrics, /readyz and /healthz there (docs/operations.md).
 */
import { createHttpLogger } from "@openkyt/http";
import { bindingOption, CHAIN_OPTIONS, CHAIN_USAGE, liveChainSource } from "./chain-setup.js";
import { METRICS_OPTIONS, metricsAddressOption, parseCommandArgs, stringOption } from "./cli-args.js";
import { type CliCommand, EXIT } from "./cli-command.js";
import { describeDbTarget, openStore, resolveDbTarget } from "./db-target.js";
import {
  createCliEngine,
  HUB_CACHE_OPTION,
  HUB_CACHE_USAGE,
  hubCacheOption,
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

/** The worker command. */
export const workerCommand: CliCommand = {
  name: "worker",
  summary: "run the job runner only (binding and checks)",
  usage: `usage: openkyt worker [--db FILE|postgres://URL] [--warm] [--screening-threads N] [--hub-cache-mb N] [--log-level info] [--json]
                      [--metrics-host 127.0.0.1 --metrics-port N] [--chain NETWORK=URL ...] [--confirmations 1] [--bind-poll-ms 15000]

  --db         SQLite file (migrated on start) or postgres:// URL; default $OPENKYT_DB, then ./openkyt.db
${LEDGER_USAGE}
  --warm       screen from memory: the ledger loaded and followed (SQLite or Postgres), labels,
               sanctions, tokens and prices cached
  --screening-threads  with --warm: threads that run the checks' traces over one shared copy of
               the ledger; default: one fewer than the cores this process may use (0 on one
               core); 0: trace on this thread
  --log-level  pino level of the log on stderr; default info
  --metrics-port  serve /metrics, /readyz and /healthz on this port (0: any free port); default: none
  --metrics-host  interface of --metrics-port; default 127.0.0.1
${HUB_CACHE_USAGE}
${CHAIN_USAGE}

  A SQLite store is for one process: run a worker on it only when the server runs --no-workers.`,
  async run(argv, io) {
    const args = parseCommandArgs(argv, {
      db: { type: "string" },
      ...LEDGER_OPTION,
      "log-level": { type: "string" },
      warm: { type: "boolean" },
      "screening-threads": { type: "string" },
      ...CHAIN_OPTIONS,
      ...HUB_CACHE_OPTION,
      ...METRICS_OPTIONS,
    });
    const target = resolveDbTarget(stringOption(args, "db"), io.env);
    const logger = createHttpLogger({ level: stringOption(args, "log-level") ?? "info" });
    const warm = args.values.warm === true;
    const screeningThreads = screeningThreadsOption(args, warm);
    const hubCache = hubCacheOption(args, io.env);
    const ledger = resolveLedgerTarget(stringOption(args, "ledger"), io.env);
    checkLedgerWithWarm(ledger, warm);
    const ops = await startProcessOps(
      warm ? ["store", "warm_sources", "engine"] : ["store", "engine"],
      metricsAddressOption(args),
      io.env,
    );
    try {
      const store = ops.countStore(
        await withLedgerTarget(await openStore(target, { migrateSqlite: true }), ledger),
      );
      ops.readiness.done("store");
      try {
        const warmSources = await screeningSources(warm, store, io.stderr, screeningThreads, hubCache);
        if (warm) ops.readiness.done("warm_sources");
        const live = await liveChainSource(args, io.env, store, logger, warmSources.chainSource);
        const engine = createCliEngine(store, io.env, logger, {
          ...warmSources,
          ...ops.engineTracing,
          ...(live ? { chainSource: live.chainSource } : {}),
          ...bindingOption(args),
        });
        if (live) io.stderr(`live chain sources: ${live.described}\n`);
        ops.watch(engine, warmSources);
        engine.start();
        ops.readiness.done("engine");
        const stopped = io.untilSignal();
        const db = describeDbTarget(target);
        const metrics = ops.server ? `${ops.server.url}/metrics` : null;
        io.stdout(
          args.values.json
            ? `${JSON.stringify({ worker: "running", db, ...(metrics ? { metrics } : {}) })}\n`
            : `openkyt worker running (db ${db}${metrics ? `, metrics ${metrics}` : ""})\n`,
        );
        const signal = await stopped;
        io.stderr(`${signal}: finishing the jobs in hand\n`);
        ops.readiness.drain();
        await engine.stop();
        await warmSources.traceExecutor?.close();
        return EXIT.OK;
      } finally {
        await store.close();
      }
    } finally {
      await ops.close();
      logger.flush();
    }
  },
};
