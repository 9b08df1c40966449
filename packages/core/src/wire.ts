/**
 * @openkyt/core/wire: the interface's tables for code that runs in a browser (the analyst
 * console). The enums, the record constants a client offers (webhook events and states, backtest
 * statuses), the state machines and the list envelope, from the modules that own them. Nothing
 * reachable from here imports zod, a `node:` builtin or the engine, so a bundle that imports
 * this entry carries these tables and nothing else.
 */

export * from "./domain/backtest-words.js";
export { BACKTEST_STATUSES, type BacktestStatus } from "./domain/backtests.js";
export { AUDIT_ACTIONS, type AuditAction } from "./domain/casework.js";
export * from "./domain/enums.js";
export * from "./domain/explorer-templates.js";
export * from "./domain/model-approval.js";
export {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_STATES,
  type WebhookEventType,
  type WebhookState,
} from "./domain/records.js";
export * from "./domain/risk-model-diff.js";
export * from "./machines/index.js";
export type { Page } from "./schemas/page.js";
