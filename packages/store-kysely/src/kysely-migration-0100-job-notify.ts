/**
 * Migration 0100: on Postgres, every statement that inserts jobs sends a notification on the
 * channel of the store's schema (`openkyt_jobs_<schema>`, cut to Postgres's 63-byte limit on
 * names), delivered when its transaction commits. Runners in other processes listen on it
 * (`Store.watchJobs`, `postgres-job-watch.ts`) and claim at once instead of at their next poll.
 * A statement-level trigger, so that every writer notifies (the engine, `openkyt import`, SQL by
 * hand), once per statement that inserted rows, whatever their number; its payload is the kinds
 * of the jobs inserted (`transfer.bind,transfer.check`), so only the runners of those kinds
 * wake. Postgres folds the identical notifications of one transaction into one. SQLite needs nothing: its writers share no channel.
 */
import { type Kysely, type Migration, PostgresAdapter, sql } from "kysely";

/** True on Postgres: the only backend with notifications. */
function onPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Creates the function (in the store's schema, first on the search path) and the trigger (Postgres). */
async function up(db: Kysely<unknown>): Promise<void> {
  if (!onPostgres(db)) return;
  await sql`create function notify_jobs_enqueued() returns trigger language plpgsql as $$
    declare
      kinds text;
    begin
      select string_agg(distinct kind, ',' order by kind) into kinds from enqueued;
      if kinds is not null then
        perform pg_notify(left('openkyt_jobs_' || tg_table_schema, 63), kinds);
      end if;
      return null;
    end
  $$`.execute(db);
  await sql`create trigger jobs_enqueued after insert on jobs referencing new table as enqueued
    for each statement execute function notify_jobs_enqueued()`.execute(db);
}

/** Drops them (Postgres). */
async function down(db: Kysely<unknown>): Promise<void> {
  if (!onPostgres(db)) return;
  await sql`drop trigger jobs_enqueued on jobs`.execute(db);
  await sql`drop function notify_jobs_enqueued()`.execute(db);
}

/** The job notification migration. */
export const jobNotifyMigration: Migration = { up, down };
