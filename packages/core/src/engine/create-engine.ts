/**
 * `createEngine(config)`: the single composition root. It builds every collaborator from the
 * config object (defaults for what is left out), wires the job handlers and returns a frozen
 * engine. No container, no singletons.
 */
import type { JobKind, JobOrigin, JobRecord } from "../domain/records.js";
import { fieldError, KytError } from "../errors.js";
import {
  checkTraceLimits,
  clusterResolver,
  createEntityResolver,
  DEFAULT_EDGE_BUDGET,
  DEFAULT_MAX_HOPS,
  DEFAULT_MIN_PATH_WEIGHT,
  DEFAULT_UTXO_TAINT_RULE,
  isUtxoTaintRule,
  UTXO_TAINT_RULES,
} from "../exposure/index.js";
import { inlineTraceExecutor } from "../exposure/trace-requests.js";
import { type IdGenerator, silentLogger, systemClock, systemTimer, uuidGenerator } from "../ports/runtime.js";
import { DEFAULT_RISK_MODEL } from "../risk/index.js";
import type {
  BindingConfig,
  EngineConfig,
  JobsConfig,
  TracingConfig,
  WebhooksConfig,
} from "./engine-config.js";
import type { EngineContext } from "./engine-context.js";
import { createEngineEmitter } from "./engine-emitter.js";
import type { EngineEventEmitter, JobLane } from "./engine-events.js";
import { BACKTEST_KINDS, backtestRunner } from "./jobs/backtest-job.js";
import { bindJobHandler } from "./jobs/bind-job.js";
import { checkJobHandler } from "./jobs/check-job.js";
import { createJobRunner, type JobRunner } from "./jobs/job-runner.js";
import { jobWakeups } from "./jobs/job-wakeups.js";
import { manualCheckJobHandler } from "./jobs/manual-check-job.js";
import { webhookDeliveryHandler } from "./jobs/webhook-delivery.js";
import { createSecretVault } from "./secrets/secret-vault.js";
import { guardedChainSource } from "./sources/chain-guard.js";
import { type ReferenceData, referenceData } from "./sources/reference-data.js";
import {
  storeAttributionSource,
  storeChainSource,
  storePriceSource,
  storeSanctionsSource,
  storeTokenCatalog,
} from "./sources/store-sources.js";
import { type AccountApi, accountApi } from "./use-cases/account-api.js";
import { type ApiKeyService, apiKeyService } from "./use-cases/api-keys.js";
import { callContext } from "./use-cases/call-origin.js";
import { createRegistrationBatcher } from "./use-cases/transfer-registration.js";
import { createWebhookTargetPolicy } from "./webhooks/webhook-targets.js";

/** Default tracing limits. */
export const DEFAULT_TRACING: TracingConfig = Object.freeze({
  maxHops: DEFAULT_MAX_HOPS,
  edgeBudget: DEFAULT_EDGE_BUDGET,
  minPathWeight: DEFAULT_MIN_PATH_WEIGHT,
  utxoRule: DEFAULT_UTXO_TAINT_RULE,
});
/** Default binding window and poll interval. */
export const DEFAULT_BINDING: BindingConfig = Object.freeze({
  windowMs: 60 * 60 * 1000,
  pollMs: 15_000,
  lookupTimeoutMs: 30_000,
});

/** The job kinds of the checks lane. */
const CHECK_LANE: ReadonlyArray<JobKind> = Object.freeze([
  "transfer.bind",
  "transfer.check",
  "manual_check.run",
]);

/** The job kinds each runner (lane) of an engine claims. */
export const JOB_LANES: Readonly<Record<JobLane, ReadonlyArray<JobKind>>> = Object.freeze({
  checks: CHECK_LANE,
  webhooks: Object.freeze(["webhook.deliver"] as const),
});

/** Default webhook delivery settings. */
export const DEFAULT_WEBHOOKS: WebhooksConfig = Object.freeze({
  transport: null,
  sender: null,
  allowPrivateTargets: false,
  allowedTargetAddresses: [],
  lookup: null,
  pauseAfterFailures: 20,
  timeoutMs: 5_000,
  maxAttempts: 8,
  backoffBaseMs: 2_000,
  backoffMaxMs: 60 * 60_000,
  concurrency: 8,
});

/** Default job settings (the worker id is a fresh id of `ids` per engine). */
export function defaultJobsConfig(ids: IdGenerator = uuidGenerator): JobsConfig {
  return Object.freeze({
    leaseMs: 60_000,
    concurrency: 64,
    pollIntervalMs: 250,
    maxAttempts: 5,
    backoffBaseMs: 1_000,
    backoffMaxMs: 5 * 60_000,
    workerId: `worker-${ids.next()}`,
    runsElsewhere: false,
  });
}

