/**
 * Attributions and sanctions held whole in memory, for a warm process: a screening looks up
 * every address a trace reaches, and a cache in front of the store misses on each address seen
 * for the first time (about three reads per screened transfer on the benchmark ledger). Loaded
 * page by page at start (`scanAttributions`, `scanSanctions`); a snapshot serves for
 * `refreshMs`, then the next lookup starts a reload in the background and keeps answering from
 * the old snapshot until the new one is in, so a label or listing imported by any process is
 * seen at most about `refreshMs` later. `clear()` makes the next lookup wait for a reload (call
 * it after importing reference data in this process). A table larger than `maxRows` is not held
 * (the factory answers null and the caller keeps a cache instead).
 *
 * A reload that reads the same rows as the snapshot's, field for field and in the same order,
 * keeps the snapshot (only its time moves): its {@link AddressScreen} stays the same object, so
 * a ledger that keeps work per screen (the lumps of a hub, `ledger-index.ts`) keeps it. Before,
 * every reload gave a new screen, and a cold worker with the hub cache rebuilt every held hub's
 * lumps every 30 s (docs/benchmarks.md, "Hub cache, fourth pass").
 */
import type { Attribution, SanctionsListing } from "../../domain/records.js";
import { KytError } from "../../errors.js";
import type { AddressScreen, AttributionSource, SanctionsSource } from "../../ports/reference-sources.js";
import { type Clock, systemClock } from "../../ports/runtime.js";
import type { Store } from "../../ports/store.js";
import type { Clearable } from "./cached-sources.js";

/** Options of the whole sources. */
export interface WholeReferenceOptions {
  /** How long a snapshot serves before a lookup starts reloading it, in ms (default 30,000). */
  readonly refreshMs?: number;
  /** Most rows held per table; past it the table is not held whole (default 1,000,000). */
  readonly maxRows?: number;
  /** Rows per read while loading (default 10,000). */
  readonly pageSize?: number;
  readonly clock?: Clock;
}

/** Defaults of {@link WholeReferenceOptions}. */
export const WHOLE_REFERENCE_DEFAULTS = Object.freeze({
  refreshMs: 30_000,
  maxRows: 1_000_000,
  pageSize: 10_000,
});

/** What a whole source reports about itself. */
export interface WholeSourceState {
  /** Rows held now. */
  readonly rows: number;
  /** When the snapshot was read (the source's clock). */
  readonly loadedAt: number;
}

/** A loaded snapshot, the rows it was built from (in scan order) and when it was read. */
interface Snapshot<T> {
  readonly value: T;
  readonly rows: ReadonlyArray<object>;
  readonly at: number;
}

/**
 * Whether two scans read the same rows: same length, and per position the same fields and
 * values. A reload that reads the same rows keeps what was built over the old ones (here the
 * snapshot and its screen; in a screening pool, the rows its threads hold).
 */
export function sameScannedRows(a: ReadonlyArray<object>, b: ReadonlyArray<object>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Record<string, unknown>;
    const y = b[i] as Record<string, unknown>;
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const k of keys) if (!Object.is(x[k], y[k]) || !(k in y)) return false;
  }
  return true;
}

interface Settings {
  readonly refreshMs: number;
  readonly maxRows: number;
  readonly pageSize: number;
  readonly clock: Clock;
}

function settingsOf(options: WholeReferenceOptions): Settings {
  const s = { ...WHOLE_REFERENCE_DEFAULTS, clock: systemClock, ...options };
  for (const name of ["refreshMs", "maxRows", "pageSize"] as const) {
    const v = s[name];
    if (!Number.isInteger(v) || v < (name === "refreshMs" ? 0 : 1))
      throw new KytError(
        "VALIDATION_ERROR",
        `whole reference sources: ${name} must be a positive integer, got ${v}`,
      );
  }
  return s;
}

/** Every row of a scan, or null once there are more than `max`. */
async function scanAll<T>(
  scan: (after: T | null, limit: number) => Promise<ReadonlyArray<T>>,
  pageSize: number,
  max: number,
): Promise<T[] | null> {
  const rows: T[] = [];
  let after: T | null = null;
  for (;;) {
    const page = await scan(after, pageSize);
    rows.push(...page);
    if (rows.length > max) return null;
    if (page.length < pageSize) return rows;
    after = page[page.length - 1] as T;
  }
}

