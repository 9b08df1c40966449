/**
 * Webhook subscriptions beyond the published interface: create (the only answer carrying the
 * signing secret), list, read, delete, resume a paused one, the recorded delivery attempts with
 * their events, a redelivery of an event and a test event.
 */
import {
  pageQuerySchema,
  pageSchema,
  webhookCreateSchema,
  webhookDeliveryResponseSchema,
  webhookQueuedResponseSchema,
  webhookRedeliverSchema,
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
  {
    operationId: "redeliverWebhookEvent",
    method: "POST",
    path: "/v1/webhooks/{id}/redeliver/",
    summary:
      "Delivers one of the account's events (`event_id`, from a delivery) to the webhook again, as a new delivery signed anew with the same event id. 409 while the webhook is paused.",
    tag,
    status: 200,
    body: webhookRedeliverSchema,
    response: webhookQueuedResponseSchema,
    errors: [404, 409],
    run: async (api, { id, body }) => json(await api.webhooks.redeliver(id, wireBody(body))),
  },
  {
    operationId: "sendWebhookTest",
    method: "POST",
    path: "/v1/webhooks/{id}/test/",
    summary:
      "Sends a `webhook.test` event to this webhook only (whatever it subscribed to). 409 while the webhook is paused.",
    tag,
    status: 200,
    response: webhookQueuedResponseSchema,
    errors: [404, 409],
    ...bodiless((api, { id }) => api.webhooks.sendTest(id)),
  },
];