/** Options of {@link Engine.forAccount}. */
export interface AccountOptions {
  readonly origin?: JobOrigin;
}

/** A screening engine. */
export interface Engine {
  /** The engine's typed events. */
  readonly events: EngineEventEmitter;
  /** The store it was given (the caller owns and closes it). */
  readonly store: EngineConfig["store"];
  /** Loading of ledger, attributions, sanctions, tokens and prices. */
  readonly reference: ReferenceData;
  /** API keys of accounts (the HTTP adapter's authentication). */
  readonly apiKeys: ApiKeyService;
  /**
   * Every operation of the interface for one account. With `origin` (the request being served:
   * its request id, its span as a `traceparent`), the jobs these operations enqueue carry it
   * (job-origin.ts); VALIDATION_ERROR when it is malformed. A server serving many requests
   * builds an account's operations once and gives the origin with each call that enqueues work
   * instead (`{ origin }`, which wins over this one; use-cases/call-origin.ts).
   */
  forAccount(accountId: string, options?: AccountOptions): AccountApi;
  /**
   * Starts the job runners in the background (binding, checks and manual checks in one lane,
   * webhook deliveries in another): they poll the store and are woken at once by work this
   * process enqueues, and by work other processes enqueue when the store has a job watch
   * (`Store.watchJobs`, Postgres; `jobs.watch`). Idempotent. While started, the process stays
   * alive until `stop()`, which closes the watch.
   */
  start(): void;
  /**
   * Stops polling and resolves once the jobs in hand have finished and been recorded; it starts
   * no further jobs (those still due stay in the store, durable, for the next `start()` or
   * `drain()`). It does not close the store: the caller does that after `stop()` (and after any
   * `drain()` still running). Idempotent; the engine can be started again.
   */
  stop(): Promise<void>;
  /**
   * Resolves when everything due is done: runs due jobs, waits for the jobs a started engine
   * has in hand, and goes on with the jobs they enqueue (a bind enqueues checks, a check
   * enqueues webhook deliveries) until none is due and none is running in this process. The
   * same whether or not `start()` is running. Not waited for: jobs scheduled for later (a hash
   * not mined yet waits `binding.pollMs`, a failure waits its backoff) and jobs leased by other
   * processes on a shared store. For batch programs and tests.
   */
  drain(): Promise<void>;
}

