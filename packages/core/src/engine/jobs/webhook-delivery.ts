/**
 * Delivering outbox events: a POST of `{id, type, created_at, data}` signed with HMAC-SHA256
 * over `timestamp.body`, each attempt recorded; a non-2xx answer (3xx included: redirects are
 * not followed), a timeout or a refused connection is retried with backoff by the job runner's
 * webhook lane, apart from the checks, so a dead endpoint slows nothing else down. A target the
 * policy refuses is recorded as "target refused by policy" with no status or time. After
 * `pauseAfterFailures` consecutive failures the webhook is paused: no new delivery is queued
 * and pending ones end without a request, until the account resumes it.
 */
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import type { JobRecord } from "../../domain/records.js";
import { describeError, KytError } from "../../errors.js";
import type { WebhookSender } from "../../ports/webhook-transport.js";
import type { EngineContext } from "../engine-context.js";
import type { SecretVault } from "../secrets/secret-vault.js";
import { TARGET_REFUSED } from "../webhooks/webhook-targets.js";
import { jobOrigin } from "./job-origin.js";
import type { JobHandler, JobOutcome } from "./job-runner.js";

/** Why an engine without a webhook transport neither creates nor delivers webhooks. */
export const NO_WEBHOOK_TRANSPORT =
  "this engine has no webhook transport: pass config.webhooks.transport (nodeWebhookTransport from @openkyt/runtime-node)";

/** The signature header value: `t=<unix ms>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  const mac = bytesToHex(hmac(sha256, utf8ToBytes(secret), utf8ToBytes(`${timestamp}.${body}`)));
  return `t=${timestamp},v1=${mac}`;
}

/** What the delivery handler needs beyond the engine context. */
export interface WebhookDeliveryDeps {
  /** Null when the engine has no webhook transport: a delivery then fails and says so. */
  readonly sender: WebhookSender | null;
  readonly vault: SecretVault;
  readonly timeoutMs: number;
  /** Consecutive failed deliveries that pause a webhook. */
  readonly pauseAfterFailures: number;
}

async function deliver(ctx: EngineContext, deps: WebhookDeliveryDeps, job: JobRecord): Promise<JobOutcome> {
  const eventId = String(job.payload.eventId ?? "");
  const webhook = await ctx.store.getWebhook(String(job.payload.webhookId ?? ""));
  const event = await ctx.store.getWebhookEvent(eventId);
  // A paused webhook's pending deliveries end here, without a request.
  if (!webhook || webhook.deletedAt !== null || webhook.state !== "active" || !event) return { kind: "done" };
  const body = JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: new Date(event.createdAt).toISOString(),
    data: event.payload,
  });
  const timestamp = ctx.clock.now();
  const headers = {
    "content-type": "application/json",
    "user-agent": "OpenKYT-Webhooks/1",
    "openkyt-event": event.type,
    "openkyt-delivery": event.id,
    "openkyt-signature": webhookSignature(deps.vault.open(webhook.id, webhook.secret), timestamp, body),
  };
  const started = performance.now();
  let status: number | null = null;
  let error: string | null = null;
  let refused = false;
  try {
    if (deps.sender === null) throw new KytError("NOT_CONFIGURED", NO_WEBHOOK_TRANSPORT);
    const result = await deps.sender.post(webhook.url, headers, body, deps.timeoutMs);
    if (result.kind === "refused") {
      refused = true;
      error = TARGET_REFUSED;
      ctx.logger.warn(
        { webhookId: webhook.id, reason: result.reason, requestId: jobOrigin(job)?.requestId },
        "webhook target refused by policy",
      );
    } else {
      status = result.status;
      if (status < 200 || status > 299) error = `the receiver answered ${status}`;
    }
  } catch (e) {
    error = describeError(e);
  }
  const durationMs = refused ? 0 : Math.round(performance.now() - started);
  const at = ctx.clock.now();
  const noted = await ctx.store.transaction(async (tx) => {
    // A refused target shows the account nothing of the network: no status, no error text, no time.
    await tx.appendWebhookDelivery({
      id: ctx.ids.next(),
      webhookId: webhook.id,
      eventId: event.id,
      attempt: job.attempts,
      at,
      ok: error === null,
      statusCode: status,
      error,
      durationMs,
    });
    return tx.noteWebhookDelivery(webhook.id, {
      ok: error === null,
      at,
      pauseAfter: deps.pauseAfterFailures,
      reason: `${deps.pauseAfterFailures} consecutive failed deliveries`,
    });
  });
  const paused = error !== null && noted?.state === "paused" && noted.pausedAt === at;
  ctx.events.emit("webhook.delivered", { webhookId: webhook.id, ok: error === null, paused });
  if (error === null) return { kind: "done" };
  if (noted?.state === "paused") {
    if (noted.pausedAt === at)
      ctx.logger.warn(
        { webhookId: webhook.id, reason: noted.pausedReason, requestId: jobOrigin(job)?.requestId },
        "webhook paused",
      );
    return { kind: "done" };
  }
  throw new KytError("INTERNAL_ERROR", `webhook ${webhook.id}: ${error}`);
}

/** Creates the handler of `webhook.deliver` jobs. */
export function webhookDeliveryHandler(ctx: EngineContext, deps: WebhookDeliveryDeps): JobHandler {
  return {
    run: (job) => deliver(ctx, deps, job),
    async giveUp(job, reason) {
      ctx.logger.warn(
        {
          webhookId: job.subjectId,
          eventId: job.payload.eventId,
          reason,
          requestId: jobOrigin(job)?.requestId,
        },
        "webhook delivery gave up",
      );
    },
  };
}
