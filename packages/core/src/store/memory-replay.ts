/**
 * The in-memory replay guard: bounded per key id and in total, and never forgetting a live
 * entry. When a key (or the whole guard) holds as many live entries as it may, admission
 * answers `full` instead of dropping one, so a captured request cannot be replayed by
 * flooding the guard first. Expired entries leave through a min-heap ordered by expiry:
 * each admission first pops the entries that expired, at O(log n) each.
 */
import { KytError } from "../errors.js";
import { REPLAY_ADMISSIONS, type ReplayAdmission, type ReplayGuardPort } from "../ports/replay-guard.js";

/** Bounds of {@link createMemoryReplayGuard}. */
export interface MemoryReplayOptions {
  /**
   * Most live entries of one key id. Default {@link MEMORY_REPLAY_DEFAULTS}.perKey: what the
   * default rate limit (bursts of 100, then 50/s) can admit while an entry lives (at most two
   * default windows of 5 minutes: a timestamp may lead the clock by one window).
   */
  readonly perKey?: number;
  /** Most live entries in all. Default {@link MEMORY_REPLAY_DEFAULTS}.total. */
  readonly total?: number;
}

/** Defaults of {@link MemoryReplayOptions}. */
export const MEMORY_REPLAY_DEFAULTS = Object.freeze({
  perKey: 100 + 50 * 600,
  total: 1_000_000,
});

/** The in-memory replay guard, with its size for tests and metrics. */
export interface MemoryReplayGuard extends ReplayGuardPort {
  /** Entries held (live ones, and expired ones not yet pruned). */
  size(): number;
}

interface HeapEntry {
  readonly expiresAt: number;
  readonly keyId: string;
  readonly digest: string;
}

/** A binary min-heap of entries by expiry. */
function expiryHeap() {
  const items: HeapEntry[] = [];
  const at = (i: number) => items[i] as HeapEntry;
  const swap = (i: number, j: number) => {
    const t = at(i);
    items[i] = at(j);
    items[j] = t;
  };
  return {
    size: () => items.length,
    peek: (): HeapEntry | undefined => items[0],
    push(entry: HeapEntry): void {
      items.push(entry);
      let i = items.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (at(parent).expiresAt <= at(i).expiresAt) break;
        swap(i, parent);
        i = parent;
      }
    },
    pop(): HeapEntry | undefined {
      const top = items[0];
      const last = items.pop();
      if (top === undefined || last === undefined || items.length === 0) return top;
      items[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < items.length && at(left).expiresAt < at(smallest).expiresAt) smallest = left;
        if (right < items.length && at(right).expiresAt < at(smallest).expiresAt) smallest = right;
        if (smallest === i) return top;
        swap(i, smallest);
        i = smallest;
      }
    },
  };
}

/** A positive whole bound, or a VALIDATION_ERROR naming the option. */
function bound(name: string, value: number | undefined, fallback: number): number {
  const chosen = value ?? fallback;
  if (!Number.isSafeInteger(chosen) || chosen < 1) {
    throw new KytError("VALIDATION_ERROR", `replay guard ${name} must be a whole number >= 1, got ${chosen}`);
  }
  return chosen;
}

/**
 * Creates an in-memory replay guard (one process: the memory store, or the HTTP adapter over a
 * store used by one process). Nothing survives the process.
 */
export function createMemoryReplayGuard(options: MemoryReplayOptions = {}): MemoryReplayGuard {
  const perKey = bound("perKey", options.perKey, MEMORY_REPLAY_DEFAULTS.perKey);
  const total = bound("total", options.total, MEMORY_REPLAY_DEFAULTS.total);
  const byKey = new Map<string, Map<string, number>>();
  const heap = expiryHeap();

  function prune(now: number): void {
    for (let top = heap.peek(); top !== undefined && top.expiresAt < now; top = heap.peek()) {
      heap.pop();
      const entries = byKey.get(top.keyId);
      // An entry re-admitted after it expired has a later expiry: only the matching one goes.
      if (entries?.get(top.digest) === top.expiresAt) {
        entries.delete(top.digest);
        if (entries.size === 0) byKey.delete(top.keyId);
      }
    }
  }

  function admitNow(keyId: string, digest: string, expiresAt: number, now: number): ReplayAdmission {
    if (!Number.isFinite(expiresAt) || !Number.isFinite(now)) {
      throw new KytError("VALIDATION_ERROR", "replay guard: expiresAt and now must be finite epoch ms");
    }
    prune(now);
    const entries = byKey.get(keyId);
    if (entries?.has(digest)) return REPLAY_ADMISSIONS.replay;
    if ((entries?.size ?? 0) >= perKey || heap.size() >= total) {
      const earliest = heap.peek()?.expiresAt ?? now;
      return { outcome: "full", retryAfterMs: Math.max(1, earliest - now + 1) };
    }
    if (entries) entries.set(digest, expiresAt);
    else byKey.set(keyId, new Map([[digest, expiresAt]]));
    heap.push({ expiresAt, keyId, digest });
    return REPLAY_ADMISSIONS.fresh;
  }

  return {
    admit: async (keyId, digest, expiresAt, now) => admitNow(keyId, digest, expiresAt, now),
    size: () => heap.size(),
  };
}
