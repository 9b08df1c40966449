/**
 * Durable jobs of the kysely store. Claiming selects due jobs and takes their lease in one
 * statement; with `skipLocked` the select locks its rows `FOR UPDATE SKIP LOCKED`, so
 * concurrent claimers in other processes skip each other's jobs instead of waiting.
 */
import {
  type JobKind,
  type JobRecord,
  type JobStore,
  KytError,
  type PostponedJob,
  type StoreOps,
} from "@openkyt/core";
import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type Selectable,
  type SqlBool,
  sql,
} from "kysely";
import { changedRows, type KyselyContext, orderText } from "./kysely-context.js";
import { runPrecompiled } from "./kysely-precompiled.js";
import type { Database, JobsTable } from "./kysely-schema.js";
import { chunksOf, fromJson, IN_LIST_CHUNK, INSERT_CHUNK, num, numOrNull, toJson } from "./kysely-values.js";

/** Most jobs postponed by one statement (five parameters each). */
const POSTPONE_CHUNK = 200;

/** The job members of the store port. */
export type JobOps = JobStore;

/** A row as a job. */
function fromRow(r: Selectable<JobsTable>): JobRecord {
  return {
    id: r.id,
    kind: r.kind as JobRecord["kind"],
    accountId: r.account_id,
    subjectId: r.subject_id,
    payload: fromJson<JobRecord["payload"]>(r.payload),
    runAt: num(r.run_at),
    attempts: num(r.attempts),
    leaseOwner: r.lease_owner,
    leaseUntil: numOrNull(r.lease_until),
    lastError: r.last_error,
    createdAt: num(r.created_at),
  };
}

/** Due at `now` and not leased, or leased with a lease that ran out. */
function claimable(eb: ExpressionBuilder<Database, "jobs">, now: number): Expression<SqlBool> {
  return eb.and([
    eb("run_at", "<=", now),
    eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", now)]),
  ]);
}

