/**
 * The one configuration object of `createEngine`. Everything with a side effect is injected;
 * what is left out gets a documented default.
 */

import type { RiskModel } from "../domain/records.js";
import type { UtxoTaintRule } from "../exposure/utxo-taint-rules.js";
import type { ChainSource } from "../ports/chain-source.js";
import type { LedgerReader } from "../ports/ledger-reader.js";
import type {
  AttributionSource,
  PriceSource,
  SanctionsSource,
  TokenCatalog,
} from "../ports/reference-sources.js";
import type { ReportRenderer } from "../ports/report-renderer.js";
import type { Clock, IdGenerator, Logger, Timer } from "../ports/runtime.js";
import type { Store } from "../ports/store.js";
import type { TraceExecutor } from "../ports/trace-executor.js";
import type { Tracer } from "../ports/tracer.js";
import type { UtxoLedgerReader } from "../ports/utxo-ledger.js";
import type { HostLookup, WebhookSender, WebhookTransport } from "../ports/webhook-transport.js";
import type { UtxoClusterReader } from "./sources/cached-clusters.js";

/** Tracing limits (see docs/risk-model.md). */
export interface TracingConfig {
  /** Deepest hop traced; default 20. */
  readonly maxHops: number;
  /** Edges read per trace before the rest counts as undefined; default 10,000. */
  readonly edgeBudget: number;
  /** Weight below which a path is not followed (its weight counts as undefined); default 0.001. */
  readonly minPathWeight: number;
  /**
   * How taint moves through a UTXO transaction (BTC, LTC): `haircut` (every output carries the
   * inputs' composition pro rata; the default) or `fifo` (inputs and outputs in order). See
   * docs/risk-model.md, "Bitcoin".
   */
  readonly utxoRule: UtxoTaintRule;
}

/** How binding waits for a transaction. */
export interface BindingConfig {
  /** How long a hash the chain source does not know is retried before not_found; default 1 hour. */
  readonly windowMs: number;
  /** Delay between lookups of a hash not found yet; default 15 s. */
  readonly pollMs: number;
  /**
   * Longest a chain source lookup may take; past it the lookup counts as a failure of the job
   * (retried with backoff, then error). Default 30 s, below the jobs' lease.
   */
  readonly lookupTimeoutMs: number;
}

/** The durable job runner. */
export interface JobsConfig {
  /** Lease of a claimed job; a job whose worker died is claimed again after it. Default 60 s. */
  readonly leaseMs: number;
  /**
   * Most jobs a runner has in hand at once; default 64. Each claim takes everything due up to
   * the room left, as one batch (one transaction for its writes), and the runner claims again
   * while batches run, so a job never waits for a batch it is not part of.
   */
  readonly concurrency: number;
  /**
   * Longest sleep between polls of the store for due jobs; default 250 ms. Enqueues in this
   * process, and in others when the store's job watch runs (see `watch`), wake runners at once.
   */
  readonly pollIntervalMs: number;
  /**
   * Wake the runners of a started engine from the store's job watch when the store offers one
   * (`Store.watchJobs`: Postgres's LISTEN/NOTIFY, one connection per engine), so a job enqueued
   * by another process does not wait for a poll. Default true; false: poll only (for a
   * connection through a pooler that does not carry LISTEN, see docs/deployment.md).
   */
  readonly watch?: boolean;
  /** Failed runs before a job gives up (its check ends in error); default 5. */
  readonly maxAttempts: number;
  /** First retry delay, doubled per failure; default 1 s. */
  readonly backoffBaseMs: number;
  /** Longest retry delay; default 5 minutes. */
  readonly backoffMaxMs: number;
  /** Lease owner name of this process; default a random id. */
  readonly workerId: string;
  /**
   * True when the jobs run in other processes sharing the store (`openkyt worker`, `serve
   * --no-workers`), not in this engine's runner: a `{ wait }` then polls the store although this
   * engine was not started. Default false: a wait on an engine whose runner is not started fails
   * at once with RUNNER_NOT_STARTED, since nothing would finish within it.
   */
  readonly runsElsewhere?: boolean;
}

