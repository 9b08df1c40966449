/**
 * Where a job came from: the request that caused it (its request id and, when tracing is on,
 * the request span as a W3C `traceparent`). A caller gives it to `engine.forAccount(id,
 * { origin })`; every job the account's operations enqueue (a registration's bind job, a
 * recheck's check job, a manual check's job, the webhook deliveries of the events written with
 * them) keeps it in its payload under `origin`, and the job runner logs the request id with each
 * line about the job and starts the job's span in the request's trace.
 */

import type { JobOrigin, JobRecord } from "../../domain/records.js";
import { KytError } from "../../errors.js";
import type { EngineContext } from "../engine-context.js";

/** The payload key of the origin. */
export const ORIGIN_KEY = "origin";

const REQUEST_ID = /^[A-Za-z0-9._:=-]{1,128}$/;
const TRACEPARENT = /^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;

/** The origin as given, checked: VALIDATION_ERROR naming the member that is wrong. */
export function checkOrigin(origin: unknown): JobOrigin {
  if (typeof origin !== "object" || origin === null) {
    throw new KytError("VALIDATION_ERROR", "origin must be an object with requestId and/or traceparent");
  }
  const { requestId, traceparent } = origin as Record<string, unknown>;
  if (requestId !== undefined && (typeof requestId !== "string" || !REQUEST_ID.test(requestId))) {
    throw new KytError(
      "VALIDATION_ERROR",
      "origin.requestId must be 1 to 128 characters of A-Z a-z 0-9 . _ : - =",
    );
  }
  if (traceparent !== undefined && (typeof traceparent !== "string" || !TRACEPARENT.test(traceparent))) {
    throw new KytError(
      "VALIDATION_ERROR",
      "origin.traceparent must be a W3C traceparent (00-<32 hex>-<16 hex>-<2 hex>)",
    );
  }
  return Object.freeze({
    ...(requestId === undefined ? {} : { requestId }),
    ...(traceparent === undefined ? {} : { traceparent }),
  });
}

/** `ctx` whose jobs carry `origin` (`ctx` itself when there is none). */
export function withOrigin(ctx: EngineContext, origin: JobOrigin | undefined): EngineContext {
  return origin === undefined || origin === ctx.origin ? ctx : Object.freeze({ ...ctx, origin });
}

/**
 * The origin a job carries, or undefined. Read from the stored payload, so a member that is not
 * what {@link checkOrigin} lets through is left out rather than logged or traced.
 */
export function jobOrigin(job: Pick<JobRecord, "payload">): JobOrigin | undefined {
  const stored = job.payload[ORIGIN_KEY];
  if (typeof stored !== "object" || stored === null) return undefined;
  const { requestId, traceparent } = stored as Record<string, unknown>;
  const id = typeof requestId === "string" && REQUEST_ID.test(requestId) ? requestId : undefined;
  const parent = typeof traceparent === "string" && TRACEPARENT.test(traceparent) ? traceparent : undefined;
  if (id === undefined && parent === undefined) return undefined;
  return {
    ...(id === undefined ? {} : { requestId: id }),
    ...(parent === undefined ? {} : { traceparent: parent }),
  };
}
