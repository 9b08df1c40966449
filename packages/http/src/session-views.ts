/**
 * A user's saved views of the alert queue: `GET /v1/session/views` (the signed-in user's own,
 * by name), `POST` (a name and the queue's query string; a name once per user) and `DELETE
 * /v1/session/views/{id}`. Writes carry the CSRF token.
 */
import { type Clock, type Engine, KytError, parseInput, type SavedViewRecord } from "@openkyt/core";
import type { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "./app-env.js";
import type { ConsoleSessions } from "./console-sessions.js";
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
});

const shown = (v: SavedViewRecord) => ({
  id: v.id,
  name: v.name,
  query: v.query,
  created_at: new Date(v.createdAt).toISOString(),
});

/** Adds the saved-view routes to `app`. */
export function sessionViewRoutes(
  app: Hono<AppEnv>,
  engine: Engine,
  sessions: ConsoleSessions,
  clock: Clock,
): void {
  app.get(SESSION_VIEWS_PATH, async (c) => {
    const { user } = await signedIn(c, sessions);
    return c.json((await engine.store.listSavedViews(user.id)).map(shown));
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
    return c.json(shown(record), 201);
  });
  app.delete(`${SESSION_VIEWS_PATH}/:id`, async (c) => {
    const { user } = await writeSession(c, sessions, "deleting a view", false);
    const id = c.req.param("id");
    if (!(await engine.store.deleteSavedView(user.id, id)))
      throw new KytError("NOT_FOUND", `no view ${id} of yours`);
    return c.json({ id, deleted: true });
  });
}
