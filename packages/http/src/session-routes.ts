/**
 * The console's sign-in, outside the signed interface: `POST /v1/session` (e-mail and password:
 * sets the session cookie, answers the user and the CSRF token), `GET /v1/session` (who is
 * signed in, with the CSRF token again after a reload) and `DELETE /v1/session` (sign-out, with
 * the CSRF token). Sign-in takes only JSON from the console's own origin (sign-in-origin.ts) and
 * is limited so that failures lock an e-mail out only from the addresses that failed
 * (sign-in-limits.ts).
 */
import { type AuditEntry, KytError, parseInput, type UserRecord } from "@openkyt/core";
import type { Context, Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "./app-env.js";
import type { ConsoleSessions } from "./console-sessions.js";
import { sameToken } from "./console-sessions.js";
import { nodeIncoming } from "./node-incoming.js";
import { limitAddress } from "./remote-address.js";
import { readBody } from "./request-caller.js";
import { SESSION_REFUSED, userActor } from "./session-check.js";
import { CSRF_HEADER, sessionCookie, sessionTokenOf } from "./session-cookie.js";
import { createSignInLimits, type SignInLimitOptions } from "./sign-in-limits.js";
import { checkSignInRequest } from "./sign-in-origin.js";

/** Options of {@link sessionRoutes}. */
export interface SessionRouteOptions {
  readonly sessions: ConsoleSessions;
  readonly now: () => number;
  /** Mark the cookie Secure: always, never, or (`"auto"`) when the request came over https. */
  readonly secureCookie: boolean | "auto";
  /** Sign-in limits (see sign-in-limits.ts); default {@link SIGN_IN_LIMIT_DEFAULTS}. */
  readonly limits?: SignInLimitOptions;
  /** Records sign-ins and sign-outs in the account's audit log; default: not recorded. */
  readonly audit?: (accountId: string, entry: AuditEntry) => Promise<void>;
}

/** The path of the session routes. */
export const SESSION_PATH = "/v1/session";

const signInSchema = z.strictObject({
  email: z.string().min(1).max(254),
  password: z.string().min(1).max(1024),
});

/** The body of a signed-in session. */
function sessionBody(user: UserRecord, csrfToken: string, expiresAt: number) {
  return {
    user: { id: user.id, email: user.email, role: user.role, account: user.accountId },
    actor: userActor(user.email),
    csrf_token: csrfToken,
    expires_at: new Date(expiresAt).toISOString(),
  };
}

function limited(retryAfterMs: number): KytError {
  return new KytError("RATE_LIMITED", "too many sign-in attempts; retry later", {
    details: { retryAfterMs },
  });
}

/**
 * The live session of a request's cookie, with its token (401 when there is none), recorded as
 * the request's actor and account for the log.
 */
export async function currentSession(c: Context<AppEnv>, sessions: ConsoleSessions) {
  const token = sessionTokenOf(c.req.header("cookie"));
  const live = token === undefined ? null : await sessions.resolve(token);
  if (!token || !live) throw new KytError("UNAUTHORIZED", SESSION_REFUSED);
  c.set("keyId", userActor(live.user.email));
  c.set("accountId", live.user.accountId);
  return { token, ...live };
}

/** Refuses (403) a write whose X-CSRF-Token is not the session's. */
export function checkCsrf(c: Context<AppEnv>, csrfToken: string, what: string): void {
  const sent = c.req.header(CSRF_HEADER);
  if (sent === undefined || !sameToken(sent, csrfToken)) {
    throw new KytError("FORBIDDEN", `${what} needs the session's ${CSRF_HEADER} header`, {
      errors: { [CSRF_HEADER]: ["missing or not this session's token"] },
    });
  }
}

/** Adds the session routes to `app`. */
export function sessionRoutes(app: Hono<AppEnv>, options: SessionRouteOptions): void {
  const { sessions } = options;
  const limits = createSignInLimits(options.limits);
  const secure = (c: Context<AppEnv>) =>
    options.secureCookie === "auto" ? new URL(c.req.url).protocol === "https:" : options.secureCookie;
  const current = (c: Context<AppEnv>) => currentSession(c, sessions);

  app.post(SESSION_PATH, async (c) => {
    checkSignInRequest({
      contentType: c.req.header("content-type"),
      origin: c.req.header("origin"),
      secFetchSite: c.req.header("sec-fetch-site"),
      host: c.req.header("host"),
    });
    const now = options.now();
    const address = limitAddress(nodeIncoming(c)?.socket?.remoteAddress);
    const byAddress = limits.attempt(address, now);
    if (!byAddress.ok) throw limited(byAddress.retryAfterMs);
    const raw = new TextDecoder().decode(await readBody(c, nodeIncoming(c), 4096));
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new KytError("VALIDATION_ERROR", "the body must be JSON: {email, password}", {
        errors: { non_field_errors: ["the body must be JSON"] },
      });
    }
    const { email, password } = parseInput(signInSchema, json, "request body");
    const normalised = email.trim().toLowerCase();
    const byEmail = limits.check(normalised, address, now);
    if (!byEmail.ok) throw limited(byEmail.retryAfterMs);
    const signed = await sessions.signIn(normalised, password);
    if (!signed) {
      limits.failed(normalised, address, options.now());
      c.get("log").warn({ reason: "wrong e-mail or password" }, "sign-in refused");
      throw new KytError("UNAUTHORIZED", "wrong e-mail or password, or the user is disabled");
    }
    c.set("keyId", userActor(signed.user.email));
    c.set("accountId", signed.user.accountId);
    await options.audit?.(signed.user.accountId, {
      action: "session.signed_in",
      actor: userActor(signed.user.email),
      subject: signed.user.id,
      details: { address },
    });
    c.header("Set-Cookie", sessionCookie(signed.token, sessions.ttlMs, secure(c)));
    c.header("Cache-Control", "no-store");
    return c.json(sessionBody(signed.user, signed.session.csrfToken, signed.session.expiresAt));
  });

  app.get(SESSION_PATH, async (c) => {
    const { user, session } = await current(c);
    c.header("Cache-Control", "no-store");
    return c.json(sessionBody(user, session.csrfToken, session.expiresAt));
  });

  app.delete(SESSION_PATH, async (c) => {
    const { token, session, user } = await current(c);
    checkCsrf(c, session.csrfToken, "signing out");
    await sessions.signOut(token);
    await options.audit?.(user.accountId, {
      action: "session.signed_out",
      actor: userActor(user.email),
      subject: user.id,
    });
    c.header("Set-Cookie", sessionCookie("", 0, secure(c)));
    return c.json({ signed_out: true });
  });
}
