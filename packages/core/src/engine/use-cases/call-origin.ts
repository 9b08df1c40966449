/**
 * The request an operation serves, given with the call: the jobs and webhook deliveries the
 * call enqueues keep it (jobs/job-origin.ts). An account's operations are built once and serve
 * every request; only the calls that enqueue work take an origin.
 */
import type { JobOrigin } from "../../domain/records.js";
import type { EngineContext } from "../engine-context.js";
import { checkOrigin, withOrigin } from "../jobs/job-origin.js";

/** What a call that enqueues work may say about the request it serves. */
export interface CallOptions {
  /** The request being served (its request id, its span as a `traceparent`); checked. */
  readonly origin?: JobOrigin;
}

/**
 * `ctx` for one call: carrying the call's origin (checked: VALIDATION_ERROR naming the member
 * that is wrong), or `ctx` itself when the call gives none.
 */
export function callContext(ctx: EngineContext, options: CallOptions | undefined): EngineContext {
  return options?.origin === undefined ? ctx : withOrigin(ctx, checkOrigin(options.origin));
}
