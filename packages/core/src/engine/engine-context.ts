/**
 * What every use case and job handler shares: the collaborators `createEngine` built, frozen.
 * Internal to the engine.
 */
import type { JobOrigin, RiskModel } from "../domain/records.js";
import type { EntityResolver } from "../exposure/index.js";
import type { ChainSource } from "../ports/chain-source.js";
import type { LedgerReader } from "../ports/ledger-reader.js";
import type { PriceSource, SanctionsSource, TokenCatalog } from "../ports/reference-sources.js";
import type { ReportRenderer } from "../ports/report-renderer.js";
import type { Clock, IdGenerator, Logger, Timer } from "../ports/runtime.js";
import type { Store } from "../ports/store.js";
import type { TraceExecutor } from "../ports/trace-executor.js";
import type { UtxoLedgerReader } from "../ports/utxo-ledger.js";
import type { WebhookTargetPolicy } from "../ports/webhook-transport.js";
import type { BindingConfig, JobsConfig, TracingConfig } from "./engine-config.js";
import type { EngineEventEmitter } from "./engine-events.js";
import type { SecretVault } from "./secrets/secret-vault.js";
import type { RegistrationBatcher } from "./use-cases/transfer-registration.js";

/** The engine's collaborators and settings. */
export interface EngineContext {
  readonly store: Store;
  readonly chain: ChainSource;
  readonly ledger: LedgerReader;
  /** The UTXO ledger (BTC, LTC). */
  readonly utxoLedger: UtxoLedgerReader;
  readonly resolver: EntityResolver;
  /** Runs the account-chain (non-UTXO) exposure traces of the checks; default inline over `ledger` and `resolver`. */
  readonly traces: TraceExecutor;
  readonly sanctions: SanctionsSource;
  readonly prices: PriceSource;
  readonly tokens: TokenCatalog;
  readonly renderer: ReportRenderer | null;
  readonly defaultModel: RiskModel;
  readonly clock: Clock;
  /** Real elapsed time for waits (`?wait=`, polling). */
  readonly timer: Timer;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  readonly tracing: TracingConfig;
  readonly binding: BindingConfig;
  readonly jobs: JobsConfig;
  readonly events: EngineEventEmitter;
  /** Seals and opens API and webhook secrets. */
  readonly vault: SecretVault;
  /** Where webhooks may be delivered (checked when one is created, and by the sender). */
  readonly webhookTargets: WebhookTargetPolicy;
  /** False when the engine has no webhook transport (creating a webhook is then refused). */
  readonly webhooksDeliverable: boolean;
  /** Single registrations coalesced into batches written together. */
  readonly registrations: RegistrationBatcher;
  /** Tells the in-process runner that new jobs are due. */
  readonly wake: () => void;
  /** Whether this engine's job runner is started (`start()` called, `stop()` not since). */
  readonly runnerStarted: () => boolean;
  /** The request the current operation serves: the jobs it enqueues keep it (job-origin.ts). */
  readonly origin?: JobOrigin;
}
