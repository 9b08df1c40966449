/**
 * Migration 0015: a partial index of the leased jobs by the time their lease runs out. With it
 * (and `jobs_run_at`) `nextJobAt` reads two index entries instead of every job: transfers
 * registered before their transaction is mined keep a bind job each, so the table holds
 * thousands of waiting jobs, and the runner asks for the next due time whenever a claim comes
 * back short. Only jobs in flight are in it, so it stays small and cheap to keep.
 */
import { type Kysely, type Migration, sql } from "kysely";

/** Creates the index. */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("jobs_leased")
    .on("jobs")
    .column("lease_until")
    .where(sql.ref("lease_until"), "is not", null)
    .execute();
}

/** Drops it. */
async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("jobs_leased").execute();
}

/** The job leases migration. */
export const jobLeasesMigration: Migration = { up, down };
