/**
 * `openkyt follow NETWORK`: a long-running process that keeps the ledger current with one
 * network's chain (core's chain follower over the family's block source): it writes only blocks
 * with enough confirmations, keeps its cursor in the store (so a restart, even after SIGKILL,
 * resumes with no gap and no duplicate), undoes the rows of blocks a reorganisation replaced,
 * and shows progress with an ETA while it backfills. Followers of several networks may share one
 * Postgres; two of the same network refuse each other's blocks (CONFLICT) and keep one chain.
 * With `--metrics-port` it serves /metrics, /healthz and /readyz, which is not ready while the
 * follower is more than `--max-lag-blocks` behind the node's head.
 */
import { createChainFollower, describeError, type FollowStep, storeTokenCatalog } from "@openkyt/core";
import { createHttpLogger } from "@openkyt/http";
import { followMetrics } from "@openkyt/metrics";
import { chainEndpoints, redactUrl } from "./chain-endpoints.js";
import { openBlockSource } from "./chain-families.js";
import {
  METRICS_OPTIONS,
  metricsAddressOption,
  parseCommandArgs,
  stringOption,
  wholeOption,
} from "./cli-args.js";
import { type CliCommand, EXIT, UsageError } from "./cli-command.js";
import { describeDbTarget, openStore, resolveDbTarget } from "./db-target.js";
import { followProgress } from "./follow-progress.js";
import { type ChangesUpkeep, startChangesUpkeep } from "./ledger-changes-upkeep.js";
import { LEDGER_OPTION, LEDGER_USAGE, resolveLedgerTarget, withLedgerTarget } from "./ledger-target.js";
import { startProcessOps } from "./ops-setup.js";

const OPTIONS = {
  rpc: { type: "string" },
  "from-block": { type: "string" },
  confirmations: { type: "string" },
  "batch-blocks": { type: "string" },
  "poll-ms": { type: "string" },
  "max-lag-blocks": { type: "string" },
  "progress-ms": { type: "string" },
  db: { type: "string" },
  ...LEDGER_OPTION,
  "changes-retention-days": { type: "string" },
  "log-level": { type: "string" },
  "no-clustering": { type: "boolean" },
  ...METRICS_OPTIONS,
} as const;