/** Orders claimed jobs as the claim selected them: by due time, then id (byte order). */
function byDueTime(a: JobRecord, b: JobRecord): number {
  if (a.runAt !== b.runAt) return a.runAt - b.runAt;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Leases due jobs in one statement: an `UPDATE ... RETURNING` whose subquery picks the due jobs
 * (locked `FOR UPDATE SKIP LOCKED` on Postgres, so concurrent claimers skip each other's rows).
 * A single statement is atomic on both backends, so no transaction is opened for it: one round
 * trip per claim instead of three statements in a transaction.
 */
async function claimDue(
  ctx: KyselyContext,
  request: Parameters<StoreOps["claimJobs"]>[0],
): Promise<JobRecord[]> {
  const { now, limit, leaseMs, owner } = request;
  if (limit <= 0) return [];
  if (request.kinds !== undefined && request.kinds.length === 0) return [];
  const { db } = ctx;
  const rows = await db
    .updateTable("jobs")
    .set({
      lease_owner: owner,
      lease_until: now + leaseMs,
      attempts: sql<number>`${sql.ref("attempts")} + 1`,
    })
    .where("id", "in", (eb) => {
      let due = eb
        .selectFrom("jobs")
        .select("id")
        .where((w) => claimable(w, now))
        .orderBy("run_at", "asc")
        .orderBy(orderText(ctx, "id"), "asc")
        .limit(limit);
      if (request.kinds !== undefined) due = due.where("kind", "in", [...request.kinds]);
      return ctx.dialect.skipLocked ? due.forUpdate().skipLocked() : due;
    })
    .returningAll()
    .execute();
  // RETURNING gives no order; callers get the jobs in the order they were due.
  return rows.map(fromRow).sort(byDueTime);
}

/** The earlier of two times, either of which may be missing. */
function earliest(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  return b === null ? a : Math.min(a, b);
}

/**
 * `nextJobAt` for a lane's kinds: per kind, the first due job no live lease holds, in
 * `jobs_kind_run_at` order (one index read each; a single query over several kinds would have
 * to sort every waiting job of them), and the first lease of those kinds to run out, from the
 * partial `jobs_leased` (only jobs in flight are in it).
 */
async function nextJobOfKindsAt(db: Kysely<Database>, kinds: ReadonlyArray<JobKind>): Promise<number | null> {
  const distinct = [...new Set(kinds)];
  if (distinct.length === 0) return null;
  let next: number | null = null;
  for (const kind of distinct) {
    const free = await runPrecompiled(
      db,
      "jobs.nextFreeOfKind",
      () =>
        db
          .selectFrom("jobs")
          .select("run_at")
          .where("kind", "=", kind)
          .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", eb.ref("run_at"))]))
          .orderBy("run_at", "asc")
          .limit(1),
      [kind, 1],
    );
    next = earliest(next, numOrNull(free.rows[0]?.run_at ?? null));
  }
  const leased = await runPrecompiled(
    db,
    `jobs.nextLeaseEndOfKinds:${distinct.length}`,
    () =>
      db
        .selectFrom("jobs")
        .select("lease_until")
        .where("lease_until", "is not", null)
        .whereRef("lease_until", ">", "run_at")
        .where("kind", "in", distinct)
        .orderBy("lease_until", "asc")
        .limit(1),
    [...distinct, 1],
  );
  return earliest(next, numOrNull(leased.rows[0]?.lease_until ?? null));
}

/** A job as a row. */
function jobRow(job: JobRecord) {
  return {
    id: job.id,
    kind: job.kind,
    account_id: job.accountId,
    subject_id: job.subjectId,
    payload: toJson(job.payload),
    run_at: job.runAt,
    attempts: job.attempts,
    lease_owner: job.leaseOwner,
    lease_until: job.leaseUntil,
    last_error: job.lastError,
    created_at: job.createdAt,
  };
}

/** Creates the job members over `ctx`. */
export function kyselyJobOps(ctx: KyselyContext): JobOps {
  const { db } = ctx;
  return {
    async enqueueJob(job) {
      const row = jobRow(job);
      const result = await runPrecompiled(
        db,
        "jobs.insert",
        () =>
          db
            .insertInto("jobs")
            .values(row)
            .onConflict((oc) => oc.doNothing()),
        Object.values(row),
      );
      if (Number(result.numAffectedRows ?? 0n) === 0) throw new KytError("CONFLICT", `job ${job.id} exists`);
    },
    async enqueueJobs(jobs) {
      if (jobs.length === 0) return;
      await ctx.atomic(async (tx) => {
        for (const chunk of chunksOf(jobs.map(jobRow), INSERT_CHUNK)) {
          const result = await runPrecompiled(
            tx,
            `jobs.insertMany:${chunk.length}`,
            () =>
              tx
                .insertInto("jobs")
                .values(chunk)
                .onConflict((oc) => oc.doNothing()),
            chunk.flatMap((row) => Object.values(row)),
          );
          if (Number(result.numAffectedRows ?? 0n) < chunk.length)
            throw new KytError("CONFLICT", "a job of the batch exists");
        }
      });
    },
    async completeJobs(ids, owner) {
      let done = 0;
      for (const chunk of chunksOf([...new Set(ids)], IN_LIST_CHUNK)) {
        const result = await db
          .deleteFrom("jobs")
          .where("lease_owner", "=", owner)
          .where("id", "in", chunk)
          .executeTakeFirst();
        done += Number(result.numDeletedRows ?? 0n);
      }
      return done;
    },
    async claimJobs(request) {
      return claimDue(ctx, request);
    },
    async completeJob(id, owner) {
      const result = await runPrecompiled(
        db,
        "jobs.complete",
        () => db.deleteFrom("jobs").where("id", "=", id).where("lease_owner", "=", owner),
        [id, owner],
      );
      return Number(result.numAffectedRows ?? 0n) === 1;
    },
    async retryJob(id, owner, runAt, lastError) {
      const result = await db
        .updateTable("jobs")
        .set({ run_at: runAt, last_error: lastError, lease_owner: null, lease_until: null })
        .where("id", "=", id)
        .where("lease_owner", "=", owner)
        .executeTakeFirstOrThrow();
      return changedRows(result) === 1;
    },
    async postponeJobs(postponed, owner) {
      // A statement per chunk, each job's time and reason picked by CASE on its id (the first
      // of a repeated id wins, as it would one update after another): one round trip per chunk
      // on Postgres instead of one per job. One chunk is atomic alone; more share a transaction.
      const postpone = async (on: Kysely<Database>): Promise<number> => {
        let done = 0;
        for (const chunk of chunksOf(postponed, POSTPONE_CHUNK)) {
          const pick = (value: (job: PostponedJob) => unknown, type: "bigint" | "text") =>
            sql<never>`case ${sql.ref("id")} ${sql.join(
              chunk.map((job) => sql`when ${job.id} then cast(${value(job)} as ${sql.raw(type)})`),
              sql` `,
            )} end`;
          // Compiled once per chunk length; the parameters in the order the statement takes them.
          const ids = chunk.map((job) => job.id);
          const result = await runPrecompiled(
            on,
            `jobs.postpone:${chunk.length}`,
            () =>
              on
                .updateTable("jobs")
                .set({
                  run_at: pick((job) => job.runAt, "bigint"),
                  last_error: pick((job) => job.lastError, "text"),
                  attempts: 0,
                  lease_owner: null,
                  lease_until: null,
                })
                .where("lease_owner", "=", owner)
                .where("id", "in", ids),
            [
              ...chunk.flatMap((job) => [job.id, job.runAt]),
              ...chunk.flatMap((job) => [job.id, job.lastError]),
              0,
              null,
              null,
              owner,
              ...ids,
            ],
          );
          done += Number(result.numAffectedRows ?? 0n);
        }
        return done;
      };
      if (postponed.length === 0) return 0;
      return postponed.length <= POSTPONE_CHUNK ? postpone(db) : ctx.atomic(postpone);
    },
    async listJobs(subjectId) {
      let query = db
        .selectFrom("jobs")
        .selectAll()
        .orderBy("run_at", "asc")
        .orderBy(orderText(ctx, "id"), "asc");
      if (subjectId !== undefined) query = query.where("subject_id", "=", subjectId);
      return (await query.execute()).map(fromRow);
    },
    async nextJobAt(kinds) {
      if (kinds !== undefined) return nextJobOfKindsAt(db, kinds);
      // Two index reads, not a scan of every job (thousands wait for their transaction to be
      // mined): the first due job no live lease holds, in `jobs_run_at` order (only jobs in
      // flight are skipped), and the first lease to run out, from the partial `jobs_leased`.
      const free = await runPrecompiled(
        db,
        "jobs.nextFree",
        () =>
          db
            .selectFrom("jobs")
            .select("run_at")
            .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", eb.ref("run_at"))]))
            .orderBy("run_at", "asc")
            .limit(1),
        [1],
      );
      const leased = await runPrecompiled(
        db,
        "jobs.nextLeaseEnd",
        () =>
          db
            .selectFrom("jobs")
            .select("lease_until")
            .where("lease_until", "is not", null)
            .whereRef("lease_until", ">", "run_at")
            .orderBy("lease_until", "asc")
            .limit(1),
        [1],
      );
      return earliest(
        numOrNull(free.rows[0]?.run_at ?? null),
        numOrNull(leased.rows[0]?.lease_until ?? null),
      );
    },
  };
}
