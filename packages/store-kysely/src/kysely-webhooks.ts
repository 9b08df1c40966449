/** Webhook subscriptions, the event outbox and delivery attempts of the kysely store. */
import {
  KytError,
  type WebhookDeliveryRecord,
  type WebhookEventRecord,
  type WebhookEventType,
  type WebhookRecord,
  type WebhookState,
  type WebhookStore,
} from "@openkyt/core";
import { type Selectable, sql } from "kysely";
import { changedRows, type KyselyContext, orderText } from "./kysely-context.js";
import { listPage } from "./kysely-list-page.js";
import type { WebhookDeliveriesTable, WebhooksTable } from "./kysely-schema.js";
import { fromJson, num, numOrNull, toJson } from "./kysely-values.js";

/** The webhook members of the store port. */
export type WebhookOps = WebhookStore;

function webhookFromRow(r: Selectable<WebhooksTable>): WebhookRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    url: r.url,
    events: fromJson<WebhookEventType[]>(r.events),
    secret: r.secret,
    createdAt: num(r.created_at),
    deletedAt: numOrNull(r.deleted_at),
    state: r.state as WebhookState,
    pausedAt: numOrNull(r.paused_at),
    pausedReason: r.paused_reason,
    consecutiveFailures: num(r.consecutive_failures),
  };
}

function deliveryFromRow(r: Selectable<WebhookDeliveriesTable>): WebhookDeliveryRecord {
  return {
    id: r.id,
    webhookId: r.webhook_id,
    eventId: r.event_id,
    attempt: num(r.attempt),
    at: num(r.at),
    ok: num(r.ok) === 1,
    statusCode: numOrNull(r.status_code),
    error: r.error,
    durationMs: num(r.duration_ms),
  };
}

/** Creates the webhook members over `ctx`. */
export function kyselyWebhookOps(ctx: KyselyContext): WebhookOps {
  const { db } = ctx;
  return {
    async putWebhook(w) {
      const result = await db
        .insertInto("webhooks")
        .values({
          id: w.id,
          account_id: w.accountId,
          url: w.url,
          events: toJson(w.events),
          secret: w.secret,
          created_at: w.createdAt,
          deleted_at: w.deletedAt,
          state: w.state,
          paused_at: w.pausedAt,
          paused_reason: w.pausedReason,
          consecutive_failures: w.consecutiveFailures,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirstOrThrow();
      if (changedRows(result) === 0) throw new KytError("CONFLICT", `webhook ${w.id} exists`);
    },
    async getWebhook(id) {
      const row = await db.selectFrom("webhooks").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? webhookFromRow(row) : null;
    },
    async listWebhooks(accountId) {
      const rows = await db
        .selectFrom("webhooks")
        .selectAll()
        .where("account_id", "=", accountId)
        .where("deleted_at", "is", null)
        .orderBy("created_at", "asc")
        .orderBy(orderText(ctx, "id"), "asc")
        .execute();
      return rows.map(webhookFromRow);
    },
    async deleteWebhook(id, at) {
      const result = await db
        .updateTable("webhooks")
        .set({ deleted_at: at })
        .where("id", "=", id)
        .where("deleted_at", "is", null)
        .executeTakeFirstOrThrow();
      return changedRows(result) === 1;
    },
    async putWebhookEvent(e) {
      const result = await db
        .insertInto("webhook_events")
        .values({
          id: e.id,
          account_id: e.accountId,
          type: e.type,
          payload: toJson(e.payload),
          created_at: e.createdAt,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirstOrThrow();
      if (changedRows(result) === 0) throw new KytError("CONFLICT", `webhook event ${e.id} exists`);
    },
    async getWebhookEvent(id) {
      const r = await db.selectFrom("webhook_events").selectAll().where("id", "=", id).executeTakeFirst();
      if (!r) return null;
      const event: WebhookEventRecord = {
        id: r.id,
        accountId: r.account_id,
        type: r.type as WebhookEventType,
        payload: fromJson<Record<string, unknown>>(r.payload),
        createdAt: num(r.created_at),
      };
      return event;
    },
    async appendWebhookDelivery(d) {
      await db
        .insertInto("webhook_deliveries")
        .values({
          id: d.id,
          webhook_id: d.webhookId,
          event_id: d.eventId,
          attempt: d.attempt,
          at: d.at,
          ok: d.ok ? 1 : 0,
          status_code: d.statusCode,
          error: d.error,
          duration_ms: d.durationMs,
        })
        .execute();
    },
    async listWebhookDeliveries(webhookId, page) {
      const matching = db.selectFrom("webhook_deliveries").selectAll().where("webhook_id", "=", webhookId);
      return listPage(ctx, matching, { key: "at", tie: "id", direction: "desc" }, page, deliveryFromRow);
    },
    async noteWebhookDelivery(id, outcome) {
      // One statement, so concurrent outcomes all count: every right-hand side reads the old row.
      const failures = outcome.ok ? sql<number>`0` : sql<number>`consecutive_failures + 1`;
      const pauses = outcome.ok
        ? sql<boolean>`1 = 0`
        : sql<boolean>`state = 'active' and consecutive_failures + 1 >= ${outcome.pauseAfter}`;
      await db
        .updateTable("webhooks")
        .set({
          consecutive_failures: failures,
          state: sql<string>`case when ${pauses} then 'paused' else state end`,
          paused_at: sql<number | null>`case when ${pauses} then ${outcome.at} else paused_at end`,
          paused_reason: sql<
            string | null
          >`case when ${pauses} then ${outcome.reason} else paused_reason end`,
        })
        .where("id", "=", id)
        .execute();
      const row = await db.selectFrom("webhooks").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? webhookFromRow(row) : null;
    },
    async resumeWebhook(id) {
      const result = await db
        .updateTable("webhooks")
        .set({ state: "active", paused_at: null, paused_reason: null, consecutive_failures: 0 })
        .where("id", "=", id)
        .where("deleted_at", "is", null)
        .where("state", "=", "paused")
        .executeTakeFirstOrThrow();
      return changedRows(result) === 1;
    },
  };
}
