/** Pure changes to a transfer's three check states, each through the check_state machine. */
import type { CheckKind, CheckState } from "../../domain/enums.js";
import { CHECK_KINDS } from "../../domain/enums.js";
import type { CheckStates, CheckStatus } from "../../domain/records.js";
import { CHECK_STATE_MACHINE, transition } from "../../machines/index.js";

/** All three checks in state `none`, never run. */
export const NO_CHECKS: CheckStates = Object.freeze({
  exposure: Object.freeze({ state: "none", at: null }),
  counterparty: Object.freeze({ state: "none", at: null }),
  sanctions: Object.freeze({ state: "none", at: null }),
});

/**
 * The results of a subject (a transfer or a manual check) that no check has run for yet: risk
 * undefined, no score, model version, exposure, counterparty, sanctions or error.
 */
export const NO_RESULTS = Object.freeze({
  riskLevel: "undefined",
  riskScore: null,
  riskModelVersion: null,
  exposure: null,
  counterparty: null,
  sanctions: null,
  lastError: null,
} as const);

/** Moves the given checks to `to` at `at` (each move checked by the machine). */
export function moveChecks(
  checks: CheckStates,
  kinds: ReadonlyArray<CheckKind>,
  to: CheckState,
  at: number,
): CheckStates {
  const next: Record<CheckKind, CheckStatus> = { ...checks };
  for (const kind of kinds) {
    const from = checks[kind].state;
    if (from === to) continue;
    next[kind] = Object.freeze({ state: transition(CHECK_STATE_MACHINE, from, to), at });
  }
  return Object.freeze(next);
}

/** Queues the given checks; ones already queued or running stay as they are (a job is enqueued anyway). */
export function queueChecks(checks: CheckStates, kinds: ReadonlyArray<CheckKind>, at: number): CheckStates {
  const movable = kinds.filter(
    (kind) => checks[kind].state !== "queued" && checks[kind].state !== "checking",
  );
  return moveChecks(checks, movable, "queued", at);
}

/** Puts queued checks back to none (the check no longer applies, e.g. binding ended not_found). */
export function unqueueChecks(checks: CheckStates, at: number): CheckStates {
  return moveChecks(
    checks,
    CHECK_KINDS.filter((kind) => checks[kind].state === "queued"),
    "none",
    at,
  );
}

/** True when at least one check has finished as checked. */
export function anyChecked(checks: CheckStates): boolean {
  return CHECK_KINDS.some((kind) => checks[kind].state === "checked");
}
