/**
 * The analyst's queue: the alert list with its assignee, SLA due time and breach, the triage
 * filters (mine, unassigned, active, breached, search) and orders; the overview's counts; and a
 * bulk change answered alert by alert (each alert in its own transaction: one refusal leaves the
 * others changed), audited once.
 */
import { slaCutoffs } from "../../domain/casework.js";
import type { AlertRecord } from "../../domain/records.js";
import { fieldError, isKytError, type KytError } from "../../errors.js";
import type { AlertFilter } from "../../ports/store.js";
import {
  alertBulkChangeSchema,
  alertListQuerySchema,
  parseInput,
  presentAlertWorkflow,
  presentPage,
  queueOnlyFields,
  queueOnlySchema,
  queueSummaryQuerySchema,
} from "../../schemas/index.js";
import type { EngineContext } from "../engine-context.js";
import { applyChange, loadAlert } from "../use-cases/alert-workflow.js";
import { recordAudit } from "./audit-log.js";
import { slaHoursOf, slaOf } from "./sla-policy.js";

/** Shortest search text: shorter parts of a hash match too much to be useful. */
export const MIN_SEARCH_LENGTH = 3;

const QUEUE_KEYS = new Set(Object.keys(queueOnlyFields));

/** GET /v1/queue/: a page of the queue. */
export async function listQueue(
  ctx: EngineContext,
  accountId: string,
  query: Readonly<Record<string, unknown>>,
) {
  const own: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query ?? {})) (QUEUE_KEYS.has(k) ? own : rest)[k] = v;
  const q = parseInput(queueOnlySchema, own, "queue query");
  const base = parseInput(alertListQuerySchema, rest, "queue query");
  if (q.assignee !== undefined && q.unassigned === "true")
    throw fieldError("unassigned", "cannot be asked for together with assignee");
  if (q.q !== undefined && q.q.trim().length < MIN_SEARCH_LENGTH)
    throw fieldError("q", `give at least ${MIN_SEARCH_LENGTH} characters`);
  const hours = await slaHoursOf(ctx.store, accountId);
  const now = ctx.clock.now();
  const filter: AlertFilter = {
    ...base.filter,
    ...(q.assignee === undefined ? {} : { assignee: q.assignee.toLowerCase() }),
    ...(q.unassigned === "true" ? { assignee: null } : {}),
    ...(q.active === "true" || q.breached === "true" ? { active: true } : {}),
    ...(q.breached === "true" ? { overdue: slaCutoffs(hours, now) } : {}),
    ...(q.q === undefined ? {} : { search: q.q.trim() }),
    ...(q.sort === undefined ? {} : { order: q.sort }),
  };
  const page = await ctx.store.listAlerts(accountId, filter, base);
  const transfers = new Map(
    (await ctx.store.getTransfers([...new Set(page.items.map((a) => a.transferId))])).map((t) => [t.id, t]),
  );
  const items = page.items.map((a) => ({
    ...presentAlertWorkflow(a, transfers.get(a.transferId) ?? null),
    ...slaOf(hours, a, now),
  }));
  return presentPage(items, page.total, base);
}

/** GET /v1/queue/summary/: the overview's counts (mine: of the assignee asked for). */
export async function queueSummary(ctx: EngineContext, accountId: string, query: unknown) {
  const q = parseInput(queueSummaryQuerySchema, query, "queue summary query");
  const hours = await slaHoursOf(ctx.store, accountId);
  const overdue = slaCutoffs(hours, ctx.clock.now());
  const count = async (filter: AlertFilter) =>
    (await ctx.store.listAlerts(accountId, { active: true, ...filter }, { page: 1, pageSize: 1 })).total;
  const me = q.assignee?.toLowerCase();
  const [mine, mineBreached, unassigned, breached, active] = await Promise.all([
    me === undefined ? 0 : count({ assignee: me }),
    me === undefined ? 0 : count({ assignee: me, overdue }),
    count({ assignee: null }),
    count({ overdue }),
    count({}),
  ]);
  return { mine, mine_breached: mineBreached, unassigned, breached, active };
}

/** One answer of the bulk change: the alert as changed, or why it was not. */
export type BulkChangeResult =
  | { readonly id: string; readonly ok: true; readonly alert: AlertRecord }
  | { readonly id: string; readonly ok: false; readonly error: KytError };

/** POST /v1/alerts/bulk-change/: the change applied to each alert on its own, answered in order. */
export async function bulkChangeAlerts(
  ctx: EngineContext,
  accountId: string,
  body: unknown,
  actor: string | null,
) {
  const input = parseInput(alertBulkChangeSchema, body, "bulk alert change");
  const change = {
    ...(input.alert_status === undefined ? {} : { alert_status: input.alert_status }),
    ...(input.assignee === undefined ? {} : { assignee: input.assignee }),
    ...(input.comment === undefined ? {} : { comment: input.comment }),
  };
  const results: BulkChangeResult[] = [];
  for (const id of [...new Set(input.ids)]) {
    try {
      const alert = await ctx.store.transaction(async (tx) =>
        applyChange(ctx, tx, await loadAlert(tx, accountId, id), change, actor),
      );
      ctx.events.emit("alert.updated", alert);
      results.push({ id, ok: true, alert });
    } catch (error) {
      if (!isKytError(error)) throw error;
      results.push({ id, ok: false, error });
    }
  }
  const changed = results.filter((r) => r.ok).length;
  await recordAudit(ctx, ctx.store, accountId, {
    action: "alerts.bulk_updated",
    actor,
    details: { ids: results.map((r) => r.id), ...change, changed, refused: results.length - changed },
  });
  ctx.wake();
  const transfers = new Map(
    (await ctx.store.getTransfers(results.flatMap((r) => (r.ok ? [r.alert.transferId] : [])))).map((t) => [
      t.id,
      t,
    ]),
  );
  return results.map((r) =>
    r.ok
      ? {
          id: r.id,
          ok: true as const,
          alert: presentAlertWorkflow(r.alert, transfers.get(r.alert.transferId) ?? null),
        }
      : r,
  );
}
