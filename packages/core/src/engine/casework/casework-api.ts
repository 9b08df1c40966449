/**
 * The casework operations of one account (beyond the published interface): the queue and its
 * overview counts, cases and decisions, the item-by-item bulk change, the SLA policy and the
 * audit log. Reached as `engine.account(id).casework`.
 */

import type { EngineContext } from "../engine-context.js";
import { type Actor, actorOf } from "../use-cases/alert-workflow.js";
import type { CallOptions } from "../use-cases/call-origin.js";
import { callContext } from "../use-cases/call-origin.js";
import { bulkChangeAlerts, listQueue, queueSummary } from "./alert-queue.js";
import { type AuditEntry, listAudit, recordAudit } from "./audit-log.js";
import { decideCase, getCase } from "./case-decisions.js";
import { getSlaPolicy, setSlaPolicy } from "./sla-policy.js";

/** Builds the casework operations of one account (its id already checked by `accountApi`). */
export function caseworkApi(ctx: EngineContext, accountId: string) {
  return Object.freeze({
    /** GET /v1/queue/: the alert list with assignee, SLA, triage filters and orders. */
    listQueue(query: Readonly<Record<string, unknown>> = {}) {
      return listQueue(ctx, accountId, query);
    },
    /** GET /v1/queue/summary/: counts of the overview. */
    queueSummary(query: Readonly<Record<string, unknown>> = {}) {
      return queueSummary(ctx, accountId, query);
    },
    /** GET /v1/cases/{id}/: a transfer's alerts side by side with their decisions. */
    getCase(id: string) {
      return getCase(ctx, accountId, id);
    },
    /** POST /v1/cases/{id}/decision/: closes the case's alerts with an outcome and a comment. */
    decideCase(id: string, body: unknown, by: Actor = {}, options?: CallOptions) {
      return decideCase(callContext(ctx, options), accountId, id, body, actorOf(by));
    },
    /** POST /v1/alerts/bulk-change/: one change applied and answered alert by alert. */
    bulkChangeAlerts(body: unknown, by: Actor = {}, options?: CallOptions) {
      return bulkChangeAlerts(callContext(ctx, options), accountId, body, actorOf(by));
    },
    /** GET /v1/sla-policy/ */
    getSlaPolicy() {
      return getSlaPolicy(ctx, accountId);
    },
    /** PUT /v1/sla-policy/ */
    setSlaPolicy(body: unknown, by: Actor = {}) {
      return setSlaPolicy(ctx, accountId, body, actorOf(by));
    },
    /** A page of the audit log, newest first. */
    listAudit(query: Readonly<Record<string, unknown>> = {}) {
      return listAudit(ctx, accountId, query);
    },
    /** Appends an entry to the audit log (sign-ins, keys, users: what the HTTP adapter does). */
    async recordAudit(entry: AuditEntry) {
      await recordAudit(ctx, ctx.store, accountId, entry);
    },
  });
}

/** The casework operations of one account. */
export type CaseworkApi = ReturnType<typeof caseworkApi>;
