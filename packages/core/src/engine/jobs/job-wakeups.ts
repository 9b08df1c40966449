/**
 * Wake-ups from the store: while an engine is started, it watches the store's jobs when the
 * store offers it (`Store.watchJobs`: Postgres's LISTEN/NOTIFY) and wakes its runners on each
 * report, so a job enqueued by another process (the HTTP server, another worker) is claimed at
 * once rather than at the next poll. Without a watch, or while it is lost, the runners poll.
 */
import { describeError } from "../../errors.js";
import type { Logger } from "../../ports/runtime.js";
import type { JobWatch, Store } from "../../ports/store.js";

/** The watch of a started engine. */
export interface JobWakeups {
  /** Opens the store's job watch, if it offers one and none is open. Idempotent. */
  start(): void;
  /** Closes the watch opened by `start()`, once it is open. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Wake-ups from `store`'s job watch, reported to `logger`: `wake(kinds)` with the kinds of the
 * jobs enqueued (empty: any kind, as after the watch was restored).
 */
export function jobWakeups(
  store: Store,
  logger: Logger,
  wake: (kinds: ReadonlyArray<string>) => void,
): JobWakeups {
  let opening: Promise<JobWatch | null> | null = null;
  return {
    start() {
      if (opening !== null || !store.watchJobs) return;
      opening = store
        .watchJobs({
          due: wake,
          lost(reason) {
            logger.warn({ reason }, "job watch lost: polling for jobs until it is back");
          },
          restored() {
            logger.info({}, "job watch restored");
            wake([]);
          },
        })
        .catch((error: unknown) => {
          logger.warn({ reason: describeError(error) }, "job watch unavailable: polling for jobs");
          return null;
        });
    },
    async stop() {
      const open = opening;
      opening = null;
      await (await open)?.close();
    },
  };
}