/** Builds an engine from its configuration. */
export function createEngine(config: EngineConfig): Engine {
  if (!config?.store) throw new KytError("NOT_CONFIGURED", "createEngine needs a store");
  const store = config.store;
  const sanctions = config.sanctions ?? storeSanctionsSource(store);
  const attributions = config.attributions ?? storeAttributionSource(store);
  const events = createEngineEmitter();
  let runners: JobRunner[] = [];
  let started = false;
  const vault = createSecretVault(config.apiKeyVaultKey);
  const binding = Object.freeze({ ...DEFAULT_BINDING, ...config.binding });
  const webhooks = { ...DEFAULT_WEBHOOKS, ...config.webhooks };
  if (!Number.isInteger(webhooks.pauseAfterFailures) || webhooks.pauseAfterFailures < 1)
    throw new KytError("VALIDATION_ERROR", "webhooks.pauseAfterFailures must be an integer of at least 1");
  const webhookTargets = createWebhookTargetPolicy({
    allowPrivate: webhooks.allowPrivateTargets,
    allowedAddresses: webhooks.allowedTargetAddresses,
    lookup: webhooks.lookup ?? webhooks.transport?.lookup ?? null,
    lookupTimeoutMs: webhooks.timeoutMs,
  });
  const webhookSender = webhooks.sender ?? webhooks.transport?.createSender(webhookTargets) ?? null;
  const ids = config.ids ?? uuidGenerator;
  const tracing: TracingConfig = Object.freeze({ ...DEFAULT_TRACING, ...config.tracing });
  checkTraceLimits(tracing.maxHops, tracing.edgeBudget, tracing.minPathWeight);
  if (!isUtxoTaintRule(tracing.utxoRule)) {
    throw fieldError("tracing.utxoRule", `must be one of ${UTXO_TAINT_RULES.join(", ")}`);
  }
  const clustering = config.clustering ?? true;
  const resolver = createEntityResolver({ attributions, sanctions });
  const tracingResolver = clustering ? clusterResolver(resolver, config.clusters ?? store) : resolver;
  const ctx: EngineContext = Object.freeze({
    store,
    chain: guardedChainSource(
      config.chainSource ?? storeChainSource(store),
      binding.lookupTimeoutMs,
      (info) => events.emit("chain.looked_up", info),
      config.tracer,
    ),
    ledger: config.ledger ?? store,
    utxoLedger: config.utxoLedger ?? store,
    resolver: tracingResolver,
    traces:
      config.traceExecutor ??
      inlineTraceExecutor({ ledger: config.ledger ?? store, resolver: tracingResolver }),
    sanctions,
    prices: config.prices ?? storePriceSource(store),
    tokens: config.tokens ?? storeTokenCatalog(store),
    renderer: config.reportRenderer ?? null,
    defaultModel: config.defaultRiskModel ?? DEFAULT_RISK_MODEL,
    clock: config.clock ?? systemClock,
    timer: config.timer ?? systemTimer,
    ids,
    logger: config.logger ?? silentLogger,
    tracing,
    binding,
    jobs: Object.freeze({ ...defaultJobsConfig(ids), ...config.jobs }),
    events,
    vault,
    webhookTargets,
    webhooksDeliverable: webhookSender !== null,
    registrations: createRegistrationBatcher(() => ctx),
    wake: () => {
      for (const r of runners) r.wake();
    },
    runnerStarted: () => started,
  });
  const onFailure = (job: JobRecord, reason: string, final: boolean) =>
    events.emit("job.failed", { jobId: job.id, kind: job.kind, subjectId: job.subjectId, reason, final });
  const checks = createJobRunner({
    store,
    clock: ctx.clock,
    timer: ctx.timer,
    logger: ctx.logger,
    config: ctx.jobs,
    kinds: JOB_LANES.checks,
    lane: "checks",
    events,
    ...(config.tracer ? { tracer: config.tracer } : {}),
    handlers: {
      "transfer.bind": bindJobHandler(ctx),
      "transfer.check": checkJobHandler(ctx),
      "manual_check.run": manualCheckJobHandler(ctx),
    },
    onFailure,
  });
  // Webhook deliveries run in a lane of their own: a dead endpoint never holds up a check.
  const deliveries = createJobRunner({
    store,
    clock: ctx.clock,
    timer: ctx.timer,
    logger: ctx.logger,
    config: Object.freeze({
      ...ctx.jobs,
      concurrency: webhooks.concurrency,
      maxAttempts: webhooks.maxAttempts,
      backoffBaseMs: webhooks.backoffBaseMs,
      backoffMaxMs: webhooks.backoffMaxMs,
    }),
    kinds: JOB_LANES.webhooks,
    lane: "webhooks",
    events,
    ...(config.tracer ? { tracer: config.tracer } : {}),
    handlers: {
      "webhook.deliver": webhookDeliveryHandler(ctx, {
        sender: webhookSender,
        vault,
        timeoutMs: webhooks.timeoutMs,
        pauseAfterFailures: webhooks.pauseAfterFailures,
      }),
    },
    onFailure,
  });
  // Backtests run one at a time in a runner of their own, with a long lease (backtest-job.ts).
  const backtests = backtestRunner(ctx, onFailure);
  runners = [checks, deliveries, backtests];
  const lanes: ReadonlyArray<readonly [JobRunner, ReadonlyArray<string>]> = [
    [checks, JOB_LANES.checks],
    [deliveries, JOB_LANES.webhooks],
    [backtests, BACKTEST_KINDS],
  ];
  // Enqueues by other processes wake the runners of their kinds too, when the store can tell (Postgres).
  const wakeups =
    ctx.jobs.watch === false
      ? null
      : jobWakeups(store, ctx.logger, (kinds) => {
          for (const [runner, lane] of lanes)
            if (kinds.length === 0 || kinds.some((kind) => lane.includes(kind))) runner.wake();
        });
  return Object.freeze({
    events,
    store,
    reference: referenceData(store, { clustering, resolver: ctx.resolver, logger: ctx.logger }),
    apiKeys: apiKeyService(store, vault, ctx.clock),
    forAccount: (accountId: string, options?: AccountOptions) =>
      accountApi(callContext(ctx, options), accountId),
    start: () => {
      started = true;
      wakeups?.start();
      checks.start();
      deliveries.start();
      backtests.start();
    },
    stop: async () => {
      started = false;
      await Promise.all([checks.stop(), deliveries.stop(), backtests.stop(), wakeups?.stop()]);
    },
    drain: async () => {
      // Checks enqueue deliveries and never the other way round: one pass of each suffices.
      await checks.drain();
      await deliveries.drain();
      await backtests.drain();
    },
  });
}