/** A snapshot kept fresh as the module comment says; `read` answers null past `maxRows`. */
function refreshing<T>(settings: Settings, read: () => Promise<Snapshot<T> | null>, first: Snapshot<T>) {
  let current = first;
  let stale = false;
  let reloading: Promise<void> | null = null;
  const reload = (): Promise<void> => {
    reloading ??= read()
      .then((next) => {
        // A table that outgrew maxRows keeps its last snapshot (and stays stale: it is read again).
        if (next) {
          // The same rows: keep the snapshot's value (and so its screen), only its time is new.
          current = sameScannedRows(current.rows, next.rows) ? { ...current, at: next.at } : next;
          stale = false;
        }
      })
      .catch(() => {
        // The store failed: keep answering from the last snapshot; the next lookup tries again.
      })
      .finally(() => {
        reloading = null;
      });
    return reloading;
  };
  return {
    async get(): Promise<T> {
      if (stale) await reload();
      else if (settings.clock.now() - current.at > settings.refreshMs) void reload();
      return current.value;
    },
    /** The snapshot in force, or null when a reload is awaited (`clear()` was called). */
    held(): T | null {
      return stale ? null : current.value;
    },
    clear(): void {
      stale = true;
    },
    state: (): WholeSourceState => ({ rows: current.rows.length, loadedAt: current.at }),
  };
}

/**
 * The screen of a snapshot, built once per snapshot (a new snapshot is a new object, so a reader
 * that keeps work per screen redoes it after a reload).
 */
function screenOf<T extends object>(
  screens: WeakMap<T, AddressScreen>,
  value: T | null,
  addresses: (value: T) => ReadonlySet<string>,
): AddressScreen | null {
  if (value === null) return null;
  let screen = screens.get(value);
  if (!screen) {
    const held = addresses(value);
    screen = Object.freeze({ mayResolve: (address: string) => held.has(address) });
    screens.set(value, screen);
  }
  return screen;
}

/** Attributions held whole, or null when the store holds more than `maxRows`. */
export async function wholeAttributionSource(
  store: Pick<Store, "scanAttributions">,
  options: WholeReferenceOptions = {},
): Promise<(AttributionSource & Clearable & { state(): WholeSourceState }) | null> {
  const settings = settingsOf(options);
  const read = async (): Promise<Snapshot<Map<string, Map<string, Attribution>>> | null> => {
    const at = settings.clock.now();
    const rows = await scanAll<Attribution>(
      (after, limit) => store.scanAttributions(after, limit),
      settings.pageSize,
      settings.maxRows,
    );
    if (rows === null) return null;
    const byNetwork = new Map<string, Map<string, Attribution>>();
    for (const row of rows) {
      let map = byNetwork.get(row.network);
      if (!map) {
        map = new Map();
        byNetwork.set(row.network, map);
      }
      map.set(row.address, row);
    }
    return { value: byNetwork, rows, at };
  };
  const first = await read();
  if (!first) return null;
  const held = refreshing(settings, read, first);
  const screens = new WeakMap<Map<string, Map<string, Attribution>>, AddressScreen>();
  return {
    addressScreen: () =>
      screenOf(screens, held.held(), (byNetwork) => {
        const all = new Set<string>();
        for (const map of byNetwork.values()) for (const address of map.keys()) all.add(address);
        return all;
      }),
    async attributions(network, addresses) {
      const map = (await held.get()).get(network);
      if (!map) return [];
      const out: Attribution[] = [];
      for (const address of new Set(addresses)) {
        const found = map.get(address);
        if (found) out.push(found);
      }
      return out;
    },
    clear: held.clear,
    state: held.state,
  };
}

/** Sanctions listings held whole, or null when the store holds more than `maxRows`. */
export async function wholeSanctionsSource(
  store: Pick<Store, "scanSanctions">,
  options: WholeReferenceOptions = {},
): Promise<(SanctionsSource & Clearable & { state(): WholeSourceState }) | null> {
  const settings = settingsOf(options);
  const read = async (): Promise<Snapshot<Map<string, SanctionsListing[]>> | null> => {
    const at = settings.clock.now();
    const rows = await scanAll<SanctionsListing>(
      (after, limit) => store.scanSanctions(after, limit),
      settings.pageSize,
      settings.maxRows,
    );
    if (rows === null) return null;
    const byAddress = new Map<string, SanctionsListing[]>();
    for (const row of rows) {
      const list = byAddress.get(row.address);
      if (list) list.push(row);
      else byAddress.set(row.address, [row]);
    }
    return { value: byAddress, rows, at };
  };
  const first = await read();
  if (!first) return null;
  const held = refreshing(settings, read, first);
  const screens = new WeakMap<Map<string, SanctionsListing[]>, AddressScreen>();
  return {
    addressScreen: () => screenOf(screens, held.held(), (byAddress) => new Set(byAddress.keys())),
    async listings(addresses) {
      const map = await held.get();
      const out: SanctionsListing[] = [];
      for (const address of new Set(addresses)) {
        const found = map.get(address);
        if (found) out.push(...found);
      }
      return out;
    },
    clear: held.clear,
    state: held.state,
  };
}
