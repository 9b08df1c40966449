/**
 * Node's own request object behind a request served by @hono/node-server (its `env.incoming`).
 * Reading headers (and the body, see body-reader.ts) from it directly spares building a fetch
 * Request and a Headers object per request; without it (the app mounted elsewhere, or called
 * with `app.fetch`) the fetch Request is read instead.
 */
import type { IncomingMessage } from "node:http";
import type { Context } from "hono";

/** Node's request of `c`, or undefined when the app is not served by node-server. */
export function nodeIncoming(c: Context): IncomingMessage | undefined {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming as IncomingMessage | undefined;
  return incoming !== undefined &&
    incoming !== null &&
    typeof incoming.headers === "object" &&
    typeof incoming.on === "function"
    ? incoming
    : undefined;
}

/**
 * A header of `c` (any case of name), as the fetch Headers answers: a header sent more than
 * once is its values joined by ", ". `incoming` is {@link nodeIncoming} of `c`.
 */
export function readHeader(
  c: Context,
  incoming: IncomingMessage | undefined,
  name: string,
): string | undefined {
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : value;
}
