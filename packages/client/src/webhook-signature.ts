/**
 * Verifying a webhook delivery as a receiver: the `openkyt-signature` header is
 * `t=<unix ms>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`, computed over the raw body bytes
 * exactly as received. The timestamp must be recent, so a captured delivery cannot be replayed
 * later; deduplicate on `openkyt-delivery` (the event id) for the rest.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** Options of {@link verifyWebhookSignature}. */
export interface VerifyWebhookOptions {
  /** Largest accepted distance between `t` and now, both directions; default 5 minutes. */
  readonly toleranceMs?: number;
  /** The current time in ms; default `Date.now()`. */
  readonly now?: number;
}

/** The outcome: the signed timestamp, or why the delivery is refused. */
export type WebhookVerification =
  | { readonly ok: true; readonly timestamp: number }
  | { readonly ok: false; readonly reason: string };

/** Default tolerance of the timestamp. */
export const WEBHOOK_TOLERANCE_MS = 5 * 60_000;

const HEX_DIGEST = /^[0-9a-f]{64}$/i;

/** Reads `t` and every `v1` of a signature header. */
function parseHeader(header: string): { t: string | null; v1: string[] } {
  let t: string | null = null;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const at = part.indexOf("=");
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === "t") t = value;
    else if (key === "v1") v1.push(value);
  }
  return { t, v1 };
}

/**
 * Checks the `openkyt-signature` header of a delivery against the webhook's secret and the raw
 * body (the text or bytes received, before any JSON parsing). Refusals are values, never
 * exceptions: a malformed header, a stale or future timestamp, or no matching signature.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | null | undefined,
  body: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): WebhookVerification {
  if (typeof header !== "string" || header.length === 0) return { ok: false, reason: "no signature header" };
  const { t, v1 } = parseHeader(header);
  if (t === null || !/^\d{1,16}$/.test(t)) return { ok: false, reason: "no timestamp (t=) in the header" };
  const timestamp = Number(t);
  const now = options.now ?? Date.now();
  if (Math.abs(now - timestamp) > (options.toleranceMs ?? WEBHOOK_TOLERANCE_MS)) {
    return { ok: false, reason: "timestamp outside the tolerance" };
  }
  const expected = createHmac("sha256", secret).update(`${t}.`, "utf8").update(body).digest();
  const matches = v1.some(
    (candidate) => HEX_DIGEST.test(candidate) && timingSafeEqual(Buffer.from(candidate, "hex"), expected),
  );
  return matches ? { ok: true, timestamp } : { ok: false, reason: "signature mismatch" };
}
