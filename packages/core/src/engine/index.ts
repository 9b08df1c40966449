export { type BulkChangeResult, MIN_SEARCH_LENGTH } from "./casework/alert-queue.js";
export { type AuditEntry, presentAuditEvent } from "./casework/audit-log.js";
export type { CaseworkApi } from "./casework/casework-api.js";
export * from "./create-engine.js";
export type * from "./engine-config.js";
export type {
  EngineEventEmitter,
  EngineEventName,
  EngineEvents,
  JobLane,
  JobSettlement,
} from "./engine-events.js";
export { matchChainTransfer } from "./jobs/bind-job.js";
export { checkOrigin, jobOrigin } from "./jobs/job-origin.js";
export { backoffDelay, type JobHandler, type JobOutcome, type JobRunner } from "./jobs/job-runner.js";
export { NO_WEBHOOK_TRANSPORT, webhookSignature } from "./jobs/webhook-delivery.js";
export { createWorkSlicer, WORK_SLICE_MS, type WorkSlicer } from "./jobs/work-slices.js";
export { type SealOutcome, sealStoredSecrets } from "./secrets/secret-sealing.js";
export { createSecretVault, SEAL_COMMAND, type SecretVault } from "./secrets/secret-vault.js";
export {
  CLUSTER_CACHE_DEFAULTS,
  type ClusterCacheOptions,
  cachingClusterReader,
  type UtxoClusterReader,
} from "./sources/cached-clusters.js";
export {
  type Clearable,
  cachingAttributionSource,
  cachingPriceSource,
  cachingSanctionsSource,
  cachingTokenCatalog,
  SOURCE_CACHE_DEFAULTS,
  type SourceCacheOptions,
} from "./sources/cached-sources.js";
export {
  type ColdSources,
  type ColdSourcesOptions,
  createColdSources,
} from "./sources/cold-sources.js";
export {
  createHubCachedLedger,
  HUB_CACHE_BYTES_PER_ROW,
  HUB_CACHE_DEFAULTS,
  type HubCachedLedger,
  type HubCacheOptions,
} from "./sources/hub-cached-ledger.js";
export { lastLedgerPosition, ledgerTail } from "./sources/ledger-tail.js";
export type { ReferenceData } from "./sources/reference-data.js";
export * from "./sources/store-clustering.js";
export * from "./sources/store-sources.js";
export {
  createWarmLedger,
  WARM_LEDGER_DEFAULTS,
  type WarmLedger,
  type WarmLedgerOptions,
} from "./sources/warm-ledger.js";
export { createWarmSources, type WarmSources, type WarmSourcesOptions } from "./sources/warm-sources.js";
export {
  createWarmUtxoLedger,
  WARM_UTXO_DEFAULTS,
  type WarmUtxoLedger,
  warmUtxoChainSource,
} from "./sources/warm-utxo-ledger.js";
export {
  sameScannedRows,
  WHOLE_REFERENCE_DEFAULTS,
  type WholeReferenceOptions,
  type WholeSourceState,
  wholeAttributionSource,
  wholeSanctionsSource,
} from "./sources/whole-reference.js";
export type { AccountApi } from "./use-cases/account-api.js";
export { type AlertExportRow, MAX_EXPORT_ALERTS } from "./use-cases/alert-export.js";
export type { Actor } from "./use-cases/alert-workflow.js";
export {
  API_KEY_NAME_MAX,
  type ApiKeyInfo,
  type ApiKeyService,
  type CreatedApiKey,
  randomToken,
} from "./use-cases/api-keys.js";
export { BACKTEST_PAGE_SIZE, type BacktestProgress, type BacktestRunOptions } from "./use-cases/backtest.js";
export { BACKTESTS_PENDING_PER_ACCOUNT } from "./use-cases/backtest-runs.js";
export type { CallOptions } from "./use-cases/call-origin.js";
export { decisionOf } from "./use-cases/case-file.js";
export { type PathSubject, pathAddresses, pathSanctions } from "./use-cases/path-sanctions.js";
export type { RenderedReport } from "./use-cases/report-assembly.js";
export { type BatchRegistration, MAX_BATCH_REGISTRATIONS } from "./use-cases/transfer-registration.js";
export { MAX_WAIT_SECONDS, type WaitOptions } from "./use-cases/wait-for-result.js";
export {
  createWebhookTargetPolicy,
  refusedAddressRange,
  TARGET_REFUSED,
  type WebhookTargetPolicyOptions,
} from "./webhooks/webhook-targets.js";
