export type { AccountApi } from "./account-api.js";
export type { Actor } from "./alert-workflow.js";
export { type ApiKeyInfo, type ApiKeyService, type CreatedApiKey, randomToken } from "./api-keys.js";
export { matchChainTransfer } from "./bind-job.js";
export {
  type Clearable,
  cachingAttributionSource,
  cachingPriceSource,
  cachingSanctionsSource,
  cachingTokenCatalog,
  SOURCE_CACHE_DEFAULTS,
  type SourceCacheOptions,
} from "./cached-sources.js";
export * from "./create-engine.js";
export type * from "./engine-config.js";
export type { EngineEvents } from "./engine-events.js";
export { backoffDelay, type JobHandler, type JobOutcome, type JobRunner } from "./job-runner.js";
export type { ReferenceData } from "./reference-data.js";
export type { RenderedReport } from "./report-assembly.js";
export { type SealOutcome, sealStoredSecrets } from "./secret-sealing.js";
export { createSecretVault, SEAL_COMMAND, type SecretVault } from "./secret-vault.js";
export * from "./store-sources.js";
export { type BatchRegistration, MAX_BATCH_REGISTRATIONS } from "./transfer-registration.js";
export { MAX_WAIT_SECONDS, type WaitOptions } from "./wait-for-result.js";
export {
  createWarmLedger,
  WARM_LEDGER_DEFAULTS,
  type WarmLedger,
  type WarmLedgerOptions,
} from "./warm-ledger.js";
export { createWarmSources, type WarmSources, type WarmSourcesOptions } from "./warm-sources.js";
export { type WebhookSender, type WebhookSendResult, webhookSignature } from "./webhook-delivery.js";
export { createNodeWebhookSender } from "./webhook-sender.js";
export {
  createWebhookTargetPolicy,
  type HostLookup,
  type ResolvedAddress,
  refusedAddressRange,
  systemHostLookup,
  TARGET_REFUSED,
  type TargetVerdict,
  type WebhookTargetPolicy,
  type WebhookTargetPolicyOptions,
} from "./webhook-targets.js";
