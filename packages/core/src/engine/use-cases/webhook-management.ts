/**
 * Managing an account's webhooks: subscribe (the secret is shown once; a target the policy
 * refuses is a 400 naming `url`), list, delete, resume a paused one, and read delivery attempts.
 */
import type { WebhookRecord } from "../../domain/records.js";
import { fieldError, KytError, notFound } from "../../errors.js";
import {
  lookupId,
  pageQuerySchema,
  parseInput,
  presentPage,
  presentWebhook,
  presentWebhookDelivery,
  webhookCreateSchema,
} from "../../schemas/index.js";
import type { PageListParams, WebhookCreateRequest } from "../../schemas/request-types.js";
import type { EngineContext } from "../engine-context.js";
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
      return presentPage(page.items.map(presentWebhookDelivery), page.total, q);
    },
  });
}
