/**
 * @openkyt/metrics: Prometheus metrics of an OpenKYT process (prom-client). `createMetrics()`
 * defines them; `watchEngine`, `storeGauges`, `warmLedgerGauges`, `followMetrics` and `httpRequestCounter` feed
 * them; `exposition` renders them in the text format. See docs/operations.md.
 */
export { laneOf, type WatchEngineOptions, watchEngine } from "./metrics-engine.js";
export { type Exposition, exposition } from "./metrics-exposition.js";
export { type FollowObserver, followMetrics } from "./metrics-follow.js";
export { httpRequestCounter, type ObservedHttpRequest } from "./metrics-http.js";
export { createMetrics, type MetricsOptions, type OpenKytMetrics } from "./metrics-registry.js";
export { countStoreErrors, type StoreGaugesOptions, storeGauges } from "./metrics-store.js";
export { warmLedgerGauges } from "./metrics-warm.js";
