/**
 * The budget of failed authentications: a token bucket of failures per source address and per
 * existing key id. A source past its budget is refused (429) before its headers are checked or
 * its body read; a key past its budget is refused before any HMAC, but only to sources that
 * have failed themselves lately, so a client that signs correctly is not locked out by someone
 * else guessing at its key id. Unknown key ids get no bucket of their own (they are the
 * client's free choice and cost no HMAC): their failures count against the source.
 */
import { createRateLimiter, type RateLimit, type RateVerdict } from "./rate-limiter.js";

/** The budget of {@link createAuthFailureBudget}. */
export type AuthFailureLimit = RateLimit;

/** Where a request comes from and which existing key it names, as the budget counts them. */
export interface FailureSubject {
  /** The source's limit address (see limitAddress), or undefined when not known. */
  readonly address: string | undefined;
  /** An existing key id, or undefined. */
  readonly keyId?: string | undefined;
}

/** The failure budget. */
export interface AuthFailureBudget {
  /** Whether the source may still be checked at `now` (before anything else is read). */
  checkSource(subject: FailureSubject, now: number): RateVerdict;
  /** Whether the existing key may be checked for this source at `now` (before any HMAC). */
  checkKey(subject: FailureSubject, now: number): RateVerdict;
  /** Counts one failed authentication against the source and the existing key. */
  record(subject: FailureSubject, now: number): void;
}

const OK: RateVerdict = Object.freeze({ ok: true });

/** A failure budget of `limit` per source address and per existing key id. */
export function createAuthFailureBudget(limit: AuthFailureLimit): AuthFailureBudget {
  const sources = createRateLimiter(limit);
  const keys = createRateLimiter(limit);
  return Object.freeze({
    checkSource(subject: FailureSubject, now: number): RateVerdict {
      return subject.address === undefined ? OK : sources.peek(subject.address, now);
    },
    checkKey(subject: FailureSubject, now: number): RateVerdict {
      if (subject.keyId === undefined) return OK;
      const verdict = keys.peek(subject.keyId, now);
      if (verdict.ok) return OK;
      // A source without failures of its own is let through to the HMAC: it may be the key's owner.
      return subject.address !== undefined && sources.untouched(subject.address, now) ? OK : verdict;
    },
    record(subject: FailureSubject, now: number): void {
      if (subject.address !== undefined) sources.take(subject.address, now);
      if (subject.keyId !== undefined) keys.take(subject.keyId, now);
    },
  });
}
