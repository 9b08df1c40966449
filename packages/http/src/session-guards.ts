/**
 * What every console route beyond sign-in checks: a live session (401), the admin role where a
 * route needs it (403), the CSRF token on a write (403), and a small JSON body read and parsed
 * (400 naming the problem).
 */
import { KytError } from "@openkyt/core";
import type { Context } from "hono";
import type { AppEnv } from "./app-env.js";
import type { ConsoleSessions } from "./console-sessions.js";
import { nodeIncoming } from "./node-incoming.js";
import { readBody } from "./request-caller.js";
import { checkCsrf, currentSession } from "./session-routes.js";

/** Largest body of a console route (a user, a view, a key name). */
export const SESSION_BODY_BYTES = 8192;

/** The live session, for a read (any role). */
export function signedIn(c: Context<AppEnv>, sessions: ConsoleSessions) {
  return currentSession(c, sessions);
}

/** The live session of an admin (403 otherwise). */
export async function adminSession(c: Context<AppEnv>, sessions: ConsoleSessions) {
  const live = await currentSession(c, sessions);
  if (live.user.role !== "admin")
    throw new KytError("FORBIDDEN", `this needs the admin role; ${live.user.email} is ${live.user.role}`);
  return live;
}

/** A write: the session (admin when `admin`), its CSRF token checked. */
export async function writeSession(
  c: Context<AppEnv>,
  sessions: ConsoleSessions,
  what: string,
  admin: boolean,
) {
  const live = admin ? await adminSession(c, sessions) : await currentSession(c, sessions);
  checkCsrf(c, live.session.csrfToken, what);
  return live;
}

/** The request's JSON body (`{}` when empty), or a 400 that says it is not JSON. */
export async function jsonBody(c: Context<AppEnv>): Promise<unknown> {
  const raw = new TextDecoder().decode(await readBody(c, nodeIncoming(c), SESSION_BODY_BYTES));
  if (raw.trim() === "") return {};
  try {
    return JSON.parse(raw);
  } catch {
    throw new KytError("VALIDATION_ERROR", "the body must be JSON", {
      errors: { non_field_errors: ["the body must be JSON"] },
    });
  }
}
