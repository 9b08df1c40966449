/**
 * The upkeep every warm copy shares (`warm-ledger.ts`, `warm-utxo-ledger.ts`): read what was
 * stored since the last read, page by page, one catch-up at a time, and answer a read at once
 * when the copy is at most `maxLagMs` old, else after a catch-up.
 *
 * Deletes: a chain follower that undoes a reorganisation removes rows, and the store records a
 * rewind for it (`Store.scanRewinds`). A catch-up first reads the rewinds recorded since the last
 * one it saw, drops the same rows from the copy and goes back to the rewind's `resumeAfter`
 * (rows held already are skipped when read again); it then reads the new rows, and reads the
 * rewinds once more: when one landed meanwhile, it is applied and the rows read again, so a
 * catch-up ends on a state the store was in.
 */
import { KytError } from "../../errors.js";
import { systemClock } from "../../ports/runtime.js";
import type { LedgerRewind, RewoundLedger } from "../../ports/store-chain-follow.js";
import type { WarmLedgerOptions } from "./warm-ledger.js";

/** One page read into the copy: how many items it held, how many were new, the position after it. */
export interface WarmPage {
  readonly read: number;
  readonly added: number;
  readonly last: number;
}

/** How a copy follows the store's deletes (see the module comment). */
export interface WarmRewinds {
  /** The store's `scanRewinds`. */
  readonly scan: (after: number, limit: number) => Promise<ReadonlyArray<LedgerRewind>>;
  /** The ledger the copy holds: rewinds of the other one are stepped over. */
  readonly ledger: RewoundLedger;
  /** Drops the copy's rows of `network` in blocks at or above `fromHeight`; answers how many. */
  readonly drop: (network: string, fromHeight: number) => number;
}

/** The catch-up of one warm copy. */
export interface WarmCatchUp {
  /** Reads what was stored since the last catch-up (joins one under way); resolves to how many were new. */
  catchUp(): Promise<number>;
  /** `read` now when the copy is recent, else after a catch-up. */
  fresh<T>(read: () => T): Promise<T>;
  /** When the last catch-up began (epoch ms of the clock). */
  readonly caughtUpAt: number;
}

/** Where a copy's first catch-up starts: a scan position and the last rewind already seen. */
export interface WarmStart {
  readonly position: number;
  readonly rewound: number;
}

/**
 * The catch-up of a copy named `what` that `readPage(position, pageSize)` fills; `options`
 * over `defaults`, checked (VALIDATION_ERROR naming both fields). `start`: from the first row
 * and rewind (a copy of the whole ledger), or from a position (a copy that holds nothing older).
 */
export function warmCatchUp(
  what: string,
  options: WarmLedgerOptions,
  defaults: { readonly maxLagMs: number; readonly pageSize: number },
  readPage: (position: number, pageSize: number) => Promise<WarmPage>,
  rewinds: WarmRewinds | null = null,
  start: WarmStart = { position: 0, rewound: 0 },
): WarmCatchUp {
  const maxLagMs = options.maxLagMs ?? defaults.maxLagMs;
  const pageSize = options.pageSize ?? defaults.pageSize;
  if (!(maxLagMs >= 0) || !Number.isInteger(pageSize) || pageSize < 1) {
    throw new KytError("VALIDATION_ERROR", `${what}: maxLagMs must be >= 0 and pageSize a positive integer`);
  }
  const clock = options.clock ?? systemClock;
  let position = start.position;
  let caughtUpAt = Number.NEGATIVE_INFINITY;
  let running: Promise<number> | null = null;

  let rewound = start.rewound;

  /** Applies the rewinds recorded since the last one seen; answers whether there were any. */
  async function applyRewinds(): Promise<boolean> {
    if (rewinds === null) return false;
    let any = false;
    for (;;) {
      const page = await rewinds.scan(rewound, pageSize);
      for (const rewind of page) {
        any = true;
        rewound = rewind.id;
        if (rewind.ledger !== rewinds.ledger) continue;
        rewinds.drop(rewind.network, rewind.fromHeight);
        position = Math.min(position, rewind.resumeAfter);
      }
      if (page.length < pageSize) return any;
    }
  }

  async function readSince(): Promise<number> {
    const startedAt = clock.now();
    let added = 0;
    await applyRewinds();
    do {
      for (;;) {
        const page = await readPage(position, pageSize);
        added += page.added;
        position = page.last;
        if (page.read < pageSize) break;
      }
    } while (await applyRewinds());
    caughtUpAt = startedAt;
    return added;
  }

  function catchUp(): Promise<number> {
    running ??= readSince().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    catchUp,
    fresh: (read) => (clock.now() - caughtUpAt <= maxLagMs ? Promise.resolve(read()) : catchUp().then(read)),
    get caughtUpAt() {
      return caughtUpAt;
    },
  };
}
