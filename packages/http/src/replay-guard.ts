/**
 * Which replay guard the HTTP adapter uses, and how large it may grow. A signature is only
 * accepted while its timestamp is within the window of the server clock, so an admitted
 * request is remembered until its timestamp plus the window; after that the timestamp check
 * refuses it anyway.
 *
 * - `store`: the store's `admitRequestSignature` (a table with a unique key and an expiry),
 *   shared by every process on the same database: a request admitted by one node is a replay
 *   to all of them. Never full.
 * - `memory`: a bounded guard in this process (`createMemoryReplayGuard`): per key id at most
 *   what the rate limit admits while an entry lives, and a total; when either is reached it
 *   answers `full` (503) and never forgets a live entry. Enough for a store one process uses.
 * - `auto` (the default): `store` when the store says several processes may use it at once
 *   (`capabilities.multiProcess`, Postgres), `memory` otherwise (SQLite, the memory store).
 */
import {
  createMemoryReplayGuard,
  KytError,
  MEMORY_REPLAY_DEFAULTS,
  type ReplayGuardPort,
  type Store,
} from "@openkyt/core";
import { DEFAULT_RATE_PER_KEY, type RateLimit } from "./rate-limiter.js";

/** The guards to choose from (see the module comment). */
export const REPLAY_GUARD_KINDS = ["auto", "memory", "store"] as const;

/** A choice of guard. */
export type ReplayGuardKind = (typeof REPLAY_GUARD_KINDS)[number];

/** Replay guard settings of the HTTP app. */
export interface ReplayGuardSettings {
  /** Which guard; default "auto". */
  readonly guard?: ReplayGuardKind;
  /**
   * Memory guard: most live entries of one key id. Default: what the per-key rate limit can
   * admit while an entry lives (at most two windows, since a timestamp may lead the clock by
   * one): `burst + perSecond x 2 x window` (30,100 with the defaults); without a rate limit,
   * that of the default limit.
   */
  readonly perKey?: number;
  /** Memory guard: most live entries in all; default 1,000,000. */
  readonly total?: number;
}

/** Options of {@link createReplayGuard}. */
export interface ReplayGuardOptions extends ReplayGuardSettings {
  /** The store the app serves (the `store` guard's table; `auto` reads its capabilities). */
  readonly store: Store;
  /** The timestamp window, ms. */
  readonly windowMs: number;
  /** The per-key rate limit (bounds the memory guard per key); null when there is none. */
  readonly ratePerKey: RateLimit | null;
}

/** The guard an app uses, with which one it is (for the log and tests). */
export interface ReplayGuard extends ReplayGuardPort {
  readonly kind: "memory" | "store";
}

/** Most entries one key can have live: its burst, then its rate over two windows. */
export function replayPerKeyBound(rate: RateLimit | null, windowMs: number): number {
  // Without a rate limit, the default one bounds the guard.
  const { perSecond, burst } = rate ?? DEFAULT_RATE_PER_KEY;
  return Math.ceil(burst + (perSecond * 2 * windowMs) / 1000);
}

/** Creates the guard the options choose. */
export function createReplayGuard(options: ReplayGuardOptions): ReplayGuard {
  const kind = options.guard ?? "auto";
  if (!REPLAY_GUARD_KINDS.includes(kind)) {
    throw new KytError(
      "VALIDATION_ERROR",
      `replay guard must be one of ${REPLAY_GUARD_KINDS.join(", ")}, got ${String(kind)}`,
    );
  }
  const { store } = options;
  if (kind === "store" || (kind === "auto" && store.capabilities.multiProcess)) {
    return {
      kind: "store",
      admit: (keyId, digest, expiresAt, now) => store.admitRequestSignature(keyId, digest, expiresAt, now),
    };
  }
  const memory = createMemoryReplayGuard({
    perKey: options.perKey ?? replayPerKeyBound(options.ratePerKey, options.windowMs),
    total: options.total ?? MEMORY_REPLAY_DEFAULTS.total,
  });
  return { kind: "memory", admit: memory.admit };
}
