/**
 * The limits of console sign-in, shaped so that an outsider cannot turn them against a user:
 *
 * - **attempts per source address** (every attempt, whatever its outcome): bounds the scrypt
 *   work one address can make the server do;
 * - **failures per e-mail and source address**: five wrong passwords for an e-mail lock that
 *   e-mail out *from that address* only; the owner signing in from elsewhere is not refused;
 * - **failures per e-mail, all addresses together**: bounds guessing spread over many
 *   addresses; past it only addresses that have failed at sign-in lately are refused, so a
 *   user signing in from an address with no recent failure is still checked.
 *
 * Successes cost nothing but the attempt. Buckets live in memory, per process.
 */
import { createRateLimiter, type RateLimit, type RateVerdict } from "./rate-limiter.js";

/** Options of {@link createSignInLimits}. */
export interface SignInLimitOptions {
  /** Sign-in attempts per source address; default 1/s with bursts of 20. */
  readonly attemptsPerAddress?: RateLimit;
  /** Failed sign-ins per (e-mail, source address); default one per 10 s with bursts of 5. */
  readonly failuresPerEmailAndAddress?: RateLimit;
  /** Failed sign-ins per e-mail from all addresses; default one per 6 s with bursts of 50. */
  readonly failuresPerEmail?: RateLimit;
  /** Failed sign-ins per source address (which addresses failed lately); default as per pair. */
  readonly failuresPerAddress?: RateLimit;
}

/** Defaults of {@link SignInLimitOptions}. */
export const SIGN_IN_LIMIT_DEFAULTS = Object.freeze({
  attemptsPerAddress: Object.freeze({ perSecond: 1, burst: 20 }),
  failuresPerEmailAndAddress: Object.freeze({ perSecond: 0.1, burst: 5 }),
  failuresPerEmail: Object.freeze({ perSecond: 1 / 6, burst: 50 }),
  failuresPerAddress: Object.freeze({ perSecond: 0.1, burst: 5 }),
});

/** The sign-in limits of one process. */
export interface SignInLimits {
  /** Counts an attempt from `address`; a refusal says how long to wait. Before reading the body. */
  attempt(address: string, now: number): RateVerdict;
  /** Whether `email` may be checked for `address` at `now` (before any password hash). */
  check(email: string, address: string, now: number): RateVerdict;
  /** Counts a failed sign-in of `email` from `address`. */
  failed(email: string, address: string, now: number): void;
}

const OK: RateVerdict = Object.freeze({ ok: true });

/** The limits, with {@link SIGN_IN_LIMIT_DEFAULTS} for what is not given. */
export function createSignInLimits(options: SignInLimitOptions = {}): SignInLimits {
  const limits = { ...SIGN_IN_LIMIT_DEFAULTS, ...options };
  const attempts = createRateLimiter(limits.attemptsPerAddress);
  const pairs = createRateLimiter(limits.failuresPerEmailAndAddress);
  const emails = createRateLimiter(limits.failuresPerEmail);
  const addresses = createRateLimiter(limits.failuresPerAddress);
  // JSON of the pair, so no e-mail can spell another pair's key.
  const pair = (email: string, address: string) => JSON.stringify([email, address]);
  return Object.freeze({
    attempt: (address: string, now: number) => attempts.take(address, now),
    check(email: string, address: string, now: number): RateVerdict {
      const mine = pairs.peek(pair(email, address), now);
      if (!mine.ok) return mine;
      const all = emails.peek(email, now);
      if (all.ok || addresses.untouched(address, now)) return OK;
      return all;
    },
    failed(email: string, address: string, now: number): void {
      pairs.take(pair(email, address), now);
      emails.take(email, now);
      addresses.take(address, now);
    },
  });
}
