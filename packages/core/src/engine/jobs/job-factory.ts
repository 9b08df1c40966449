/** Creating job records. */
import type { JobKind, JobRecord } from "../../domain/records.js";
import type { EngineContext } from "../engine-context.js";

/** A new job due at `runAt` (default now). */
export function newJob(
  ctx: EngineContext,
  kind: JobKind,
  accountId: string,
  subjectId: string,
  payload: Readonly<Record<string, unknown>>,
  runAt?: number,
): JobRecord {
  const now = ctx.clock.now();
  return Object.freeze({
    id: ctx.ids.next(),
    kind,
    accountId,
    subjectId,
    payload: Object.freeze({ ...payload }),
    runAt: runAt ?? now,
    attempts: 0,
    leaseOwner: null,
    leaseUntil: null,
    lastError: null,
    createdAt: now,
  });
}
