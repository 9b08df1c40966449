/** Durable jobs of the in-memory store: leases instead of locks, like the SQL stores. */
import type { JobRecord, Millis } from "../domain/records.js";
import { KytError } from "../errors.js";
import type { JobStore } from "../ports/store.js";
import { deleteEntry, type Journal, setEntry } from "./memory-journal.js";
import { compareStrings, copy, type MemoryTables } from "./memory-state.js";

/** The job members of the store port. */
export type JobOps = JobStore;

/** True when a job may be claimed at `now`: due, and not leased or its lease ran out. */
export function isClaimable(job: JobRecord, now: Millis): boolean {
  return job.runAt <= now && (job.leaseUntil === null || job.leaseUntil <= now);
}

/** When a job becomes claimable: its runAt, or the end of its lease if that is later. */
export function claimableAt(job: JobRecord): Millis {
  return job.leaseUntil !== null && job.leaseUntil > job.runAt ? job.leaseUntil : job.runAt;
}

/** Earliest runAt first, then id. */
function byRunAt(a: JobRecord, b: JobRecord): number {
  return a.runAt - b.runAt || compareStrings(a.id, b.id);
}

/** Creates the job members over `tables`, writing through `journal`. */
export function memoryJobOps(tables: MemoryTables, journal: Journal): JobOps {
  const { jobs } = tables;
  const heldBy = (id: string, owner: string): JobRecord | null => {
    const job = jobs.get(id);
    return job && job.leaseOwner === owner ? job : null;
  };
  const ops: JobOps = {
    async enqueueJob(job) {
      await ops.enqueueJobs([job]);
    },
    async enqueueJobs(batch) {
      const ids = new Set<string>();
      for (const job of batch) {
        if (jobs.has(job.id) || ids.has(job.id)) throw new KytError("CONFLICT", `job ${job.id} exists`);
        ids.add(job.id);
      }
      for (const job of batch) setEntry(journal, jobs, job.id, copy(job));
    },
    async claimJobs({ now, limit, leaseMs, owner, kinds }) {
      const due = [...jobs.values()]
        .filter((j) => isClaimable(j, now) && (kinds === undefined || kinds.includes(j.kind)))
        .sort(byRunAt);
      return due.slice(0, Math.max(0, limit)).map((job) => {
        const claimed: JobRecord = {
          ...job,
          attempts: job.attempts + 1,
          leaseOwner: owner,
          leaseUntil: now + leaseMs,
        };
        setEntry(journal, jobs, job.id, claimed);
        return copy(claimed);
      });
    },
    async completeJob(id, owner) {
      return (await ops.completeJobs([id], owner)) === 1;
    },
    async completeJobs(ids, owner) {
      let done = 0;
      for (const id of new Set(ids)) {
        if (!heldBy(id, owner)) continue;
        deleteEntry(journal, jobs, id);
        done += 1;
      }
      return done;
    },
    async retryJob(id, owner, runAt, lastError) {
      const job = heldBy(id, owner);
      if (!job) return false;
      setEntry(journal, jobs, id, { ...job, runAt, lastError, leaseOwner: null, leaseUntil: null });
      return true;
    },
    async postponeJobs(postponed, owner) {
      let done = 0;
      for (const { id, runAt, lastError } of postponed) {
        const job = heldBy(id, owner);
        if (!job) continue;
        setEntry(journal, jobs, id, {
          ...job,
          runAt,
          lastError,
          attempts: 0,
          leaseOwner: null,
          leaseUntil: null,
        });
        done += 1;
      }
      return done;
    },
    async listJobs(subjectId) {
      const matching = [...jobs.values()].filter((j) => subjectId === undefined || j.subjectId === subjectId);
      return matching.sort(byRunAt).map(copy);
    },
    async nextJobAt(kinds) {
      let next: Millis | null = null;
      for (const job of jobs.values()) {
        if (kinds !== undefined && !kinds.includes(job.kind)) continue;
        const at = claimableAt(job);
        if (next === null || at < next) next = at;
      }
      return next;
    },
  };
  return ops;
}
