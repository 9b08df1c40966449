/**
 * The upkeep every warm copy shares (`warm-ledger.ts`, `warm-utxo-ledger.ts`): read what was
 * stored since the last read, page by page, one catch-up at a time, and answer a read at once
 * when the copy is at most `maxLagMs` old, else after a catch-up.
 */
import { KytError } from "../../errors.js";
import { systemClock } from "../../ports/runtime.js";
import type { WarmLedgerOptions } from "./warm-ledger.js";

/** One page read into the copy: how many items it held, how many were new, the position after it. */
export interface WarmPage {
  readonly read: number;
  readonly added: number;
  readonly last: number;
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

/**
 * The catch-up of a copy named `what` that `readPage(position, pageSize)` fills; `options`
 * over `defaults`, checked (VALIDATION_ERROR naming both fields).
 */
export function warmCatchUp(
  what: string,
  options: WarmLedgerOptions,
  defaults: { readonly maxLagMs: number; readonly pageSize: number },
  readPage: (position: number, pageSize: number) => Promise<WarmPage>,
): WarmCatchUp {
  const maxLagMs = options.maxLagMs ?? defaults.maxLagMs;
  const pageSize = options.pageSize ?? defaults.pageSize;
  if (!(maxLagMs >= 0) || !Number.isInteger(pageSize) || pageSize < 1) {
    throw new KytError("VALIDATION_ERROR", `${what}: maxLagMs must be >= 0 and pageSize a positive integer`);
  }
  const clock = options.clock ?? systemClock;
  let position = 0;
  let caughtUpAt = Number.NEGATIVE_INFINITY;
  let running: Promise<number> | null = null;

  async function readSince(): Promise<number> {
    const startedAt = clock.now();
    let added = 0;
    for (;;) {
      const page = await readPage(position, pageSize);
      added += page.added;
      position = page.last;
      if (page.read < pageSize) break;
    }
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
