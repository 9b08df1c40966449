/** Managing an account's webhooks: subscribe (the secret is shown once), list, delete, and read delivery attempts. */
import type { WebhookRecord } from "../domain/records.js";
import { notFound } from "../errors.js";
import {
  pageQuerySchema,
  parseInput,
  presentPage,
  presentWebhook,
  presentWebhookDelivery,
  webhookCreateSchema,
} from "../schemas/index.js";
import { randomToken } from "./api-keys.js";
import type { EngineContext } from "./engine-context.js";

/** The webhook operations of one account. */
export function webhookManagement(ctx: EngineContext, accountId: string) {
  const load = async (id: string): Promise<WebhookRecord> => {
    const webhook = await ctx.store.getWebhook(id);
    if (!webhook || webhook.accountId !== accountId || webhook.deletedAt !== null)
      throw notFound("webhook", id);
    return webhook;
  };
  return Object.freeze({
    /** POST /v1/webhooks/: the answer carries the signing secret, the only time it is shown. */
    async create(body: unknown) {
      const input = parseInput(webhookCreateSchema, body, "webhook");
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
    /** GET /v1/webhooks/{id}/deliveries/: newest first, paginated. */
    async deliveries(id: string, query: unknown = {}) {
      const webhook = await load(id);
      const q = parseInput(pageQuerySchema, query, "page query");
      const page = await ctx.store.listWebhookDeliveries(webhook.id, q);
      return presentPage(page.items.map(presentWebhookDelivery), page.total, q);
    },
  });
}
