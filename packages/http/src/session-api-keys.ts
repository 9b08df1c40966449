/**
 * API keys from the console (admins only): `GET /v1/session/api-keys` lists the account's keys
 * (never a secret), `POST` creates one (optionally named: `{"name"}`) and answers its secret once, `DELETE
 * /v1/session/api-keys/{id}` revokes one of the account's keys at once. Only a console session
 * reaches these routes (a key never manages keys); writes carry the CSRF token.
 */
import { API_KEY_NAME_MAX, type ApiKeyInfo, type Engine, KytError, parseInput } from "@openkyt/core";
import type { Context, Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "./app-env.js";
import type { ConsoleSessions } from "./console-sessions.js";
import { userActor } from "./session-check.js";
import { jsonBody } from "./session-guards.js";
import { checkCsrf, currentSession, SESSION_PATH } from "./session-routes.js";

/** Where the console manages API keys. */
export const SESSION_API_KEYS_PATH = `${SESSION_PATH}/api-keys`;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const shown = (k: ApiKeyInfo) => ({
  id: k.id,
  name: k.name,
  created_at: iso(k.createdAt),
  revoked_at: iso(k.revokedAt),
});

const createSchema = z.strictObject({ name: z.string().max(API_KEY_NAME_MAX).optional() });

/** Adds the API key routes to `app`. */
export function sessionApiKeyRoutes(app: Hono<AppEnv>, engine: Engine, sessions: ConsoleSessions): void {
  const admin = async (c: Context<AppEnv>) => {
    const live = await currentSession(c, sessions);
    if (live.user.role !== "admin") {
      throw new KytError("FORBIDDEN", `this needs the admin role; ${live.user.email} is ${live.user.role}`);
    }
    return live;
  };
  app.get(SESSION_API_KEYS_PATH, async (c) => {
    const { user } = await admin(c);
    return c.json((await engine.apiKeys.list(user.accountId)).map(shown));
  });
  app.post(SESSION_API_KEYS_PATH, async (c) => {
    const { user, session } = await admin(c);
    checkCsrf(c, session.csrfToken, "creating an API key");
    const { name } = parseInput(createSchema, await jsonBody(c), "new API key");
    const key = await engine.apiKeys.create(user.accountId, name);
    c.get("log").warn({ keyId: key.id, by: user.email }, "API key created from the console");
    await engine.forAccount(user.accountId).casework.recordAudit({
      action: "api_key.created",
      actor: userActor(user.email),
      subject: key.id,
      details: key.name === null ? {} : { name: key.name },
    });
    return c.json({ ...shown(key), secret: key.secret }, 201);
  });
  app.delete(`${SESSION_API_KEYS_PATH}/:id`, async (c) => {
    const { user, session } = await admin(c);
    checkCsrf(c, session.csrfToken, "revoking an API key");
    const id = c.req.param("id");
    const mine = (await engine.apiKeys.list(user.accountId)).some((k) => k.id === id && k.revokedAt === null);
    if (!mine || !(await engine.apiKeys.revoke(id)))
      throw new KytError("NOT_FOUND", `no live API key ${id} in this account`);
    c.get("log").warn({ keyId: id, by: user.email }, "API key revoked from the console");
    await engine.forAccount(user.accountId).casework.recordAudit({
      action: "api_key.revoked",
      actor: userActor(user.email),
      subject: id,
    });
    return c.json({ id, revoked: true });
  });
}
