/**
 * A webhook receiver for OpenKYT: an HTTP endpoint that
 *
 * - **verifies** each delivery's `openkyt-signature` against the webhook's secret, over the raw
 *   body as received (a forged, altered or stale delivery is answered 401 and not handled);
 * - **deduplicates** on `openkyt-delivery` (the event id): OpenKYT delivers at least once (a
 *   delivery whose answer is lost is sent again), so an event already handled is answered 200
 *   and not handled twice;
 * - **survives restarts**: handled ids are on disk (delivery-log.ts) before the 200 goes out.
 *
 * An event whose handler throws is answered 500, and OpenKYT delivers it again later (with
 * backoff); it counts as handled only once the handler succeeded.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { verifyWebhookSignature } from "@openkyt/client";
import type { DeliveryLog } from "./delivery-log.js";

/** An event as OpenKYT delivers it. */
export interface WebhookEvent {
  readonly id: string;
  readonly type: string;
  readonly created_at: string;
  readonly data: Record<string, unknown>;
}

/** Options of {@link createReceiver}. */
export interface ReceiverOptions {
  /** The webhook's signing secret (the answer of POST /v1/webhooks/ shows it once). */
  readonly secret: string;
  readonly log: DeliveryLog;
  /** Handles one event; throwing makes OpenKYT deliver it again later. */
  readonly onEvent: (event: WebhookEvent) => Promise<void> | void;
  /** Largest body accepted (default 1 MiB). */
  readonly maxBytes?: number;
}

/** The raw body, or null when it is larger than `max`. */
async function rawBody(request: IncomingMessage, max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > max) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The receiver as a node:http server (not listening yet): POST any path. */
export function createReceiver(options: ReceiverOptions): Server {
  const max = options.maxBytes ?? 1024 * 1024;
  // Deliveries of one event that arrive together are handled once: the second waits for the first.
  const inFlight = new Map<string, Promise<void>>();
  return createServer(async (request, response) => {
    const answer = (status: number, body: Record<string, unknown>) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    if (request.method !== "POST") return answer(405, { error: "POST only" });
    const body = await rawBody(request, max);
    if (body === null) return answer(413, { error: "body too large" });
    const header = request.headers["openkyt-signature"];
    const verdict = verifyWebhookSignature(options.secret, Array.isArray(header) ? header[0] : header, body);
    if (!verdict.ok) return answer(401, { error: verdict.reason });
    const id = String(request.headers["openkyt-delivery"] ?? "");
    let event: WebhookEvent;
    try {
      event = JSON.parse(body.toString("utf8")) as WebhookEvent;
    } catch {
      return answer(400, { error: "body is not JSON" });
    }
    if (id === "" || event.id !== id)
      return answer(400, { error: "openkyt-delivery does not name the event" });
    await inFlight.get(id)?.catch(() => {});
    if (options.log.has(id)) return answer(200, { received: id, duplicate: true });
    const handling = (async () => {
      await options.onEvent(event);
      await options.log.add(id);
    })();
    inFlight.set(id, handling);
    try {
      await handling;
      answer(200, { received: id, duplicate: false });
    } catch (error) {
      answer(500, { error: error instanceof Error ? error.message : String(error) });
    } finally {
      inFlight.delete(id);
    }
  });
}
