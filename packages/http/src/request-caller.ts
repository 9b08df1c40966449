/**
 * Who an authenticated request acts as, and the parts of the request that both ways of
 * authenticating (a signature, a console session) read.
 */
import type { IncomingMessage } from "node:http";
import { KytError } from "@openkyt/core";
import type { Context } from "hono";
import type { AppEnv } from "./app-env.js";
import type { Refused } from "./auth-check.js";
import type { FailureSubject } from "./auth-failures.js";
import { parseBody } from "./body-forms.js";
import { checkDeclaredLength, readBodyBytes, readIncomingBytes } from "./body-reader.js";
import { readHeader } from "./node-incoming.js";
import type { RateLimiter } from "./rate-limiter.js";

/** Methods whose requests carry no body: a fetch Request cannot have one, nor does node-server give one. */
const BODYLESS = new Set(["GET", "HEAD"]);
const NO_BYTES = new Uint8Array(0);

/** The raw body (empty for GET and HEAD, whose Content-Length is still checked against the limit). */
export function readBody(
  c: Context<AppEnv>,
  incoming: IncomingMessage | undefined,
  limit: number,
): Promise<Uint8Array> {
  if (BODYLESS.has(c.req.method)) {
    checkDeclaredLength(readHeader(c, incoming, "content-length"), limit);
    return Promise.resolve(NO_BYTES);
  }
  return incoming ? readIncomingBytes(incoming, limit) : readBodyBytes(c.req.raw, limit);
}

/** Who an authenticated request acts as, and its parsed body. */
export interface Caller {
  /** The actor of changes: the API key id, or `user:<email>` for a console session. */
  readonly actor: string;
  readonly accountId: string;
  readonly parsed: ReturnType<typeof parseBody>;
}

/** What both ways of authenticating read of the request. */
export interface CallerRequest {
  readonly c: Context<AppEnv>;
  readonly incoming: IncomingMessage | undefined;
  readonly header: (name: string) => string | undefined;
  readonly now: number;
  readonly bodyBytes: number;
  readonly source: FailureSubject;
  /** Records a failed authentication and throws its 401. */
  readonly refuse: (refused: Refused, subject: FailureSubject) => never;
}

/** Reads the body of an authenticated request (size limit) and parses it. */
export async function readParsedBody(req: CallerRequest): Promise<Caller["parsed"]> {
  return parseBody(await readBody(req.c, req.incoming, req.bodyBytes));
}

/** Takes a token of the per-key rate limit (429 when none is left). */
export function takeRate(
  deps: { readonly limiter: RateLimiter | null },
  key: string,
  now: number,
  what: string,
): void {
  const rate = deps.limiter?.take(key, now) ?? { ok: true as const };
  if (!rate.ok) {
    throw new KytError("RATE_LIMITED", `too many requests for this ${what}; retry later`, {
      details: { retryAfterMs: rate.retryAfterMs },
    });
  }
}
