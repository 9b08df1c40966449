/** Alerts and alert history of the kysely store. */
import {
  type AlertFilter,
  type AlertHistoryRecord,
  type AlertOrder,
  type AlertRecord,
  type AlertStore,
  notFound,
  type RiskRule,
} from "@openkyt/core";
import {
  type Expression,
  type ExpressionBuilder,
  type Insertable,
  type Selectable,
  type SqlBool,
  sql,
} from "kysely";
import {
  changedRows,
  conflictAware,
  type KyselyContext,
  lockedRead,
  lockRow,
  orderText,
} from "./kysely-context.js";
import { type ListOrder, listPage } from "./kysely-list-page.js";
import { runPrecompiled } from "./kysely-precompiled.js";
import type { AlertHistoryTable, AlertsTable, Database } from "./kysely-schema.js";
import { chunksOf, fromJson, INSERT_CHUNK, num, numOrNull, toJson } from "./kysely-values.js";

/** The alert members of the store port. */
export type AlertOps = AlertStore;

/** An alert as a row. */
function toRow(a: AlertRecord): Insertable<AlertsTable> {
  return {
    id: a.id,
    account_id: a.accountId,
    transfer_id: a.transferId,
    dedupe_key: a.dedupeKey,
    created_at: a.createdAt,
    updated_at: a.updatedAt,
    risk_level: a.riskLevel,
    risk_type: a.riskType,
    risk_occurred_at: a.riskOccurredAt,
    alert_status: a.alertStatus,
    entity_category: a.entityCategory,
    proximity: a.proximity,
    value_in_fiat: a.valueInFiat,
    value_share: a.valueShare,
    rule: toJson(a.rule),
    assignee: a.assignee,
  };
}

/** A row as an alert. */
function fromRow(r: Selectable<AlertsTable>): AlertRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    transferId: r.transfer_id,
    dedupeKey: r.dedupe_key,
    createdAt: num(r.created_at),
    updatedAt: numOrNull(r.updated_at),
    riskLevel: r.risk_level as AlertRecord["riskLevel"],
    riskType: r.risk_type as AlertRecord["riskType"],
    riskOccurredAt: num(r.risk_occurred_at),
    alertStatus: r.alert_status as AlertRecord["alertStatus"],
    entityCategory: r.entity_category,
    proximity: r.proximity as AlertRecord["proximity"],
    valueInFiat: numOrNull(r.value_in_fiat),
    valueShare: numOrNull(r.value_share),
    rule: fromJson<RiskRule>(r.rule),
    assignee: r.assignee,
  };
}

/** A row as a history entry. */
function historyFromRow(r: Selectable<AlertHistoryTable>): AlertHistoryRecord {
  return {
    id: r.id,
    alertId: r.alert_id,
    at: num(r.at),
    actor: r.actor,
    from: r.from_status as AlertHistoryRecord["from"],
    to: r.to_status as AlertHistoryRecord["to"],
    comment: r.comment,
    assignee: r.assignee,
  };
}

