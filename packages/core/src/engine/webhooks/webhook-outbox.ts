/**
 * The webhook outbox: an event is written in the same transaction as the change that causes
 * it, with one delivery job per subscribed webhook, so it is delivered at least once even if
 * the process dies right after the commit. Nothing is written when no active webhook wants the
 * event (a paused webhook is skipped).
 */
import type { WebhookEventType, WebhookRecord } from "../../domain/records.js";
import type { StoreOps } from "../../ports/store.js";
import type { EngineContext } from "../engine-context.js";
import { newJob } from "../jobs/job-factory.js";

/** An event's data, or a function making it: called only when some webhook wants the event. */
export type EventData = Readonly<Record<string, unknown>> | (() => Readonly<Record<string, unknown>>);

/** Records events in one transaction (see {@link eventOutbox}). */
export interface EventOutbox {
  /** Writes `type` with its data to the outbox of `accountId`. */
  record(accountId: string, type: WebhookEventType, data: EventData): Promise<void>;
}

/**
 * An outbox over the transaction `tx`. It reads an account's webhooks once, when its first
 * event is recorded: a screening batch records several events per transfer, and the webhooks
 * of the accounts in it cannot change inside its transaction (webhooks are written by
 * transactions of their own). Use it for one transaction only.
 */
export function eventOutbox(ctx: EngineContext, tx: StoreOps): EventOutbox {
  const webhooksOf = new Map<string, Promise<ReadonlyArray<WebhookRecord>>>();
  return {
    async record(accountId, type, data) {
      let all = webhooksOf.get(accountId);
      if (!all) {
        all = tx.listWebhooks(accountId);
        webhooksOf.set(accountId, all);
      }
      // A paused webhook gets no new delivery jobs until it is resumed.
      const webhooks = (await all).filter((w) => w.state === "active" && w.events.includes(type));
      if (webhooks.length === 0) return;
      const payload = typeof data === "function" ? data() : data;
      const event = { id: ctx.ids.next(), accountId, type, payload, createdAt: ctx.clock.now() };
      await tx.putWebhookEvent(event);
      for (const webhook of webhooks) {
        await tx.enqueueJob(
          newJob(ctx, "webhook.deliver", accountId, webhook.id, { eventId: event.id, webhookId: webhook.id }),
        );
      }
    },
  };
}

/** Writes `type` with its data to the outbox of `accountId`, inside the caller's transaction. */
export function recordEvent(
  ctx: EngineContext,
  tx: StoreOps,
  accountId: string,
  type: WebhookEventType,
  data: EventData,
): Promise<void> {
  return eventOutbox(ctx, tx).record(accountId, type, data);
}
