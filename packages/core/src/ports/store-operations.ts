/**
 * The operations member of the Store port: what an operator watches of a store (the job queue
 * and the paused webhooks), read at once so that a metrics scrape costs one cheap read. Every
 * store keeps it (memory, SQLite, Postgres) and passes its conformance section.
 */
import type { JobKind, Millis } from "../domain/records.js";

/** The jobs of one kind, counted as `operationalStats` sees them at `now`. */
export interface JobQueueCount {
  readonly kind: JobKind;
  /** Due (runAt <= now) and claimable: not leased, or leased with a lease that ran out. */
  readonly due: number;
  /** Not leased and not due yet: a retry waiting its backoff, a hash asked again later. */
  readonly scheduled: number;
  /** Held by a worker under a lease that has not run out (being run, in any process). */
  readonly leased: number;
  /** The earliest runAt of the due jobs: how long the queue has kept one waiting; null when none is due. */
  readonly oldestDueAt: Millis | null;
}

/** What {@link OperationsStoreOps.operationalStats} answers. */
export interface OperationalStats {
  /** One entry per job kind that has at least one job, by kind. */
  readonly jobs: ReadonlyArray<JobQueueCount>;
  /** Live (not deleted) webhooks in the `paused` state, of every account. */
  readonly pausedWebhooks: number;
}

/** The operations member. */
export interface OperationsStoreOps {
  /**
   * The job queue by kind and the paused webhooks at `now`, of every account. A read only (it
   * locks nothing); its counts are a snapshot that concurrent writers may change at once.
   */
  operationalStats(now: Millis): Promise<OperationalStats>;
}