/** The follow command. */
export const followCommand: CliCommand = {
  name: "follow",
  summary: "keep the ledger current with a chain: write its final blocks' transfers as they come",
  usage: `usage: openkyt follow NETWORK --rpc URL [--from-block N] [--confirmations K] [--db FILE|postgres://URL]
                      [--batch-blocks 100] [--poll-ms 2000] [--max-lag-blocks 100] [--progress-ms 5000]
                      [--ledger clickhouse://... [--changes-retention-days 7]] [--log-level info]
                      [--no-clustering] [--json] [--metrics-host 127.0.0.1 --metrics-port N]

  NETWORK       the network to follow (ETH, BSC, POLYGON, ARB, OP, BASE, AVAX, ..., TRX, BTC, LTC)
  --rpc         the node's URL (EVM: JSON-RPC; TRX: a full node's HTTP API; BTC, LTC: Bitcoin Core
                JSON-RPC with -txindex, its main, test or regtest chain, user and password in the
                URL); default the NETWORK entry of $OPENKYT_CHAINS. Credentials in it are never printed
  --from-block  first block to write when the store has no cursor for NETWORK yet; default the
                last final block. With a cursor, the follower resumes after it
  --confirmations  confirmations a block needs before it is written (1: once mined); default 1
  --db          SQLite file (migrated on start) or postgres:// URL; default $OPENKYT_DB, then ./openkyt.db
${LEDGER_USAGE}
  --changes-retention-days  with --ledger clickhouse://: days of the ledger's change log kept (what
                workers' hub caches follow; one lagging longer reloads its hubs); the follower drops
                older days at start and every hour. Default 7, at least 1
  --batch-blocks  most blocks read and written per step (one store transaction); default 100
  --poll-ms     wait between polls once caught up (doubled per failure, up to 60 s); default 2000
  --max-lag-blocks  /readyz answers 503 (lagging) while the follower is more than this many
                blocks behind the node's head; default 100
  --progress-ms  backfill progress lines at most this often (0: every step); default 5000
  --no-clustering  BTC, LTC: do not merge address clusters (common-input ownership) as blocks are
                written; by default each step merges them in its own transaction, and a cluster
                holding two labelled entities is logged and counted (openkyt_follow_cluster_conflicts_total)
  --metrics-port  serve /metrics, /readyz and /healthz on this port (0: any free port); default: none
  --metrics-host  interface of --metrics-port; default 127.0.0.1

  SIGTERM or SIGINT: the step in hand lands whole (or not at all), then the process exits 0.`,
  async run(argv, io) {
    const args = parseCommandArgs(argv, OPTIONS, 1);
    const network = args.positionals[0]?.toUpperCase();
    if (network === undefined) throw new UsageError("name the NETWORK to follow");
    const url =
      stringOption(args, "rpc") ??
      chainEndpoints([], io.env.OPENKYT_CHAINS).find((e) => e.network === network)?.url;
    if (url === undefined) throw new UsageError(`--rpc URL is needed (or ${network}=URL in OPENKYT_CHAINS)`);
    const [endpoint] = chainEndpoints([`${network}=${url}`], undefined);
    if (!endpoint) throw new UsageError("--rpc URL is needed");
    const fromBlock =
      stringOption(args, "from-block") === undefined ? undefined : wholeOption(args, "from-block", 0);
    const confirmations = wholeOption(args, "confirmations", 1, 1);
    const batchBlocks = wholeOption(args, "batch-blocks", 100, 1);
    const pollMs = wholeOption(args, "poll-ms", 2_000);
    const maxLag = wholeOption(args, "max-lag-blocks", 100);
    const progressMs = wholeOption(args, "progress-ms", 5_000);
    const target = resolveDbTarget(stringOption(args, "db"), io.env);
    const ledger = resolveLedgerTarget(stringOption(args, "ledger"), io.env);
    const retentionDays = wholeOption(args, "changes-retention-days", 7, 1);
    const logger = createHttpLogger({ level: stringOption(args, "log-level") ?? "info" });
    let lag: number | null = null;
    const ops = await startProcessOps(["store", "source"], metricsAddressOption(args), io.env, {
      lagging: () =>
        lag === null
          ? "the follower has not read the node's head yet"
          : lag > maxLag
            ? `${lag} blocks behind the node's head (more than --max-lag-blocks ${maxLag})`
            : null,
    });
    try {
      const store = ops.countStore(
        await withLedgerTarget(await openStore(target, { migrateSqlite: true }), ledger),
      );
      ops.readiness.done("store");
      let upkeep: ChangesUpkeep | null = null;
      try {
        if (ledger !== null) upkeep = await startChangesUpkeep(ledger, { retentionDays, report: io.stderr });
        const source = await openBlockSource({
          ...endpoint,
          confirmations,
          logger,
          tokens: storeTokenCatalog(store),
          ledger: store,
        });
        ops.readiness.done("source");
        const observer = followMetrics(ops.metrics, network);
        ops.watchStore(store, observer.refresh);
        const progress = followProgress(network, io.stderr, { everyMs: progressMs });
        const follower = createChainFollower({
          store,
          source,
          confirmations,
          batchBlocks,
          pollMs,
          logger,
          clustering: args.values["no-clustering"] !== true,
          ...(fromBlock === undefined ? {} : { fromBlock }),
          onStep(step: FollowStep) {
            lag =
              step.kind === "blocks"
                ? Math.max(0, step.head - step.to)
                : step.kind === "idle"
                  ? Math.max(0, step.head - (step.cursor ?? step.head))
                  : lag;
            observer.step(step);
            progress(step);
          },
          onError(error) {
            observer.error(error);
            io.stderr(`${network}: step failed (retrying with backoff): ${describeError(error)}\n`);
          },
        });
        const stopped = io.untilSignal();
        const db = describeDbTarget(target);
        const node = redactUrl(endpoint.url);
        const metrics = ops.server ? `${ops.server.url}/metrics` : null;
        io.stdout(
          args.values.json
            ? `${JSON.stringify({ follow: network, node, db, confirmations, ...(metrics ? { metrics } : {}) })}\n`
            : `openkyt following ${network} at ${node} into ${db} (${confirmations} confirmation${confirmations === 1 ? "" : "s"}${metrics ? `, metrics ${metrics}` : ""})\n`,
        );
        follower.start();
        const signal = await stopped;
        io.stderr(`${signal}: finishing the step in hand\n`);
        ops.readiness.drain();
        await follower.stop();
        const cursor = await store.followedHead(network);
        io.stderr(`${network}: stopped at block ${cursor === null ? "(none)" : cursor.height}\n`);
        return EXIT.OK;
      } finally {
        await upkeep?.stop();
        await store.close();
      }
    } finally {
      await ops.close();
      logger.flush();
    }
  },
};
