/**
 * The replay guard port: a record of the signed requests admitted while their signature could
 * still be accepted, so that a captured request sent again is refused. Implemented in memory
 * (`createMemoryReplayGuard`, bounded and never forgetting a live entry) and by every store
 * (`Store.admitRequestSignature`: a table with a unique key and an expiry, shared by every
 * process on the same database).
 */

/** What admitting a signed request found. */
export type ReplayAdmission =
  /** Not seen within its lifetime: recorded now, the request may run. */
  | { readonly outcome: "fresh" }
  /** Admitted before and not yet expired: the request must be refused. */
  | { readonly outcome: "replay" }
  /**
   * The guard holds as many live entries as it may and did not record this one: the request
   * must be refused as "try later" (never run unrecorded). `retryAfterMs` is when the earliest
   * live entry expires (a lower bound on when room appears).
   */
  | { readonly outcome: "full"; readonly retryAfterMs: number };

/** What a replay guard does. */
export interface ReplayGuardPort {
  /**
   * Records `(keyId, digest)` until `expiresAt` (epoch ms) unless a live entry for it exists
   * (one whose `expiresAt` is not before `now`). Atomic: of two concurrent admissions of one
   * pair, exactly one is `fresh`, in this process or (for a shared store) in any process on
   * the same database. An entry that expired counts as absent. A live entry is never dropped
   * before its expiry: when there is no room the answer is `full`, and nothing is recorded.
   */
  admit(keyId: string, digest: string, expiresAt: number, now: number): Promise<ReplayAdmission>;
}

/** The admissions as values (no allocation per request). */
export const REPLAY_ADMISSIONS = Object.freeze({
  fresh: Object.freeze({ outcome: "fresh" }) as ReplayAdmission,
  replay: Object.freeze({ outcome: "replay" }) as ReplayAdmission,
});
