/**
 * Authentication of a request by its console session: the session cookie names a live session
 * (not expired, not signed out, its user not disabled), a write carries the session's CSRF token
 * in X-CSRF-Token, and the user's role allows the endpoint. The request then acts for the user's
 * account, and changes are made in the user's name (`user:<email>`), through the same endpoint as
 * a signed request.
 */
import { KytError } from "@openkyt/core";
import type { ConsoleSessions } from "./console-sessions.js";
import { sameToken } from "./console-sessions.js";
import type { Endpoint } from "./endpoint-types.js";
import type { RateLimiter } from "./rate-limiter.js";
import { type Caller, type CallerRequest, readParsedBody, takeRate } from "./request-caller.js";
import { CSRF_HEADER } from "./session-cookie.js";
import { roleAllows, roleNeeded } from "./session-roles.js";

/** What a session check needs. */
export interface SessionCheckDeps {
  readonly sessions: ConsoleSessions;
  readonly limiter: RateLimiter | null;
}

/** The detail of a refused session (missing, expired, signed out, user disabled: one answer). */
export const SESSION_REFUSED = "the console session is not valid (expired or signed out): sign in again";

const SAFE_METHODS = new Set(["GET", "HEAD"]);

/** The actor a console user's changes are recorded under. */
export function userActor(email: string): string {
  return `user:${email}`;
}

/** Authenticates a request by its session token; throws the 401/403 of a refusal. */
export async function sessionCaller(
  req: CallerRequest,
  endpoint: Pick<Endpoint, "tag" | "method" | "operationId">,
  token: string,
  deps: SessionCheckDeps,
): Promise<Caller> {
  const { c, now } = req;
  const live = await deps.sessions.resolve(token);
  if (!live) return req.refuse({ ok: false, detail: SESSION_REFUSED, reason: "session" }, req.source);
  const { session, user } = live;
  const actor = userActor(user.email);
  c.set("keyId", actor);
  c.set("accountId", user.accountId);
  if (!SAFE_METHODS.has(c.req.method)) {
    const sent = req.header(CSRF_HEADER.toLowerCase());
    if (sent === undefined || !sameToken(sent, session.csrfToken)) {
      throw new KytError("FORBIDDEN", `a change from the console needs the session's ${CSRF_HEADER} header`, {
        errors: { [CSRF_HEADER]: ["missing or not this session's token"] },
      });
    }
  }
  const needed = roleNeeded(endpoint);
  if (!roleAllows(user.role, needed)) {
    throw new KytError("FORBIDDEN", `this needs the ${needed} role; ${user.email} is ${user.role}`);
  }
  takeRate(deps, actor, now, "user");
  return { actor, accountId: user.accountId, parsed: await readParsedBody(req) };
}
