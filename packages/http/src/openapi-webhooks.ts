/**
 * The `webhooks` section of the OpenAPI document: what OpenKYT POSTs to a subscribed URL for
 * each event type, with the signature headers. The payload schemas are built from the same
 * response schemas the endpoints answer.
 */
import {
  alertWorkflowResponseSchema,
  manualCheckResponseSchema,
  TX_STATUSES,
  transferResponseSchema,
  type WebhookEventType,
} from "@openkyt/core";
import { z } from "zod";

/** The `data` of each event type. */
export const WEBHOOK_EVENT_DATA: Readonly<Record<WebhookEventType, z.ZodType>> = Object.freeze({
  "transfer.checked": z.strictObject({ transfer: transferResponseSchema }),
  "transfer.status_changed": z.strictObject({
    transfer: transferResponseSchema,
    from: z.enum(TX_STATUSES).describe("tx_status before the change."),
  }),
  "alert.created": z.strictObject({ alert: alertWorkflowResponseSchema }),
  "alert.updated": z.strictObject({ alert: alertWorkflowResponseSchema }),
  "manual_check.completed": z.strictObject({ manual_check: manualCheckResponseSchema }),
  "webhook.test": z.strictObject({ webhook_id: z.string(), message: z.string() }),
});

const SUMMARIES: Readonly<Record<WebhookEventType, string>> = {
  "transfer.checked": "A transfer's checks finished (its risks and alerts are written).",
  "transfer.status_changed": "A transfer's tx_status changed (binding, bound, not_found, error).",
  "alert.created": "A check raised an alert.",
  "alert.updated": "An alert's status, assignee or comments changed.",
  "manual_check.completed": "A manual check is checked or in error.",
  "webhook.test": "A test event an admin sent (POST /v1/webhooks/{id}/test/), to this webhook only.",
};

const HEADERS = {
  "openkyt-signature": {
    description:
      't=<unix ms>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>; verify with verifyWebhookSignature from @openkyt/client.',
    required: true,
    schema: { type: "string" },
  },
  "openkyt-event": { description: "The event type.", required: true, schema: { type: "string" } },
  "openkyt-delivery": {
    description: "The event id: the same on every retry of one event (deduplicate on it).",
    required: true,
    schema: { type: "string" },
  },
};

/** The OpenAPI 3.1 `webhooks` object, one entry per event type. */
export function openApiWebhooks(
  toJsonSchema: (schema: z.ZodType) => Record<string, unknown>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(WEBHOOK_EVENT_DATA).map(([type, data]) => {
      const envelope = z
        .strictObject({
          id: z.string().describe("The event id (also in openkyt-delivery)."),
          type: z.literal(type),
          created_at: z.string().describe("When the event happened (ISO 8601, UTC)."),
          data,
        })
        .describe(`The ${type} event.`);
      return [
        type,
        {
          post: {
            operationId: `webhook_${type.replace(".", "_")}`,
            summary: SUMMARIES[type as WebhookEventType],
            parameters: Object.entries(HEADERS).map(([name, h]) => ({ name, in: "header", ...h })),
            requestBody: {
              required: true,
              content: { "application/json": { schema: toJsonSchema(envelope) } },
            },
            responses: {
              "2XX": { description: "Received. Anything else (or no answer within 5 s) is retried." },
            },
          },
        },
      ];
    }),
  );
}
