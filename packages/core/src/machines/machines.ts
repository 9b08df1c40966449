/**
 * The engine's state machines. Read each table as "from: the states it may move to".
 * Anything not listed is refused with ILLEGAL_TRANSITION.
 */
import type { AlertStatus, CheckState, ManualCheckStatus, TxStatus } from "../domain/enums.js";
import { defineMachine } from "./state-machine.js";

/**
 * Binding status of a transfer.
 * - none: an attempt; binding a hash starts binding.
 * - binding: the chain source is asked; it ends bound, not_found (window ran out) or error
 *   (the source kept failing).
 * - not_found / error: re-registering with force_recheck binds again.
 */
export const TX_STATUS_MACHINE = defineMachine<TxStatus>("tx_status", {
  none: ["binding"],
  binding: ["bound", "not_found", "error"],
  bound: [],
  not_found: ["binding"],
  error: ["binding"],
});

/**
 * State of one check of a transfer.
 * - none -> queued: a check was asked for (at registration, bind or recheck).
 * - queued -> checking: a worker claimed the job; queued -> none: the check no longer applies
 *   (binding ended not_found or error).
 * - checking -> checked | error; checking -> queued: the run failed and will be retried.
 * - checked / error -> queued: a recheck.
 */
export const CHECK_STATE_MACHINE = defineMachine<CheckState>("check_state", {
  none: ["queued"],
  queued: ["checking", "none"],
  checking: ["checked", "error", "queued"],
  checked: ["queued"],
  error: ["queued"],
});

/** A manual check runs once: checking ends checked or error. */
export const MANUAL_CHECK_MACHINE = defineMachine<ManualCheckStatus>("check_status", {
  checking: ["checked", "error"],
  checked: [],
  error: [],
});

/**
 * Alert workflow: open -> in_progress -> awaiting_response -> in_progress -> done, and
 * done -> open to reopen.
 */
export const ALERT_STATUS_MACHINE = defineMachine<AlertStatus>("alert_status", {
  open: ["in_progress"],
  in_progress: ["awaiting_response", "done"],
  awaiting_response: ["in_progress"],
  done: ["open"],
});
