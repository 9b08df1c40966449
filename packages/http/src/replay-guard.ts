/**
 * Refuses a signed request seen before. A signature is only accepted within the timestamp
 * window, so an entry is kept until the window around its timestamp has passed; after that
 * the timestamp check refuses the request anyway. The cache lives in memory and is bounded:
 * past `maxEntries` expired entries are dropped first, then the oldest ones (logged by the
 * caller as a warning). With several server processes each guards its own requests.
 */

/** Options of {@link createReplayGuard}. */
export interface ReplayGuardOptions {
  /** The timestamp window, ms: an entry lives until its timestamp plus this. */
  readonly windowMs: number;
  /** Most entries kept; default 100,000. */
  readonly maxEntries?: number;
}

/** What admitting a request found. */
export interface ReplayAdmission {
  /** False when the same key id and signature were admitted before and have not expired. */
  readonly fresh: boolean;
  /** Live entries dropped to make room (the caller logs a warning when not 0). */
  readonly evicted: number;
}

/** An in-memory record of the signed requests admitted within the window. */
export interface ReplayGuard {
  /**
   * Admits a request unless it was admitted before: the check and the record happen together,
   * so two concurrent copies of one request cannot both be admitted.
   */
  admit(keyId: string, signature: string, timestamp: number, now: number): ReplayAdmission;
  /** Entries held (for tests and metrics). */
  size(): number;
}

/** Creates a replay guard. */
export function createReplayGuard(options: ReplayGuardOptions): ReplayGuard {
  const maxEntries = options.maxEntries ?? 100_000;
  const expiries = new Map<string, number>();

  function dropExpired(now: number): void {
    for (const [key, expiresAt] of expiries) if (expiresAt < now) expiries.delete(key);
  }

  return {
    admit(keyId, signature, timestamp, now) {
      const key = `${keyId}\u0000${signature}`;
      const expiresAt = expiries.get(key);
      if (expiresAt !== undefined && expiresAt >= now) return { fresh: false, evicted: 0 };
      expiries.delete(key);
      let evicted = 0;
      if (expiries.size >= maxEntries) dropExpired(now);
      for (const old of expiries.keys()) {
        if (expiries.size < maxEntries) break;
        expiries.delete(old);
        evicted += 1;
      }
      expiries.set(key, Math.max(timestamp, now) + options.windowMs);
      return { fresh: true, evicted };
    },
    size: () => expiries.size,
  };
}
