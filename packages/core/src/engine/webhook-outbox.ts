/**
 * The webhook outbox: an event is written in the same transaction as the change that causes
 * it, with one delivery job per subscribed webhook, so it is delivered at least once even if
 * the process dies right after the commit. Nothing is written when no active webhook wants the
 * event (a paused webhook is skipped).
 */
import type { WebhookEventType } from "../domain/records.js";
import type { StoreOps } from "../ports/store.js";
import type { EngineContext } from "./engine-context.js";
import { newJob } from "./job-factory.js";

/** Writes `type` with its data to the outbox of `accountId`, inside the caller's transaction. */
export async function recordEvent(
  ctx: EngineContext,
  tx: StoreOps,
  accountId: string,
  type: WebhookEventType,
  data: Readonly<Record<string, unknown>>,
): Promise<void> {
  // A paused webhook gets no new delivery jobs until it is resumed.
  const webhooks = (await tx.listWebhooks(accountId)).filter(
    (w) => w.state === "active" && w.events.includes(type),
  );
  if (webhooks.length === 0) return;
  const event = { id: ctx.ids.next(), accountId, type, payload: data, createdAt: ctx.clock.now() };
  await tx.putWebhookEvent(event);
  for (const webhook of webhooks) {
    await tx.enqueueJob(
      newJob(ctx, "webhook.deliver", accountId, webhook.id, { eventId: event.id, webhookId: webhook.id }),
    );
  }
}
