/**
 * The wire layer of @openkyt/core: request and query schemas with `parseInput`, response
 * schemas (which also feed the OpenAPI document), and the presenters from records to wire objects.
 */
export * from "./backtest-schemas.js";
export * from "./casework-schemas.js";
export * from "./date-filters.js";
export * from "./entity-category-ids.js";
export * from "./network-fields.js";
export * from "./page.js";
export * from "./parse-input.js";
export * from "./presenters.js";
export * from "./presenters-alerts.js";
export * from "./presenters-exposure.js";
export * from "./presenters-reference.js";
export * from "./presenters-workflow.js";
export * from "./queries.js";
export * from "./queries-alerts.js";
export * from "./query-fields.js";
export * from "./query-filters.js";
export * from "./request-types.js";
export * from "./requests.js";
export * from "./requests-manual-checks.js";
export * from "./requests-workflow.js";
export * from "./response-fields.js";
export * from "./responses.js";
export * from "./responses-address.js";
export * from "./responses-alerts.js";
export * from "./responses-exposure.js";
export * from "./responses-reference.js";
export * from "./responses-workflow.js";
export * from "./team-settings-schemas.js";
export * from "./timestamps.js";
export * from "./wire-fields.js";
export * from "./wire-text.js";
