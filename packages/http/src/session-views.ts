/**
 * Saved views of the alert queue: `GET /v1/session/views` (the signed-in user's own and the
 * views shared with their account, by name), `POST` (a name, the queue's query string and
 * whether to share it; a name once per user), `PATCH /v1/session/views/{id}` (its owner shares
 * it or stops sharing it) and `DELETE /v1/session/views/{id}` (its owner, or an admin when it
 * is shared: `mayDeleteView`). Shared views are read-only for everyone else. Writes carry the
 * CSRF token; sharing and deleting a shared view are audited.
 */
import {
  type Clock,
  type Engine,
  KytError,
  mayDeleteView,
  parseInput,
  type SavedViewRecord,
  type UserRecord,
} from "@openkyt/core";
import type { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "./app-env.js";
import type { ConsoleSessions } from "./console-sessions.js";
import { userActor } from "./session-check.js";
import { jsonBody, signedIn, writeSession } from "./session-guards.js";
import { SESSION_PATH } from "./session-routes.js";

/** Where the console keeps saved views. */
export const SESSION_VIEWS_PATH = `${SESSION_PATH}/views`;

/** Most views one user keeps. */
export const SAVED_VIEWS_MAX = 50;

const viewSchema = z.strictObject({
  name: z.string().trim().min(1).max(80),
  query: z
    .string()
    .max(2000)
    .regex(/^[A-Za-z0-9_.~%=&+:@-]*$/, { error: "must be a query string (name=value&...)" }),
  shared: z.boolean().optional(),
});

const shareSchema = z.strictObject({ shared: z.boolean() });

/** A view as the console gets it: whose it is, and what the caller may do with it. */
function shown(v: SavedViewRecord, caller: UserRecord, ownerEmail: string | null) {
  return {
    id: v.id,
    name: v.name,
    query: v.query,
    created_at: new Date(v.createdAt).toISOString(),
    shared: v.shared,
    mine: v.userId === caller.id,
    owner: ownerEmail,
    can_delete: mayDeleteView(v, { userId: caller.id, accountId: caller.accountId, role: caller.role }),
  };
}

/** Adds the saved-view routes to `app`. */
export function sessionViewRoutes(
  app: Hono<AppEnv>,
  engine: Engine,
  sessions: ConsoleSessions,
  clock: Clock,
): void {
  const audit = (accountId: string) => engine.forAccount(accountId).casework;
  app.get(SESSION_VIEWS_PATH, async (c) => {
    const { user } = await signedIn(c, sessions);
    const own = await engine.store.listSavedViews(user.id);
    const shared = (await engine.store.listSharedViews(user.accountId)).filter((v) => v.userId !== user.id);
    const emails = new Map((await engine.store.listUsers(user.accountId)).map((u) => [u.id, u.email]));
    const all = [...own, ...shared].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
    );
    return c.json(all.map((v) => shown(v, user, emails.get(v.userId) ?? null)));
  });
  app.post(SESSION_VIEWS_PATH, async (c) => {
    const { user } = await writeSession(c, sessions, "saving a view", false);
    const input = parseInput(viewSchema, await jsonBody(c), "saved view");
    if ((await engine.store.listSavedViews(user.id)).length >= SAVED_VIEWS_MAX)
      throw new KytError("LIMIT_REACHED", `a user keeps at most ${SAVED_VIEWS_MAX} views; delete one first`);
    const record: SavedViewRecord = {
      id: globalThis.crypto.randomUUID(),
      accountId: user.accountId,
      userId: user.id,
      name: input.name,
      query: input.query,
      createdAt: clock.now(),
      shared: input.shared === true,
    };
    try {
      await engine.store.putSavedView(record);
    } catch (error) {
      if (error instanceof KytError && error.code === "CONFLICT")
        throw new KytError("CONFLICT", `you have a view named ${JSON.stringify(input.name)}`, {
          cause: error,
          errors: { name: ["is taken"] },
        });
      throw error;
    }
    if (record.shared)
      await audit(user.accountId).recordAudit({
        action: "view.shared",
        actor: userActor(user.email),
        subject: record.id,
        details: { name: record.name, shared: true },
      });
    return c.json(shown(record, user, user.email), 201);
  });
  app.patch(`${SESSION_VIEWS_PATH}/:id`, async (c) => {
    const { user } = await writeSession(c, sessions, "sharing a view", false);
    const id = c.req.param("id");
    const input = parseInput(shareSchema, await jsonBody(c), "view sharing");
    if (!(await engine.store.setSavedViewShared(user.id, id, input.shared)))
      throw new KytError("NOT_FOUND", `no view ${id} of yours`);
    const view = await engine.store.getSavedView(id);
    if (!view) throw new KytError("NOT_FOUND", `no view ${id} of yours`);
    await audit(user.accountId).recordAudit({
      action: "view.shared",
      actor: userActor(user.email),
      subject: id,
      details: { name: view.name, shared: input.shared },
    });
    return c.json(shown(view, user, user.email));
  });
  app.delete(`${SESSION_VIEWS_PATH}/:id`, async (c) => {
    const { user } = await writeSession(c, sessions, "deleting a view", false);
    const id = c.req.param("id");
    const view = await engine.store.getSavedView(id);
    const caller = { userId: user.id, accountId: user.accountId, role: user.role };
    // Another account's view, or another user's unshared one, is not there for this caller.
    if (!view || view.accountId !== user.accountId || (view.userId !== user.id && !view.shared))
      throw new KytError("NOT_FOUND", `no view ${id} of yours`);
    if (!mayDeleteView(view, caller))
      throw new KytError("FORBIDDEN", "a shared view is deleted by its owner or an admin");
    if (!(await engine.store.deleteSavedView(view.userId, id)))
      throw new KytError("NOT_FOUND", `no view ${id} of yours`);
    if (view.shared)
      await audit(user.accountId).recordAudit({
        action: "view.deleted",
        actor: userActor(user.email),
        subject: id,
        details: { name: view.name, owner: view.userId === user.id ? "self" : view.userId },
      });
    return c.json({ id, deleted: true });
  });
}
