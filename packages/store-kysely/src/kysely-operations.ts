/**
 * The operations member of the kysely store: the job queue by kind and the paused webhooks,
 * each one aggregate statement (a scan of the jobs table, which holds only the queue).
 */
import type { JobKind, JobQueueCount, OperationsStoreOps } from "@openkyt/core";
import { sql } from "kysely";
import type { KyselyContext } from "./kysely-context.js";
import { num, numOrNull } from "./kysely-values.js";

/** Creates the operations member over `ctx`. */
export function kyselyOperationsOps(ctx: KyselyContext): OperationsStoreOps {
  const { db } = ctx;
  return {
    async operationalStats(now) {
      const free = sql`(lease_until is null or lease_until <= ${now})`;
      const rows = await db
        .selectFrom("jobs")
        .select([
          "kind",
          sql<string | number>`sum(case when ${free} and run_at <= ${now} then 1 else 0 end)`.as("due"),
          sql<string | number>`sum(case when ${free} and run_at > ${now} then 1 else 0 end)`.as("scheduled"),
          sql<string | number>`sum(case when lease_until > ${now} then 1 else 0 end)`.as("leased"),
          sql<string | number | null>`min(case when ${free} and run_at <= ${now} then run_at end)`.as(
            "oldest",
          ),
        ])
        .groupBy("kind")
        .execute();
      const jobs: JobQueueCount[] = rows
        .map((r) => ({
          kind: r.kind as JobKind,
          due: num(r.due),
          scheduled: num(r.scheduled),
          leased: num(r.leased),
          oldestDueAt: numOrNull(r.oldest),
        }))
        .sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
      const { paused } = await db
        .selectFrom("webhooks")
        .select((eb) => eb.fn.countAll<string | number>().as("paused"))
        .where("state", "=", "paused")
        .where("deleted_at", "is", null)
        .executeTakeFirstOrThrow();
      return { jobs, pausedWebhooks: num(paused) };
    },
  };
}