/** Webhook delivery. */
export interface WebhooksConfig {
  /**
   * Resolves and sends (`nodeWebhookTransport` of `@openkyt/runtime-node` on Node). Default
   * null: the engine then creates no webhook and a queued delivery fails, saying why.
   */
  readonly transport: WebhookTransport | null;
  /** Replaces the transport's sender (tests); default null. */
  readonly sender: WebhookSender | null;
  /**
   * Allow targets in loopback, private, link-local and other refused ranges (tests and internal
   * deployments; the CLI sets it from `OPENKYT_WEBHOOKS_ALLOW_PRIVATE=1`). Default false.
   */
  readonly allowPrivateTargets: boolean;
  /** Exact addresses allowed although their range is refused; default none. */
  readonly allowedTargetAddresses: ReadonlyArray<string>;
  /** Replaces the transport's resolver of webhook host names (tests); default null. */
  readonly lookup: HostLookup | null;
  /** Consecutive failed deliveries after which a webhook is paused; default 20. */
  readonly pauseAfterFailures: number;
  /** Time a receiver has to answer; default 5 s. */
  readonly timeoutMs: number;
  /** Attempts before an event is given up for a webhook; default 8. */
  readonly maxAttempts: number;
  /** First retry delay, doubled per failure; default 2 s. */
  readonly backoffBaseMs: number;
  /** Longest retry delay; default 1 hour. */
  readonly backoffMaxMs: number;
  /** Deliveries in flight at once (their own lane, apart from the checks); default 8. */
  readonly concurrency: number;
}

/** Everything `createEngine` accepts. Only `store` is required. */
export interface EngineConfig {
  readonly store: Store;
  /** Resolves transaction hashes; default: the ledger in the store. */
  readonly chainSource?: ChainSource;
  /** The transfer graph for tracing; default: the store. */
  readonly ledger?: LedgerReader;
  /**
   * Where the checks' exposure traces run (account chains; UTXO traces stay inline). Default:
   * inline, on this thread, over `ledger` and the attributions and sanctions. A screening pool
   * (`@openkyt/runtime-node`'s `createScreeningPool`) runs them on worker threads instead.
   */
  readonly traceExecutor?: TraceExecutor;
  /** The UTXO ledger (BTC, LTC) for binding and tracing; default: the store. */
  readonly utxoLedger?: UtxoLedgerReader;
  /**
   * Where tracing reads the address clusters of UTXO chains (with `clustering`); default: the
   * store. A warm process puts a cache in front (`cachingClusterReader`).
   */
  readonly clusters?: UtxoClusterReader;
  /**
   * Address clustering on UTXO chains (common-input ownership): labels extend to the clusters
   * the store keeps, and `reference.loadUtxoTransactions` merges the clusters of what it loads.
   * Default true; false traces and loads with address labels only.
   */
  readonly clustering?: boolean;
  readonly attributions?: AttributionSource;
  readonly sanctions?: SanctionsSource;
  readonly prices?: PriceSource;
  readonly tokens?: TokenCatalog;
  readonly reportRenderer?: ReportRenderer;
  /** The model used when a request names none; default: the built-in default model. */
  readonly defaultRiskModel?: RiskModel;
  readonly clock?: Clock;
  /** Real elapsed time for waits and polling; default `systemTimer`. */
  readonly timer?: Timer;
  readonly ids?: IdGenerator;
  readonly logger?: Logger;
  /**
   * Key that encrypts API secrets at rest (AES-256-GCM; at least 32 characters). Without it
   * secrets are stored as given.
   */
  readonly apiKeyVaultKey?: string;
  readonly tracing?: Partial<TracingConfig>;
  readonly binding?: Partial<BindingConfig>;
  readonly jobs?: Partial<JobsConfig>;
  readonly webhooks?: Partial<WebhooksConfig>;
  /** Spans around each job batch and chain lookup (see the Tracer port); default none. */
  readonly tracer?: Tracer;
}
