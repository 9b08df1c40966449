/**
 * The registry of one OpenKYT process and every metric it exposes, defined in one place so that
 * `openkyt serve` and `openkyt worker` expose the same names. Label values come from closed sets
 * (route templates, methods, job kinds, check kinds, outcomes, levels): never an id or an address.
 * What each metric means, and the alerts on it, are in docs/operations.md.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** Options of {@link createMetrics}. */
export interface MetricsOptions {
  /** Also collect the process metrics (CPU, memory, event loop lag, GC, handles); default true. */
  readonly processMetrics?: boolean;
}

/** Seconds buckets of the HTTP request latency. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds buckets of register -> checked (binding may wait for a block). */
const SCREENING_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600];
/** Seconds buckets of chain lookups and job batches. */
const WORK_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Every metric of a process (see docs/operations.md for what each means). */
export function createMetrics(options: MetricsOptions = {}) {
  const registry = new Registry();
  const registers = [registry];
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  return Object.freeze({
    registry,
    httpRequests: new Counter({
      name: "openkyt_http_requests_total",
      help: "HTTP requests answered, by route template, method and status.",
      labelNames: ["route", "method", "status"] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: "openkyt_http_request_duration_seconds",
      help: "Time from a request's arrival to its answer, by route template and method.",
      labelNames: ["route", "method"] as const,
      buckets: REQUEST_BUCKETS,
      registers,
    }),
    authRefusals: new Counter({
      name: "openkyt_http_auth_refusals_total",
      help: "Requests refused with 401, by reason.",
      labelNames: ["reason"] as const,
      registers,
    }),
    rateLimited: new Counter({
      name: "openkyt_http_rate_limited_total",
      help: "Requests refused by a limit: requests per key (429), failed authentications (429), replay guard full (503).",
      labelNames: ["limit"] as const,
      registers,
    }),
    jobsQueued: new Gauge({
      name: "openkyt_jobs_queued",
      help: "Jobs due and waiting for a worker, by lane and kind (the store's queue, every process).",
      labelNames: ["lane", "kind"] as const,
      registers,
    }),
    jobsScheduled: new Gauge({
      name: "openkyt_jobs_scheduled",
      help: "Jobs waiting for a later run (a retry's backoff, a hash asked again), by lane and kind.",
      labelNames: ["lane", "kind"] as const,
      registers,
    }),
    jobsLeased: new Gauge({
      name: "openkyt_jobs_leased",
      help: "Jobs held by a worker under a live lease (running in any process), by lane and kind.",
      labelNames: ["lane", "kind"] as const,
      registers,
    }),
    jobsOldestQueuedAge: new Gauge({
      name: "openkyt_jobs_oldest_queued_age_seconds",
      help: "How long the oldest due job has waited past its due time, by lane and kind (0: none waiting).",
      labelNames: ["lane", "kind"] as const,
      registers,
    }),
    jobsRunning: new Gauge({
      name: "openkyt_jobs_running",
      help: "Jobs this process has claimed and not settled yet, by lane and kind.",
      labelNames: ["lane", "kind"] as const,
      registers,
    }),
    jobsSettled: new Counter({
      name: "openkyt_jobs_settled_total",
      help: "Jobs this process settled, by lane, kind and outcome (done, later, retried, gave_up).",
      labelNames: ["lane", "kind", "outcome"] as const,
      registers,
    }),
    jobsFailed: new Counter({
      name: "openkyt_jobs_failed_total",
      help: "Job runs that failed, by lane and kind; final=true when the job gave up.",
      labelNames: ["lane", "kind", "final"] as const,
      registers,
    }),
    jobBatchDuration: new Histogram({
      name: "openkyt_job_batch_duration_seconds",
      help: "Time from claiming a batch of jobs to settling its last job, by lane.",
      labelNames: ["lane"] as const,
      buckets: WORK_BUCKETS,
      registers,
    }),
    screeningSeconds: new Histogram({
      name: "openkyt_transfer_register_to_checked_seconds",
      help: "Time from a transfer's registration to the end of its checks (binding included).",
      buckets: SCREENING_BUCKETS,
      registers,
    }),
    checks: new Counter({
      name: "openkyt_checks_total",
      help: "Transfer checks finished, by kind (exposure, counterparty, sanctions) and outcome (checked, error).",
      labelNames: ["kind", "outcome"] as const,
      registers,
    }),
    bindings: new Counter({
      name: "openkyt_bindings_total",
      help: "Bindings finished, by outcome (bound, not_found, error).",
      labelNames: ["outcome"] as const,
      registers,
    }),
    chainLookups: new Histogram({
      name: "openkyt_chain_lookup_duration_seconds",
      help: "Chain source lookups, by outcome (found, pending, not_found, failed, error).",
      labelNames: ["outcome"] as const,
      buckets: WORK_BUCKETS,
      registers,
    }),
    alerts: new Counter({
      name: "openkyt_alerts_created_total",
      help: "Alerts opened, by risk level.",
      labelNames: ["level"] as const,
      registers,
    }),
    webhookDeliveries: new Counter({
      name: "openkyt_webhook_deliveries_total",
      help: "Webhook delivery attempts, by outcome (delivered, failed).",
      labelNames: ["outcome"] as const,
      registers,
    }),
    webhookPauses: new Counter({
      name: "openkyt_webhook_pauses_total",
      help: "Webhooks paused by this process after too many consecutive failed deliveries.",
      registers,
    }),
    webhooksPaused: new Gauge({
      name: "openkyt_webhooks_paused",
      help: "Live webhooks in the paused state, every account (from the store).",
      registers,
    }),
    warmLedgerTransfers: new Gauge({
      name: "openkyt_warm_ledger_transfers",
      help: "Ledger transfers held in memory by the warm ledger (absent without --warm).",
      registers: [],
    }),
    warmLedgerLag: new Gauge({
      name: "openkyt_warm_ledger_lag_seconds",
      help: "Time since the warm ledger's last catch-up began: rows stored since are not in memory yet.",
      registers: [],
    }),
    followCursor: new Gauge({
      name: "openkyt_follow_cursor_block",
      help: "The last block a chain follower wrote into the ledger, by network (openkyt follow only).",
      labelNames: ["network"] as const,
      registers: [],
    }),
    followLagBlocks: new Gauge({
      name: "openkyt_follow_head_lag_blocks",
      help: "Blocks between the node's head and the follower's cursor, by network.",
      labelNames: ["network"] as const,
      registers: [],
    }),
    followLagSeconds: new Gauge({
      name: "openkyt_follow_head_lag_seconds",
      help: "Age of the follower's last written block (now minus its block time), by network.",
      labelNames: ["network"] as const,
      registers: [],
    }),
    followBlocks: new Counter({
      name: "openkyt_follow_blocks_total",
      help: "Blocks written into the ledger by the follower, by network.",
      labelNames: ["network"] as const,
      registers: [],
    }),
    followRows: new Counter({
      name: "openkyt_follow_rows_total",
      help: "Ledger rows written by the follower (its rate is rows/s), by network.",
      labelNames: ["network"] as const,
      registers: [],
    }),
    followReorgs: new Counter({
      name: "openkyt_follow_reorgs_total",
      help: "Reorganisations the follower undid, by network.",
      labelNames: ["network"] as const,
      registers: [],
    }),
    followSourceErrors: new Counter({
      name: "openkyt_follow_source_errors_total",
      help: "Follower steps that failed (node down, slow or answering nonsense; a store failure), by network.",
      labelNames: ["network"] as const,
      registers: [],
    }),
    followClusterConflicts: new Counter({
      name: "openkyt_follow_cluster_conflicts_total",
      help: "Address clusters found holding two or more labelled entities as the follower merged them (a conflict, never merged under one name), by network.",
      labelNames: ["network"] as const,
      registers: [],
    }),
    storeErrors: new Counter({
      name: "openkyt_store_errors_total",
      help: "Store calls that failed for a reason other than an expected outcome (conflict, not found), by operation.",
      labelNames: ["operation"] as const,
      registers,
    }),
    storeUp: new Gauge({
      name: "openkyt_store_up",
      help: "1 when the last read of the store's queue counts succeeded, else 0.",
      registers,
    }),
    ready: new Gauge({
      name: "openkyt_ready",
      help: "1 while the process is ready (what /readyz answers 200 for), else 0.",
      registers,
    }),
  });
}

/** The metrics of a process. */
export type OpenKytMetrics = ReturnType<typeof createMetrics>;
