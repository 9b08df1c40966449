/**
 * A token bucket per key: `burst` takes at once, refilled at `perSecond`. A refused take
 * learns how long until a token is back (the Retry-After header). Buckets live in memory; a
 * bucket that has refilled completely is the same as no bucket and is dropped when the map
 * grows; past {@link RATE_BUCKETS_MAX} live buckets the least recently used are dropped
 * (forgiven), so keys a client makes up (addresses, key ids) cannot grow the map without bound,
 * and a key that keeps asking keeps its bucket however many others are made up meanwhile.
 */

/** Per-key rate. */
export interface RateLimit {
  /** Sustained takes per second. */
  readonly perSecond: number;
  /** Takes allowed at once. */
  readonly burst: number;
}

/** The outcome of one take. */
export type RateVerdict = { readonly ok: true } | { readonly ok: false; readonly retryAfterMs: number };

/** A per-key token bucket limiter. */
export interface RateLimiter {
  /** Takes one token for `key` at time `now` (ms). */
  take(key: string, now: number): RateVerdict;
  /** Whether `key` has a token at `now`, without taking it. */
  peek(key: string, now: number): RateVerdict;
  /** True when `key` has all its tokens at `now` (nothing taken lately). */
  untouched(key: string, now: number): boolean;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** The HTTP app's default per-key rate (`limits.ratePerKey`). */
export const DEFAULT_RATE_PER_KEY: RateLimit = Object.freeze({ perSecond: 50, burst: 100 });

/** Most buckets kept; past it, refilled buckets are dropped, then the oldest. */
export const RATE_BUCKETS_MAX = 10_000;

/** Creates a limiter; `perSecond` and `burst` must be positive. */
export function createRateLimiter(limit: RateLimit): RateLimiter {
  if (!(limit.perSecond > 0) || !(limit.burst >= 1)) {
    throw new RangeError("rate limit needs perSecond > 0 and burst >= 1");
  }
  const buckets = new Map<string, Bucket>();
  const refill = (b: Bucket, now: number) =>
    Math.min(limit.burst, b.tokens + (Math.max(0, now - b.at) * limit.perSecond) / 1000);
  const wait = (tokens: number) => Math.ceil(((1 - tokens) * 1000) / limit.perSecond);

  function prune(now: number): void {
    for (const [key, b] of buckets) if (refill(b, now) >= limit.burst) buckets.delete(key);
    // Still full of live buckets: drop the oldest tenth, so the next prune is 1,000 new keys away.
    for (const key of buckets.keys()) {
      if (buckets.size < RATE_BUCKETS_MAX * 0.9) break;
      buckets.delete(key);
    }
  }

  /** Stores `key`'s bucket as the most recently used (a Map keeps insertion order). */
  function touch(key: string, bucket: Bucket): void {
    buckets.delete(key);
    buckets.set(key, bucket);
  }

  return {
    take(key, now) {
      const b = buckets.get(key) ?? { tokens: limit.burst, at: now };
      const tokens = refill(b, now);
      if (tokens < 1) {
        touch(key, { tokens, at: now });
        return { ok: false, retryAfterMs: wait(tokens) };
      }
      if (!buckets.has(key) && buckets.size >= RATE_BUCKETS_MAX) prune(now);
      touch(key, { tokens: tokens - 1, at: now });
      return { ok: true };
    },
    peek(key, now) {
      const b = buckets.get(key);
      const tokens = b === undefined ? limit.burst : refill(b, now);
      return tokens >= 1 ? { ok: true } : { ok: false, retryAfterMs: wait(tokens) };
    },
    untouched(key, now) {
      const b = buckets.get(key);
      return b === undefined || refill(b, now) >= limit.burst;
    },
  };
}
