/**
 * @openkyt/runtime-node: the Node.js side effects OpenKYT's core leaves to be injected. The
 * webhook transport (system DNS and a sender connected only to addresses the target policy
 * allowed), the worker-thread starter the PDF pool and the ledger parser use, and the screening
 * pool (exposure traces on worker threads over one shared copy of the ledger).
 */
export { type ModuleThreadOptions, startModuleThread } from "./module-thread.js";
export { createNodeWebhookSender, nodeWebhookTransport, systemHostLookup } from "./node-webhook-sender.js";
export {
  createPooledWarmSources,
  type PooledWarmSources,
  type PooledWarmSourcesOptions,
  poolWarmLedger,
} from "./pooled-warm-sources.js";
export {
  createScreeningPool,
  SCREENING_POOL_DEFAULTS,
  type ScreeningPool,
  type ScreeningPoolOptions,
  screeningThreadCount,
} from "./screening-pool.js";
export { existingDatabase, invocationDir, userPath } from "./user-paths.js";
