/**
 * The alerts of an account with their decisions, as rows for an export (CSV): the alert, its
 * transfer, its assignee, and the decision read from its history. Filters are those of
 * GET /v1/alerts/ (its page fields are checked, then ignored); every matching alert is exported,
 * newest first, up to a limit.
 */
import type { DecisionRecord } from "../../domain/casework.js";
import type { AlertRecord, TransferRecord } from "../../domain/records.js";
import { KytError } from "../../errors.js";
import type { CaseDecision } from "../../ports/report-renderer.js";
import { alertListQuerySchema, parseInput, presentAlert } from "../../schemas/index.js";
import type { AlertListParams } from "../../schemas/request-types.js";
import type { EngineContext } from "../engine-context.js";
import { decisionOf, storedOutcome } from "./case-file.js";

/** Most alerts one export holds; past it, the caller narrows the filter. */
export const MAX_EXPORT_ALERTS = 10_000;

/** One exported alert. */
export interface AlertExportRow {
  readonly alert: ReturnType<typeof presentAlert>;
  readonly assignee: string | null;
  readonly transfer: TransferRecord | null;
  readonly decision: CaseDecision;
  /** Every comment of its history, oldest first. */
  readonly comments: ReadonlyArray<string>;
}

/** Every alert of the account that matches `query` (page fields checked, then ignored), with its decision. */
export async function exportAlerts(
  ctx: EngineContext,
  accountId: string,
  query: AlertListParams = {},
): Promise<ReadonlyArray<AlertExportRow>> {
  // Validated whole (a bad page field is a 400, as on the list), then walked page by page.
  const q = parseInput(alertListQuerySchema, query, "alert export query");
  const alerts: AlertRecord[] = [];
  const pageSize = 100;
  for (let page = 1; ; page += 1) {
    const got = await ctx.store.listAlerts(accountId, q.filter, { page, pageSize });
    if (page === 1 && got.total > MAX_EXPORT_ALERTS) {
      throw new KytError(
        "VALIDATION_ERROR",
        `${got.total} alerts match; an export holds at most ${MAX_EXPORT_ALERTS}: narrow the filter (e.g. created_from and created_to)`,
        { errors: { created_from: [`at most ${MAX_EXPORT_ALERTS} alerts per export`] } },
      );
    }
    alerts.push(...got.items);
    if (got.items.length < pageSize || alerts.length >= got.total) break;
  }
  const transfers = await ctx.store.getTransfers([...new Set(alerts.map((a) => a.transferId))]);
  const byId = new Map(transfers.map((t) => [t.id, t]));
  const decisionsOf = new Map<string, ReadonlyArray<DecisionRecord>>();
  const rows: AlertExportRow[] = [];
  for (const a of alerts) {
    const history = await ctx.store.listAlertHistory(a.id);
    let decisions = decisionsOf.get(a.transferId);
    if (decisions === undefined) {
      decisions = await ctx.store.listDecisionsOfTransfer(a.transferId);
      decisionsOf.set(a.transferId, decisions);
    }
    const transfer = byId.get(a.transferId) ?? null;
    rows.push({
      alert: presentAlert(a, transfer, { single: false }),
      assignee: a.assignee,
      transfer,
      decision: decisionOf(a, history, storedOutcome(decisions, a.id)),
      comments: history.flatMap((e) => (e.comment ? [e.comment] : [])),
    });
  }
  return rows;
}
