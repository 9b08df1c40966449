/**
 * The interface's enums and the alert state machine, as the console offers them in its forms.
 * Copies of core's tables (the console bundles no server code); test/console-tables.test.ts
 * fails when they differ from @openkyt/core.
 */
import type { AlertStatus } from "./wire-types.js";

export const ALERT_STATUSES = ["open", "in_progress", "awaiting_response", "done"] as const;
export const RULE_RISK_LEVELS = ["low", "medium", "high", "severe"] as const;
export const RISK_TYPES = [
  "sender_entity",
  "recipient_entity",
  "origin_of_funds",
  "destination_of_funds",
  "sender_exposure",
  "recipient_exposure",
  "attempt_sender_entity",
  "attempt_recipient_entity",
  "attempt_sender_exposure",
  "attempt_recipient_exposure",
] as const;
export const PROXIMITIES = ["direct", "indirect"] as const;
export const RULE_TYPES = ["origin_of_funds", "destination_of_funds", "address_exposure", "entity"] as const;
export const RULE_SUB_TYPES = ["direct", "indirect", "all"] as const;
export const TX_STATUSES = ["none", "binding", "bound", "not_found", "error"] as const;

/** The alert state machine: from a status, the statuses it may move to. */
export const ALERT_NEXT: Readonly<Record<AlertStatus, ReadonlyArray<AlertStatus>>> = {
  open: ["in_progress"],
  in_progress: ["awaiting_response", "done"],
  awaiting_response: ["in_progress"],
  done: ["open"],
};
export const WEBHOOK_EVENT_TYPES = [
  "transfer.checked",
  "transfer.status_changed",
  "alert.created",
  "alert.updated",
  "manual_check.completed",
] as const;
