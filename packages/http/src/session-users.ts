/**
 * The account's users from the console: `GET /v1/session/users` (any signed-in user: the
 * assignee picker needs them; never a password hash), and for admins `POST` (create with a
 * password the creator hands over) and `PATCH /v1/session/users/{id}` (change the role, or
 * disable: their sessions end at once). An admin cannot demote or disable themselves, so an
 * account always keeps the admin who acts. Every change is audited.
 */
import { type Clock, type Engine, isUserRole, KytError, parseInput } from "@openkyt/core";
import type { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "./app-env.js";
import type { ConsoleSessions } from "./console-sessions.js";
import { userActor } from "./session-check.js";
import { jsonBody, signedIn, writeSession } from "./session-guards.js";
import { SESSION_PATH } from "./session-routes.js";
import { createUserDirectory, userInfo } from "./user-directory.js";

/** Where the console manages users. */
export const SESSION_USERS_PATH = `${SESSION_PATH}/users`;

const createSchema = z.strictObject({
  email: z.string().min(1).max(254),
  role: z.string(),
  password: z.string().min(1).max(1024),
});

const changeSchema = z
  .strictObject({
    role: z.enum(["analyst", "admin"]).optional(),
    disabled: z.literal(true).optional().describe("true disables the user (there is no way back)."),
  })
  .refine((b) => b.role !== undefined || b.disabled !== undefined, { message: "give role or disabled" });

/** Adds the user routes to `app`. */
export function sessionUserRoutes(
  app: Hono<AppEnv>,
  engine: Engine,
  sessions: ConsoleSessions,
  clock: Clock,
): void {
  const directory = createUserDirectory({ store: engine.store, clock });
  const audit = (accountId: string) => engine.forAccount(accountId).casework;
  app.get(SESSION_USERS_PATH, async (c) => {
    const { user } = await signedIn(c, sessions);
    return c.json((await directory.list(user.accountId)).map(({ account: _, ...shown }) => shown));
  });
  app.post(SESSION_USERS_PATH, async (c) => {
    const { user } = await writeSession(c, sessions, "creating a user", true);
    const input = parseInput(createSchema, await jsonBody(c), "new user");
    const created = await directory.create({ ...input, accountId: user.accountId });
    await audit(user.accountId).recordAudit({
      action: "user.created",
      actor: userActor(user.email),
      subject: created.id,
      details: { email: created.email, role: created.role },
    });
    const { account: _, ...shown } = created;
    return c.json(shown, 201);
  });
  app.patch(`${SESSION_USERS_PATH}/:id`, async (c) => {
    const { user } = await writeSession(c, sessions, "changing a user", true);
    const change = parseInput(changeSchema, await jsonBody(c), "user change");
    const id = c.req.param("id");
    const target = await engine.store.getUser(id);
    if (!target || target.accountId !== user.accountId)
      throw new KytError("NOT_FOUND", `user ${id} not found`);
    if (target.id === user.id)
      throw new KytError(
        "CONFLICT",
        "you cannot change your own role or disable yourself; ask another admin",
      );
    const actor = userActor(user.email);
    const log = audit(user.accountId);
    if (change.role !== undefined && isUserRole(change.role) && change.role !== target.role) {
      await engine.store.setUserRole(target.id, change.role);
      await log.recordAudit({
        action: "user.role_changed",
        actor,
        subject: target.id,
        details: { email: target.email, from: target.role, to: change.role },
      });
    }
    if (change.disabled === true && target.disabledAt === null) {
      await directory.disable(target.email);
      await log.recordAudit({
        action: "user.disabled",
        actor,
        subject: target.id,
        details: { email: target.email },
      });
    }
    const after = await engine.store.getUser(target.id);
    if (!after) throw new KytError("NOT_FOUND", `user ${id} not found`);
    const { account: _, ...shown } = userInfo(after);
    return c.json(shown);
  });
}
