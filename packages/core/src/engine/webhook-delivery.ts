/**
 * Delivering outbox events: a POST of `{id, type, created_at, data}` signed with HMAC-SHA256
 * over `timestamp.body`, each attempt recorded; a non-2xx answer, a timeout or a refused
 * connection is retried with backoff by the job runner's webhook lane, apart from the checks,
 * so a dead endpoint slows nothing else down.
 */
import { createHmac } from "node:crypto";
import type { JobRecord } from "../domain/records.js";
import { describeError, KytError } from "../errors.js";
import type { EngineContext } from "./engine-context.js";
import type { JobHandler, JobOutcome } from "./job-runner.js";
import type { SecretVault } from "./secret-vault.js";

/** Sends one HTTP POST; the default uses the global fetch. */
export interface WebhookSender {
  /** Resolves with the status of the answer; rejects on timeout or network failure. */
  post(
    url: string,
    headers: Readonly<Record<string, string>>,
    body: string,
    timeoutMs: number,
  ): Promise<{ status: number }>;
}

/** The global fetch as a sender (redirects are not followed: a receiver answers itself). */
export const fetchWebhookSender: WebhookSender = Object.freeze({
  async post(url: string, headers: Readonly<Record<string, string>>, body: string, timeoutMs: number) {
    const response = await fetch(url, {
      method: "POST",
      headers: { ...headers },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel().catch(() => undefined);
    return { status: response.status };
  },
});

/** The signature header value: `t=<unix ms>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  const mac = createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${mac}`;
}

/** What the delivery handler needs beyond the engine context. */
export interface WebhookDeliveryDeps {
  readonly sender: WebhookSender;
  readonly vault: SecretVault;
  readonly timeoutMs: number;
}

async function deliver(ctx: EngineContext, deps: WebhookDeliveryDeps, job: JobRecord): Promise<JobOutcome> {
  const eventId = String(job.payload.eventId ?? "");
  const webhook = await ctx.store.getWebhook(String(job.payload.webhookId ?? ""));
  const event = await ctx.store.getWebhookEvent(eventId);
  if (!webhook || webhook.deletedAt !== null || !event) return { kind: "done" };
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
  try {
    status = (await deps.sender.post(webhook.url, headers, body, deps.timeoutMs)).status;
    if (status < 200 || status > 299) error = `the receiver answered ${status}`;
  } catch (e) {
    error = describeError(e);
  }
  await ctx.store.appendWebhookDelivery({
    id: ctx.ids.next(),
    webhookId: webhook.id,
    eventId: event.id,
    attempt: job.attempts,
    at: ctx.clock.now(),
    ok: error === null,
    statusCode: status,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  if (error !== null) throw new KytError("INTERNAL_ERROR", `webhook ${webhook.id}: ${error}`);
  return { kind: "done" };
}

/** Creates the handler of `webhook.deliver` jobs. */
export function webhookDeliveryHandler(ctx: EngineContext, deps: WebhookDeliveryDeps): JobHandler {
  return {
    run: (job) => deliver(ctx, deps, job),
    async giveUp(job, reason) {
      ctx.logger.warn(
        { webhookId: job.subjectId, eventId: job.payload.eventId, reason },
        "webhook delivery gave up",
      );
    },
  };
}
