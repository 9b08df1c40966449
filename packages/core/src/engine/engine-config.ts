/**
 * The one configuration object of `createEngine`. Everything with a side effect is injected;
 * what is left out gets a documented default.
 */
import type {
  AttributionSource,
  ChainSource,
  Clock,
  IdGenerator,
  LedgerReader,
  Logger,
  PriceSource,
  ReportRenderer,
  RiskModel,
  SanctionsSource,
  Store,
  TokenCatalog,
} from "../index.js";
import type { WebhookSender } from "./webhook-delivery.js";
import type { HostLookup } from "./webhook-targets.js";

/** Tracing limits (see docs/risk-model.md). */
export interface TracingConfig {
  /** Deepest hop traced; default 5. */
  readonly maxHops: number;
  /** Edges read per trace before the rest counts as undefined; default 10,000. */
  readonly edgeBudget: number;
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
  /** Jobs claimed and run at once; default 16. */
  readonly concurrency: number;
  /** Longest sleep between polls of the store for due jobs; default 250 ms. */
  readonly pollIntervalMs: number;
  /** Failed runs before a job gives up (its check ends in error); default 5. */
  readonly maxAttempts: number;
  /** First retry delay, doubled per failure; default 1 s. */
  readonly backoffBaseMs: number;
  /** Longest retry delay; default 5 minutes. */
  readonly backoffMaxMs: number;
  /** Lease owner name of this process; default a random id. */
  readonly workerId: string;
}

/** Webhook delivery. */
export interface WebhooksConfig {
  /**
   * Sends the POSTs; default (null): the Node sender (`createNodeWebhookSender`), which connects
   * only to targets the policy below allows.
   */
  readonly sender: WebhookSender | null;
  /**
   * Allow targets in loopback, private, link-local and other refused ranges (tests and internal
   * deployments; the CLI sets it from `OPENKYT_WEBHOOKS_ALLOW_PRIVATE=1`). Default false.
   */
  readonly allowPrivateTargets: boolean;
  /** Exact addresses allowed although their range is refused; default none. */
  readonly allowedTargetAddresses: ReadonlyArray<string>;
  /** Resolves webhook host names (at creation and at each delivery); default: the system resolver. */
  readonly lookup: HostLookup;
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
  readonly attributions?: AttributionSource;
  readonly sanctions?: SanctionsSource;
  readonly prices?: PriceSource;
  readonly tokens?: TokenCatalog;
  readonly reportRenderer?: ReportRenderer;
  /** The model used when a request names none; default: the built-in default model. */
  readonly defaultRiskModel?: RiskModel;
  readonly clock?: Clock;
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
}
