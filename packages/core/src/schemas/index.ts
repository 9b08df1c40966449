/**
 * The wire layer of @openkyt/core: request and query schemas with `parseInput`, response
 * schemas (which also feed the OpenAPI document), and the presenters from records to wire objects.
 */
export * from "./date-filters.js";
export * from "./network-fields.js";
export * from "./parse-input.js";
export * from "./queries.js";
export * from "./query-fields.js";
export * from "./requests.js";
export * from "./requests-manual-checks.js";
export * from "./wire-fields.js";
