/**
 * The account's audit log from the console (admins only): `GET /v1/session/audit` answers a
 * page, newest first, filtered by action, actor, subject and time; `GET /v1/session/audit.csv`
 * exports every entry the same filters keep (up to {@link AUDIT_EXPORT_MAX}) as CSV, with cells
 * that a spreadsheet would run as a formula quoted as text.
 */
import type { Engine } from "@openkyt/core";
import type { Hono } from "hono";
import type { AppEnv } from "./app-env.js";
import type { ConsoleSessions } from "./console-sessions.js";
import { adminSession } from "./session-guards.js";
import { SESSION_PATH } from "./session-routes.js";

/** Where the console reads the audit log. */
export const SESSION_AUDIT_PATH = `${SESSION_PATH}/audit`;

/** Most entries one export holds. */
export const AUDIT_EXPORT_MAX = 10_000;

const COLUMNS = ["at", "actor", "action", "subject", "details", "id"] as const;

/** One CSV cell: quoted when it must be; a leading = + - @ (a formula) made text with a quote. */
export function csvCell(value: unknown): string {
  let text =
    value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Adds the audit routes to `app`. */
export function sessionAuditRoutes(app: Hono<AppEnv>, engine: Engine, sessions: ConsoleSessions): void {
  const filters = (query: Record<string, string>) => {
    const { page: _p, page_size: _s, ...rest } = query;
    return rest;
  };
  app.get(SESSION_AUDIT_PATH, async (c) => {
    const { user } = await adminSession(c, sessions);
    c.header("Cache-Control", "no-store");
    return c.json(await engine.forAccount(user.accountId).casework.listAudit(c.req.query()));
  });
  app.get(`${SESSION_AUDIT_PATH}.csv`, async (c) => {
    const { user } = await adminSession(c, sessions);
    const log = engine.forAccount(user.accountId).casework;
    const lines = [COLUMNS.join(",")];
    const query = filters(c.req.query());
    for (let page = 1; lines.length <= AUDIT_EXPORT_MAX; page++) {
      const found = await log.listAudit({ ...query, page: String(page), page_size: "100" });
      for (const e of found.items) lines.push(COLUMNS.map((k) => csvCell(e[k])).join(","));
      if (page >= found.total_pages) break;
    }
    return c.body(`${lines.slice(0, AUDIT_EXPORT_MAX + 1).join("\r\n")}\r\n`, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="audit-log.csv"',
      "Cache-Control": "no-store",
    });
  });
}
