/**
 * How much memory a cold `serve` or `worker` gives the hub cache when `--hub-cache-mb` and
 * OPENKYT_HUB_CACHE_MB are not set: 256 MB, or an eighth of V8's heap limit when that is less
 * (a small container keeps room for everything else), on a store that counts its hops (Postgres,
 * and a ClickHouse ledger, which the cache follows by its change log; Postgres is where the cache
 * was first measured: a fresh worker's own CPU and Postgres's both lower over 300
 * transfers, docs/benchmarks.md, "Hub cache, fourth pass"); none on a store that does not count
 * (SQLite, not measured there; `--hub-cache-mb N` turns it on).
 */
import { getHeapStatistics } from "node:v8";
import type { Store } from "@openkyt/core";

/** The default bound, MB, on a roomy heap. */
export const HUB_CACHE_DEFAULT_MB = 256;

/** Share of V8's heap limit the default may take at most. */
const HEAP_SHARE = 1 / 8;

/** The default hub cache bound for `store`, MB; null: no hub cache by default. */
export function defaultHubCacheMb(
  store: Pick<Store, "ledgerIncomingCounts">,
  heapLimitBytes: number = getHeapStatistics().heap_size_limit,
): number | null {
  if (!store.ledgerIncomingCounts) return null;
  const mb = Math.min(HUB_CACHE_DEFAULT_MB, Math.floor((heapLimitBytes * HEAP_SHARE) / 2 ** 20));
  return mb > 0 ? mb : null;
}
