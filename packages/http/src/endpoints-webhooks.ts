/**
 * Webhook subscriptions beyond the published interface: create (the only answer carrying the
 * signing secret), list, read, delete, resume a paused one, and the recorded delivery attempts.
 */
import {
  pageQuerySchema,
  pageSchema,
  webhookCreateSchema,
  webhookDeliveryResponseSchema,
  webhookResponseSchema,
} from "@openkyt/core";
import { z } from "zod";
import { bodiless, deletedResponseSchema, type Endpoint, json, wireBody } from "./endpoint-types.js";

const tag = "webhooks" as const;

/** The webhook endpoints. */
export const WEBHOOK_ENDPOINTS: ReadonlyArray<Endpoint> = [
  {
    operationId: "createWebhook",
    method: "POST",
    path: "/v1/webhooks/",
    summary:
      "Subscribes a URL to event types. The answer carries the signing `secret`, shown this once. A URL whose host is, or resolves to, a loopback, private, link-local or other reserved address is refused (400 naming `url`) unless the server allows private targets.",
    tag,
    status: 201,
    body: webhookCreateSchema,
    response: webhookResponseSchema,
    errors: [],
    run: async (api, { body }) => json(await api.webhooks.create(wireBody(body)), 201),
  },
  {
    operationId: "listWebhooks",
    method: "GET",
    path: "/v1/webhooks/",
    summary: "The account's webhooks (a bare array; never the secrets).",
    tag,
    status: 200,
    response: z.array(webhookResponseSchema).describe("The webhooks."),
    errors: [],
    run: async (api) => json(await api.webhooks.list()),
  },
  {
    operationId: "getWebhook",
    method: "GET",
    path: "/v1/webhooks/{id}/",
    summary: "One webhook (without its secret).",
    tag,
    status: 200,
    response: webhookResponseSchema,
    errors: [404],
    run: async (api, { id }) => json(await api.webhooks.get(id)),
  },
  {
    operationId: "deleteWebhook",
    method: "DELETE",
    path: "/v1/webhooks/{id}/",
    summary: "Deletes a webhook: nothing is delivered to it afterwards, retries included.",
    tag,
    status: 200,
    response: deletedResponseSchema,
    errors: [404],
    ...bodiless((api, { id }) => api.webhooks.remove(id)),
  },
  {
    operationId: "resumeWebhook",
    method: "POST",
    path: "/v1/webhooks/{id}/resume/",
    summary:
      "Resumes a webhook paused after too many consecutive failed deliveries: it is `active` again with no failure counted (events of the pause are not delivered). An active one is returned unchanged.",
    tag,
    status: 200,
    response: webhookResponseSchema,
    errors: [404],
    ...bodiless((api, { id }) => api.webhooks.resume(id)),
  },
  {
    operationId: "listWebhookDeliveries",
    method: "GET",
    path: "/v1/webhooks/{id}/deliveries/",
    summary: "Every delivery attempt to the webhook, newest first (retries included).",
    tag,
    status: 200,
    query: pageQuerySchema,
    response: pageSchema(webhookDeliveryResponseSchema),
    errors: [404],
    run: async (api, { id, query }) => json(await api.webhooks.deliveries(id, query)),
  },
];
