export type { AccountApi } from "./account-api.js";
export { matchChainTransfer } from "./bind-job.js";
export * from "./create-engine.js";
export type * from "./engine-config.js";
export type { EngineEvents } from "./engine-events.js";
export { backoffDelay, type JobHandler, type JobOutcome, type JobRunner } from "./job-runner.js";
export type { ReferenceData } from "./reference-data.js";
export * from "./store-sources.js";
