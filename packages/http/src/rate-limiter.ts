/**
 * A token bucket per API key: `burst` requests at once, refilled at `perSecond`. A refused
 * request learns how long until a token is back (the Retry-After header). Buckets live in
 * memory; a bucket that has refilled completely is the same as no bucket and is dropped when
 * the map grows.
 */

/** Per-key rate. */
export interface RateLimit {
  /** Sustained requests per second. */
  readonly perSecond: number;
  /** Requests allowed at once. */
  readonly burst: number;
}

/** The outcome of one take. */
export type RateVerdict = { readonly ok: true } | { readonly ok: false; readonly retryAfterMs: number };

/** A per-key token bucket limiter. */
export interface RateLimiter {
  /** Takes one token for `key` at time `now` (ms). */
  take(key: string, now: number): RateVerdict;
}

interface Bucket {
  tokens: number;
  at: number;
}

const PRUNE_ABOVE = 10_000;

/** Creates a limiter; `perSecond` and `burst` must be positive. */
export function createRateLimiter(limit: RateLimit): RateLimiter {
  if (!(limit.perSecond > 0) || !(limit.burst >= 1)) {
    throw new RangeError("rate limit needs perSecond > 0 and burst >= 1");
  }
  const buckets = new Map<string, Bucket>();
  const refill = (b: Bucket, now: number) =>
    Math.min(limit.burst, b.tokens + (Math.max(0, now - b.at) * limit.perSecond) / 1000);

  function prune(now: number): void {
    for (const [key, b] of buckets) if (refill(b, now) >= limit.burst) buckets.delete(key);
  }

  return {
    take(key, now) {
      const b = buckets.get(key) ?? { tokens: limit.burst, at: now };
      const tokens = refill(b, now);
      if (tokens < 1) {
        buckets.set(key, { tokens, at: now });
        return { ok: false, retryAfterMs: Math.ceil(((1 - tokens) * 1000) / limit.perSecond) };
      }
      if (!buckets.has(key) && buckets.size >= PRUNE_ABOVE) prune(now);
      buckets.set(key, { tokens: tokens - 1, at: now });
      return { ok: true };
    },
  };
}
