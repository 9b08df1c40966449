/**
 * Retracing for a backtest: the checks of stored transfers run again against the engine's
 * current sources (ledger, labels, sanctions lists), reads only. A check that fails keeps the
 * transfer's stored result, and is counted.
 */
import { CHECK_KINDS } from "../../domain/enums.js";
import type { ScreenedTransfer } from "../../ports/store-backtests.js";
import type { EngineContext } from "../engine-context.js";
import type { WorkSlicer } from "../jobs/work-slices.js";
import { computeChecks, transferCheckSubject } from "../screening/check-computation.js";

/** A transfer's results as a retrace found them. */
export interface Retraced {
  readonly results: Pick<ScreenedTransfer, "exposure" | "counterparty" | "sanctions">;
  /** How many of its checks could not run again. */
  readonly failures: number;
}

/**
 * Retraces the checked transfers of a page: the checks each one has `checked` run again. One
 * store read for the page (the full transfers), then the checks one transfer at a time, pausing
 * between transfers at the end of each slice of work.
 */
export async function retracePage(
  ctx: EngineContext,
  rows: ReadonlyArray<ScreenedTransfer>,
  slices: WorkSlicer,
): Promise<Map<string, Retraced>> {
  const checked = rows.filter((t) => t.riskModelVersion !== null);
  const full = await ctx.store.getTransfers(checked.map((t) => t.id));
  const out = new Map<string, Retraced>();
  for (const t of full) {
    await slices.pause();
    const kinds = CHECK_KINDS.filter((kind) => t.checks[kind].state === "checked");
    const fresh = await computeChecks(ctx, transferCheckSubject(t), kinds);
    const failures = kinds.filter((kind) => fresh.failures[kind] !== undefined).length;
    out.set(t.id, {
      results: {
        exposure: fresh.exposure ?? t.exposure,
        counterparty: fresh.counterparty ?? t.counterparty,
        sanctions: fresh.sanctions ?? t.sanctions,
      },
      failures,
    });
  }
  return out;
}
