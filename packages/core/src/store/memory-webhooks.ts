/** Webhook subscriptions, the event outbox and delivery attempts of the in-memory store. */
import { KytError } from "../errors.js";
import type { WebhookStore } from "../ports/store.js";
import { type Journal, setEntry } from "./memory-journal.js";
import { compareStrings, copy, type MemoryTables, oldestFirst, pageOf } from "./memory-state.js";

/** The webhook members of the store port. */
export type WebhookOps = WebhookStore;

/** Creates the webhook members over `tables`, writing through `journal`. */
export function memoryWebhookOps(tables: MemoryTables, journal: Journal): WebhookOps {
  const { webhooks, webhookEvents, webhookDeliveries } = tables;
  return {
    async putWebhook(record) {
      if (webhooks.has(record.id)) throw new KytError("CONFLICT", `webhook ${record.id} exists`);
      setEntry(journal, webhooks, record.id, copy(record));
    },
    async getWebhook(id) {
      const record = webhooks.get(id);
      return record ? copy(record) : null;
    },
    async listWebhooks(accountId) {
      const live = [...webhooks.values()].filter((w) => w.accountId === accountId && w.deletedAt === null);
      return live.sort(oldestFirst((w) => w.createdAt)).map(copy);
    },
    async deleteWebhook(id, at) {
      const record = webhooks.get(id);
      if (!record || record.deletedAt !== null) return false;
      setEntry(journal, webhooks, id, { ...record, deletedAt: at });
      return true;
    },
    async putWebhookEvent(record) {
      if (webhookEvents.has(record.id)) throw new KytError("CONFLICT", `webhook event ${record.id} exists`);
      setEntry(journal, webhookEvents, record.id, copy(record));
    },
    async getWebhookEvent(id) {
      const record = webhookEvents.get(id);
      return record ? copy(record) : null;
    },
    async appendWebhookDelivery(record) {
      const list = webhookDeliveries.get(record.webhookId) ?? [];
      setEntry(journal, webhookDeliveries, record.webhookId, [...list, copy(record)]);
    },
    async listWebhookDeliveries(webhookId, page) {
      const list = [...(webhookDeliveries.get(webhookId) ?? [])];
      list.sort((a, b) => b.at - a.at || compareStrings(b.id, a.id));
      return pageOf(list.map(copy), page);
    },
    async noteWebhookDelivery(id, outcome) {
      const record = webhooks.get(id);
      if (!record) return null;
      const failures = outcome.ok ? 0 : record.consecutiveFailures + 1;
      const pauses = !outcome.ok && record.state === "active" && failures >= outcome.pauseAfter;
      const updated = pauses
        ? {
            ...record,
            consecutiveFailures: failures,
            state: "paused" as const,
            pausedAt: outcome.at,
            pausedReason: outcome.reason,
          }
        : { ...record, consecutiveFailures: failures };
      setEntry(journal, webhooks, id, updated);
      return copy(updated);
    },
    async resumeWebhook(id) {
      const record = webhooks.get(id);
      if (!record || record.deletedAt !== null || record.state !== "paused") return false;
      setEntry(journal, webhooks, id, {
        ...record,
        state: "active",
        pausedAt: null,
        pausedReason: null,
        consecutiveFailures: 0,
      });
      return true;
    },
  };
}
