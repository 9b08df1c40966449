/**
 * Managing an account's webhooks: subscribe (the secret is shown once; a target the policy
 * refuses is a 400 naming `url`), list, delete, resume a paused one, read delivery attempts with
 * their events, deliver an event again and send a test event.
 */
import type { WebhookEventRecord, WebhookEventType, WebhookRecord } from "../../domain/records.js";
import { fieldError, KytError, notFound } from "../../errors.js";
import {
  lookupId,
  pageQuerySchema,
  parseInput,
  presentPage,
  presentWebhook,
  presentWebhookDelivery,
  webhookCreateSchema,
  webhookRedeliverSchema,
} from "../../schemas/index.js";
import type {
  PageListParams,
  WebhookCreateRequest,
  WebhookRedeliverRequest,
} from "../../schemas/request-types.js";
import type { EngineContext } from "../engine-context.js";
import { newJob } from "../jobs/job-factory.js";
import { NO_WEBHOOK_TRANSPORT } from "../jobs/webhook-delivery.js";
import { randomToken } from "./api-keys.js";

/** The webhook operations of one account. */
export function webhookManagement(ctx: EngineContext, accountId: string) {
  const load = async (id: string): Promise<WebhookRecord> => {
    const webhook = await ctx.store.getWebhook(lookupId("webhook", id));
    if (!webhook || webhook.accountId !== accountId || webhook.deletedAt !== null)
      throw notFound("webhook", id);
    return webhook;
  };
  /**
   * Refuses a URL whose host is a refused address, or a name resolving to one (a name that does
   * not resolve now is accepted: every delivery checks again).
   */
  const checkTarget = async (url: string): Promise<void> => {
    let hostname: string;
    try {
      hostname = new URL(url).hostname;
    } catch {
      throw fieldError("url", "must be an http or https URL");
    }
    const verdict = await ctx.webhookTargets.checkHost(hostname);
    if (verdict.kind !== "refused") return;
    throw fieldError(
      "url",
      "target refused by policy: the host is, or resolves to, a loopback, private, link-local or other " +
        "reserved address (see docs/security.md)",
    );
  };
  /** Refuses to queue for a paused webhook: its deliveries would end without a request. */
  const active = (webhook: WebhookRecord): WebhookRecord => {
    if (webhook.state === "active") return webhook;
    throw new KytError("ILLEGAL_TRANSITION", "the webhook is paused: resume it before delivering to it");
  };
  /** Queues one delivery of `event` to `webhook` (a job of its own, retried as any delivery). */
  const queue = async (webhook: WebhookRecord, event: WebhookEventRecord, store: boolean) => {
    await ctx.store.transaction(async (tx) => {
      if (store) await tx.putWebhookEvent(event);
      await tx.enqueueJob(
        newJob(ctx, "webhook.deliver", accountId, webhook.id, { eventId: event.id, webhookId: webhook.id }),
      );
    });
    ctx.wake();
    const type: WebhookEventType = event.type;
    return { webhook_id: webhook.id, event_id: event.id, event_type: type, queued: true as const };
  };
  return Object.freeze({
    /** POST /v1/webhooks/: the answer carries the signing secret, the only time it is shown. */
    async create(body: WebhookCreateRequest) {
      const input = parseInput(webhookCreateSchema, body, "webhook");
      if (!ctx.webhooksDeliverable) throw new KytError("NOT_CONFIGURED", NO_WEBHOOK_TRANSPORT);
      await checkTarget(input.url);
      const id = ctx.ids.next();
      const secret = `whsec_${randomToken(40)}`;
      const record: WebhookRecord = {
        id,
        accountId,
        url: input.url,
        events: [...new Set(input.events)],
        secret: ctx.vault.seal(id, secret),
        createdAt: ctx.clock.now(),
        deletedAt: null,
        state: "active",
        pausedAt: null,
        pausedReason: null,
        consecutiveFailures: 0,
      };
      await ctx.store.putWebhook(record);
      return presentWebhook(record, secret);
    },
    /** GET /v1/webhooks/ */
    async list() {
      return (await ctx.store.listWebhooks(accountId)).map((w) => presentWebhook(w));
    },
    /** GET /v1/webhooks/{id}/ */
    async get(id: string) {
      return presentWebhook(await load(id));
    },
    /** DELETE /v1/webhooks/{id}/: no event is delivered to it afterwards. */
    async remove(id: string) {
      await load(id);
      await ctx.store.deleteWebhook(id, ctx.clock.now());
      return { id, deleted: true };
    },
    /**
     * POST /v1/webhooks/{id}/resume/: a paused webhook is active again, its failure count reset
     * (events that happened while it was paused are not delivered). Resuming an active one
     * changes nothing.
     */
    async resume(id: string) {
      await load(id);
      await ctx.store.resumeWebhook(id);
      return presentWebhook(await load(id));
    },
    /** GET /v1/webhooks/{id}/deliveries/: newest first, paginated. */
    async deliveries(id: string, query: PageListParams = {}) {
      const webhook = await load(id);
      const q = parseInput(pageQuerySchema, query, "page query");
      const page = await ctx.store.listWebhookDeliveries(webhook.id, q);
      const events = new Map<string, WebhookEventRecord | null>();
      for (const d of page.items) {
        if (events.has(d.eventId)) continue;
        const event = await ctx.store.getWebhookEvent(d.eventId);
        events.set(d.eventId, event && event.accountId === accountId ? event : null);
      }
      const items = page.items.map((d) => presentWebhookDelivery(d, events.get(d.eventId) ?? null));
      return presentPage(items, page.total, q);
    },
    /**
     * POST /v1/webhooks/{id}/redeliver/: the account's event `event_id` is delivered to the
     * webhook again, as a new delivery with attempts of its own (signed anew, same event id, so
     * a receiver that deduplicates by id sees the same event). 404 for an event of another
     * account; 409 while the webhook is paused.
     */
    async redeliver(id: string, body: WebhookRedeliverRequest) {
      const webhook = await load(id);
      const input = parseInput(webhookRedeliverSchema, body, "redelivery");
      const event = await ctx.store.getWebhookEvent(input.event_id);
      if (!event || event.accountId !== accountId) throw notFound("webhook event", input.event_id);
      return queue(active(webhook), event, false);
    },
    /**
     * POST /v1/webhooks/{id}/test/: a `webhook.test` event, delivered to this webhook only
     * (whatever it subscribed to), so an admin can check the receiver and its signature check.
     */
    async sendTest(id: string) {
      const webhook = active(await load(id));
      const event: WebhookEventRecord = {
        id: ctx.ids.next(),
        accountId,
        type: "webhook.test",
        payload: {
          webhook_id: webhook.id,
          message: "A test event sent from OpenKYT: the receiver and its signature check work.",
        },
        createdAt: ctx.clock.now(),
      };
      return queue(webhook, event, true);
    },
  });
}
