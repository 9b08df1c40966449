/**
 * The account's audit log: one function writes an entry (inside the caller's transaction when
 * it passes one, so an entry lands with the change it records or not at all), one reads pages
 * of it. The store keeps it append-only.
 */
import type { AuditAction, AuditEventRecord } from "../../domain/casework.js";
import type { StoreOps } from "../../ports/store.js";
import { auditQuerySchema, parseInput, presentPage } from "../../schemas/index.js";
import { formatOffsetTimestamp } from "../../schemas/timestamps.js";
import type { EngineContext } from "../engine-context.js";

/** What an audit entry says; the id and time are the engine's. */
export interface AuditEntry {
  readonly action: AuditAction;
  readonly actor: string | null;
  readonly subject?: string | null;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** Appends an entry to `accountId`'s log through `tx` (the store itself when no transaction). */
export async function recordAudit(
  ctx: Pick<EngineContext, "ids" | "clock">,
  tx: StoreOps,
  accountId: string,
  entry: AuditEntry,
): Promise<AuditEventRecord> {
  const record: AuditEventRecord = {
    id: ctx.ids.next(),
    accountId,
    at: ctx.clock.now(),
    actor: entry.actor,
    action: entry.action,
    subject: entry.subject ?? null,
    details: entry.details ?? {},
  };
  await tx.appendAuditEvent(record);
  return record;
}

/** An audit entry as answered. */
export function presentAuditEvent(e: AuditEventRecord) {
  return {
    id: e.id,
    at: formatOffsetTimestamp(e.at),
    actor: e.actor,
    action: e.action,
    subject: e.subject,
    details: { ...e.details },
  };
}

/** A page of the account's audit log, newest first, filtered by the query. */
export async function listAudit(ctx: EngineContext, accountId: string, query: unknown) {
  const q = parseInput(auditQuerySchema, query, "audit query");
  const page = { page: q.page, pageSize: q.page_size };
  const filter = {
    ...(q.action === undefined ? {} : { action: q.action }),
    ...(q.actor === undefined ? {} : { actor: q.actor }),
    ...(q.subject === undefined ? {} : { subject: q.subject }),
    ...(q.from === undefined ? {} : { from: q.from }),
    ...(q.to === undefined ? {} : { to: q.to }),
  };
  const found = await ctx.store.listAuditEvents(accountId, filter, page);
  return presentPage(found.items.map(presentAuditEvent), found.total, page);
}
