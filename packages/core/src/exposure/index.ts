/** Exposure tracing: the in-memory ledger index, entity resolution, transfer and address tracing, sanctions. */
export {
  type AddressExposureInput,
  type AddressSide,
  BEGINNING_OF_TIME,
  traceAddressExposure,
} from "./address-exposure.js";
export { CLUSTER_LABEL_LIMIT, clusterResolver } from "./cluster-resolver.js";
export {
  categoryRiskRank,
  createEntityResolver,
  type EntityResolver,
  type EntityResolverSources,
  type ResolvedEntity,
} from "./entity-resolver.js";
export { LEDGER_CHUNK_SIZE } from "./frontier-trace.js";
export { heldAttributionSource, heldSanctionsSource } from "./held-reference.js";
export { HubCache, type HubCacheStats, type HubDirection } from "./hub-cache.js";
export {
  type AdjacencyImage,
  IMAGE_STRIDE,
  type LedgerImage,
  LedgerImageBuilder,
  type TokenImage,
} from "./ledger-image.js";
export { LedgerImageReader } from "./ledger-image-reader.js";
export { compareLedgerTransfers, LedgerIndex } from "./ledger-index.js";
export { type LedgerPosition, mayFund, timePosition } from "./ledger-position.js";
export {
  compareListings,
  listingEntityName,
  listingOverlaps,
  sanctionsAsOf,
  type TimeSpan,
} from "./sanctions-as-of.js";
export {
  type BufferAllocator,
  buildSharedStrings,
  type SharedStrings,
  sharedAllocator,
  sharedStringAt,
  sharedStringIndex,
  sharedStringMatches,
} from "./shared-strings.js";
export { inlineTraceExecutor, runTraceRequest, type TraceSources } from "./trace-requests.js";
export {
  checkTraceLimits,
  DEFAULT_EDGE_BUDGET,
  DEFAULT_MAX_HOPS,
  DEFAULT_MIN_PATH_WEIGHT,
  type TraceLimits,
  type TransferExposureInput,
  traceLimitsOf,
  traceTransferExposure,
} from "./transfer-exposure.js";
export {
  type ClusterConflict,
  type ClusteringSummary,
  CONFLICT_MEMBER_LIMIT,
  clusterConflicts,
  clusterUtxoTransactions,
  commonInputGroups,
} from "./utxo-clustering.js";
export {
  traceUtxoAddressExposure,
  traceUtxoTransferExposure,
  type UtxoAddressExposureInput,
  type UtxoTransferExposureInput,
} from "./utxo-exposure.js";
export { UtxoIndex } from "./utxo-index.js";
export {
  backwardParts,
  DEFAULT_UTXO_TAINT_RULE,
  forwardParts,
  isUtxoTaintRule,
  type TaintPart,
  UTXO_TAINT_RULES,
  type UtxoTaintRule,
} from "./utxo-taint-rules.js";
export { MINING_CATEGORY, UTXO_CHUNK_SIZE } from "./utxo-trace.js";
export { addressComponents } from "./utxo-union-find.js";
