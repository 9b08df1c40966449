/** The operations member of the in-memory store: the job queue and paused webhooks, counted. */
import type { JobKind, Millis } from "../domain/records.js";
import type { JobQueueCount, OperationsStoreOps } from "../ports/store-operations.js";
import { isClaimable } from "./memory-jobs.js";
import { compareStrings, type MemoryTables } from "./memory-state.js";

/** Creates the operations member over `tables`. */
export function memoryOperationsOps(tables: MemoryTables): OperationsStoreOps {
  return {
    async operationalStats(now: Millis) {
      const byKind = new Map<
        JobKind,
        { due: number; scheduled: number; leased: number; oldest: Millis | null }
      >();
      for (const job of tables.jobs.values()) {
        let count = byKind.get(job.kind);
        if (!count) {
          count = { due: 0, scheduled: 0, leased: 0, oldest: null };
          byKind.set(job.kind, count);
        }
        if (job.leaseUntil !== null && job.leaseUntil > now) count.leased += 1;
        else if (isClaimable(job, now)) {
          count.due += 1;
          if (count.oldest === null || job.runAt < count.oldest) count.oldest = job.runAt;
        } else count.scheduled += 1;
      }
      const jobs: JobQueueCount[] = [...byKind]
        .sort(([a], [b]) => compareStrings(a, b))
        .map(([kind, c]) => ({
          kind,
          due: c.due,
          scheduled: c.scheduled,
          leased: c.leased,
          oldestDueAt: c.oldest,
        }));
      let pausedWebhooks = 0;
      for (const webhook of tables.webhooks.values()) {
        if (webhook.state === "paused" && webhook.deletedAt === null) pausedWebhooks += 1;
      }
      return { jobs, pausedWebhooks };
    },
  };
}
