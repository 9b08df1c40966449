/** Creating job records. */
import type { JobKind, JobRecord } from "../../domain/records.js";
import type { EngineContext } from "../engine-context.js";
import { ORIGIN_KEY } from "./job-origin.js";

/**
 * A new job due at `runAt` (default now). When `ctx` carries the origin of a request (see
 * job-origin.ts), the payload keeps it unless it names one of its own.
 */
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
    payload: Object.freeze(
      ctx.origin === undefined || ORIGIN_KEY in payload
        ? { ...payload }
        : { ...payload, [ORIGIN_KEY]: ctx.origin },
    ),
    runAt: runAt ?? now,
    attempts: 0,
    leaseOwner: null,
    leaseUntil: null,
    lastError: null,
    createdAt: now,
  });
}