/** The WHERE of the alert list; client, network and token filters look at the alert's transfer. */
function listConditions(
  eb: ExpressionBuilder<Database, "alerts">,
  accountId: string,
  f: AlertFilter,
): Expression<SqlBool> {
  const c: Expression<SqlBool>[] = [eb("account_id", "=", accountId)];
  if (f.riskType !== undefined) c.push(eb("risk_type", "=", f.riskType));
  if (f.riskLevel !== undefined) c.push(eb("risk_level", "=", f.riskLevel));
  if (f.alertStatus !== undefined) c.push(eb("alert_status", "=", f.alertStatus));
  if (f.createdFrom !== undefined) c.push(eb("created_at", ">=", f.createdFrom));
  if (f.createdTo !== undefined) c.push(eb("created_at", "<=", f.createdTo));
  if (f.occurredFrom !== undefined) c.push(eb("risk_occurred_at", ">=", f.occurredFrom));
  if (f.occurredTo !== undefined) c.push(eb("risk_occurred_at", "<=", f.occurredTo));
  if (f.entityCategory !== undefined) c.push(eb("entity_category", "=", f.entityCategory));
  if (f.proximity !== undefined) c.push(eb("proximity", "=", f.proximity));
  if (f.assignee === null) c.push(eb("assignee", "is", null));
  else if (f.assignee !== undefined) c.push(eb("assignee", "=", f.assignee));
  if (f.active === true) c.push(eb("alert_status", "!=", "done"));
  if (f.overdue !== undefined) {
    const levels = Object.entries(f.overdue).filter((e): e is [string, number] => e[1] !== undefined);
    c.push(
      eb.or(
        levels.map(([level, cutoff]) =>
          eb.and([eb("risk_level", "=", level), eb("created_at", "<", cutoff)]),
        ),
      ),
    );
  }
  const t: Array<(tb: ExpressionBuilder<Database, "transfers">) => Expression<SqlBool>> = [];
  if (f.clientId !== undefined) t.push((tb) => tb("client_id", "=", f.clientId!));
  if (f.network !== undefined) t.push((tb) => tb("network", "=", f.network!));
  if (f.tokenId !== undefined) t.push((tb) => tb("token_id", "=", f.tokenId!));
  if (f.tokenSymbol !== undefined) {
    const symbol = f.tokenSymbol.toLowerCase();
    t.push((tb) => tb(tb.fn("lower", ["token_symbol"]), "=", symbol));
  }
  if (f.search !== undefined) {
    const q = f.search.toLowerCase();
    const part = `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    const like = (column: "tx_hash" | "input_address" | "output_address") =>
      sql<SqlBool>`lower(${sql.ref(column)}) like ${part} escape '\\'`;
    const found = eb
      .selectFrom("transfers")
      .select("transfers.id")
      .where("transfers.account_id", "=", accountId)
      .where((tb) =>
        tb.or([
          tb(tb.fn("lower", ["transfers.id"]), "=", q),
          tb(tb.fn("lower", ["client_id"]), "=", q),
          like("tx_hash"),
          like("input_address"),
          like("output_address"),
        ]),
      );
    c.push(eb.or([eb(eb.fn("lower", ["alerts.id"]), "=", q), eb("transfer_id", "in", found)]));
  }
  if (t.length > 0) {
    // An alert's transfer is of the alert's account: saying so lets the account's indexes serve.
    const transfers = eb
      .selectFrom("transfers")
      .select("transfers.id")
      .where("transfers.account_id", "=", accountId)
      .where((tb) => tb.and(t.map((condition) => condition(tb))));
    c.push(eb("transfer_id", "in", transfers));
  }
  return eb.and(c);
}

/** The rank of a rule level in SQL: severe 4 down to low 1. */
const LEVEL_RANK = sql<number>`case risk_level when 'severe' then 4 when 'high' then 3 when 'medium' then 2 else 1 end`;

/** The list order of `order` (see `AlertOrder`): ties newest first, then by id. */
function alertListOrder(order: AlertOrder = "newest"): ListOrder<"alerts"> {
  if (order === "oldest") return { key: "created_at", tie: "id", direction: "asc" };
  if (order === "level") return { key: LEVEL_RANK, secondKey: "created_at", tie: "id", direction: "desc" };
  if (order === "value")
    return { key: sql`coalesce(value_in_fiat, -1)`, secondKey: "created_at", tie: "id", direction: "desc" };
  return { key: "created_at", tie: "id", direction: "desc" };
}

/** A history entry as a row at `position`, its columns in one order (a precompiled insert takes them so). */
function historyRow(entry: AlertHistoryRecord, position: number) {
  return {
    id: entry.id,
    alert_id: entry.alertId,
    position,
    at: entry.at,
    actor: entry.actor,
    from_status: entry.from,
    to_status: entry.to,
    comment: entry.comment,
    assignee: entry.assignee,
  };
}

/** Creates the alert members over `ctx`. */
export function kyselyAlertOps(ctx: KyselyContext): AlertOps {
  const { db } = ctx;
  return {
    async insertAlert(record) {
      const result = await db
        .insertInto("alerts")
        .values(toRow(record))
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirstOrThrow();
      return changedRows(result) === 1;
    },
    async updateAlert(record) {
      const { id, ...changes } = toRow(record);
      const result = await db
        .updateTable("alerts")
        .set(changes)
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      if (changedRows(result) === 0) throw notFound("alert", id);
    },
    async getAlert(id) {
      const row = await lockedRead(ctx, "alerts", db.selectFrom("alerts").selectAll().where("id", "=", id));
      return row ? fromRow(row) : null;
    },
    async listAlerts(accountId, filter, page) {
      const matching = db
        .selectFrom("alerts")
        .selectAll()
        .where((eb) => listConditions(eb, accountId, filter));
      return listPage(ctx, matching, alertListOrder(filter.order), page, fromRow);
    },
    async listAlertsOfTransfer(transferId) {
      const rows = await db
        .selectFrom("alerts")
        .selectAll()
        .where("transfer_id", "=", transferId)
        .orderBy("created_at", "asc")
        .orderBy(orderText(ctx, "id"), "asc")
        .execute();
      return rows.map(fromRow);
    },
    async appendAlertHistory(entry) {
      await ctx.atomic(async (tx) => {
        await lockRow(ctx, tx, "alerts", entry.alertId);
        const { last } = await tx
          .selectFrom("alert_history")
          .select((eb) => eb.fn.max("position").as("last"))
          .where("alert_id", "=", entry.alertId)
          .executeTakeFirstOrThrow();
        await tx
          .insertInto("alert_history")
          .values(historyRow(entry, (numOrNull(last) ?? 0) + 1))
          .execute();
      });
    },
    async appendFirstAlertHistory(entries) {
      if (entries.length === 0) return;
      await ctx.atomic(async (tx) => {
        for (const chunk of chunksOf(entries, INSERT_CHUNK)) {
          // Position 1 for each: the unique (alert_id, position) refuses an alert with history.
          const rows = chunk.map((entry) => historyRow(entry, 1));
          await conflictAware(ctx, "an alert's first history entry", () =>
            runPrecompiled(
              tx,
              `alertHistory.insertFirst:${rows.length}`,
              () => tx.insertInto("alert_history").values(rows),
              rows.flatMap((row) => Object.values(row)),
            ),
          );
        }
      });
    },
    async listAlertHistory(alertId) {
      const rows = await db
        .selectFrom("alert_history")
        .selectAll()
        .where("alert_id", "=", alertId)
        .orderBy("at", "asc")
        .orderBy("position", "asc")
        .execute();
      return rows.map(historyFromRow);
    },
  };
}
