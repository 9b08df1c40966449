/** Decisions, the audit log, SLA policies, saved views and user roles of the kysely store. */
import {
  type AuditAction,
  type AuditEventRecord,
  type CaseworkStoreOps,
  type DecisionOutcome,
  type DecisionRecord,
  KytError,
  type SavedViewRecord,
  type SlaHours,
} from "@openkyt/core";
import type { Expression, Selectable, SqlBool } from "kysely";
import { changedRows, type KyselyContext, orderText } from "./kysely-context.js";
import { listPage } from "./kysely-list-page.js";
import type { AuditEventsTable, DecisionsTable, SavedViewsTable } from "./kysely-schema.js";
import { fromJson, num, toJson } from "./kysely-values.js";

function decisionFromRow(r: Selectable<DecisionsTable>): DecisionRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    transferId: r.transfer_id,
    alertIds: fromJson<string[]>(r.alert_ids),
    outcome: r.outcome as DecisionOutcome,
    comment: r.comment,
    actor: r.actor,
    decidedAt: num(r.decided_at),
  };
}

function auditFromRow(r: Selectable<AuditEventsTable>): AuditEventRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    at: num(r.at),
    actor: r.actor,
    action: r.action as AuditAction,
    subject: r.subject,
    details: fromJson<Record<string, unknown>>(r.details),
  };
}

function viewFromRow(r: Selectable<SavedViewsTable>): SavedViewRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    userId: r.user_id,
    name: r.name,
    query: r.query,
    createdAt: num(r.created_at),
    shared: num(r.shared) === 1,
  };
}

/** Creates the casework members over `ctx`. */
export function kyselyCaseworkOps(ctx: KyselyContext): CaseworkStoreOps {
  const { db } = ctx;
  return {
    async insertDecision(record) {
      const result = await db
        .insertInto("decisions")
        .values({
          id: record.id,
          account_id: record.accountId,
          transfer_id: record.transferId,
          alert_ids: toJson(record.alertIds),
          outcome: record.outcome,
          comment: record.comment,
          actor: record.actor,
          decided_at: record.decidedAt,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirstOrThrow();
      if (changedRows(result) === 0) throw new KytError("CONFLICT", `decision ${record.id} exists`);
    },
    async listDecisionsOfTransfer(transferId) {
      const rows = await db
        .selectFrom("decisions")
        .selectAll()
        .where("transfer_id", "=", transferId)
        .orderBy("decided_at", "asc")
        .orderBy(orderText(ctx, "id"), "asc")
        .execute();
      return rows.map(decisionFromRow);
    },
    async appendAuditEvent(record) {
      const result = await db
        .insertInto("audit_events")
        .values({
          id: record.id,
          account_id: record.accountId,
          at: record.at,
          actor: record.actor,
          action: record.action,
          subject: record.subject,
          details: toJson(record.details),
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirstOrThrow();
      if (changedRows(result) === 0) throw new KytError("CONFLICT", `audit entry ${record.id} exists`);
    },
    async listAuditEvents(accountId, f, page) {
      const matching = db
        .selectFrom("audit_events")
        .selectAll()
        .where((eb) => {
          const c: Expression<SqlBool>[] = [eb("account_id", "=", accountId)];
          if (f.action !== undefined) c.push(eb("action", "=", f.action));
          if (f.actor !== undefined) c.push(eb("actor", "=", f.actor));
          if (f.subject !== undefined) c.push(eb("subject", "=", f.subject));
          if (f.from !== undefined) c.push(eb("at", ">=", f.from));
          if (f.to !== undefined) c.push(eb("at", "<=", f.to));
          return eb.and(c);
        });
      return listPage(ctx, matching, { key: "at", tie: "id", direction: "desc" }, page, auditFromRow);
    },
    async getSlaPolicy(accountId) {
      const row = await db
        .selectFrom("sla_policies")
        .selectAll()
        .where("account_id", "=", accountId)
        .executeTakeFirst();
      if (!row) return null;
      return {
        accountId: row.account_id,
        hours: fromJson<SlaHours>(row.hours),
        updatedAt: num(row.updated_at),
        updatedBy: row.updated_by,
      };
    },
    async putSlaPolicy(record) {
      const values = {
        hours: toJson(record.hours),
        updated_at: record.updatedAt,
        updated_by: record.updatedBy,
      };
      await db
        .insertInto("sla_policies")
        .values({ account_id: record.accountId, ...values })
        .onConflict((oc) => oc.column("account_id").doUpdateSet(values))
        .execute();
    },
    async putSavedView(record) {
      const result = await db
        .insertInto("saved_views")
        .values({
          id: record.id,
          account_id: record.accountId,
          user_id: record.userId,
          name: record.name,
          query: record.query,
          created_at: record.createdAt,
          shared: record.shared ? 1 : 0,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirstOrThrow();
      if (changedRows(result) === 0)
        throw new KytError(
          "CONFLICT",
          `saved view ${record.id} or one named ${JSON.stringify(record.name)} exists`,
        );
    },
    async listSavedViews(userId) {
      const rows = await db
        .selectFrom("saved_views")
        .selectAll()
        .where("user_id", "=", userId)
        .orderBy(orderText(ctx, "name"), "asc")
        .orderBy(orderText(ctx, "id"), "asc")
        .execute();
      return rows.map(viewFromRow);
    },
    async listSharedViews(accountId) {
      const rows = await db
        .selectFrom("saved_views")
        .selectAll()
        .where("account_id", "=", accountId)
        .where("shared", "=", 1)
        .orderBy(orderText(ctx, "name"), "asc")
        .orderBy(orderText(ctx, "id"), "asc")
        .execute();
      return rows.map(viewFromRow);
    },
    async getSavedView(id) {
      const row = await db.selectFrom("saved_views").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? viewFromRow(row) : null;
    },
    async setSavedViewShared(userId, id, shared) {
      const result = await db
        .updateTable("saved_views")
        .set({ shared: shared ? 1 : 0 })
        .where("id", "=", id)
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow();
      return changedRows(result) > 0;
    },
    async deleteSavedView(userId, id) {
      const result = await db
        .deleteFrom("saved_views")
        .where("id", "=", id)
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow();
      return changedRows(result) > 0;
    },
    async setUserRole(id, role) {
      const result = await db
        .updateTable("users")
        .set({ role })
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      return changedRows(result) > 0;
    },
  };
}
