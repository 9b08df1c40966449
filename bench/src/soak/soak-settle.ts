/**
 * The end of a soak run: waits until the store has no job left (or a time limit), then checks
 * every transfer the server acknowledged: present, and settled (bound, not_found or error, no
 * check queued or running) or still pending with a job. Acknowledged but absent, or unsettled
 * with no job to finish it, is lost.
 */
import { CHECK_KINDS, type Store, type TransferRecord } from "@openkyt/core";

/** What the check found. */
export interface SettleReport {
  readonly acknowledged: number;
  readonly settled: number;
  readonly pending: number;
  readonly lost: number;
  readonly jobsLeft: number;
}

function isSettled(t: TransferRecord): boolean {
  return (
    t.txStatus !== "binding" &&
    CHECK_KINDS.every((k) => t.checks[k].state !== "queued" && t.checks[k].state !== "checking")
  );
}

/** Waits up to `limitMs` for the jobs to finish, then checks `registered` (ids by account). */
export async function checkSettled(
  store: Store,
  registered: ReadonlyMap<string, ReadonlySet<string>>,
  limitMs: number,
): Promise<SettleReport> {
  const until = Date.now() + limitMs;
  let jobs = await store.listJobs();
  while (jobs.length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    jobs = await store.listJobs();
  }
  const withJob = new Set(jobs.map((j) => j.subjectId));
  let acknowledged = 0;
  let settled = 0;
  let pending = 0;
  let lost = 0;
  for (const [account, ids] of registered) {
    const list = [...ids];
    acknowledged += list.length;
    for (let i = 0; i < list.length; i += 500) {
      const found = new Map((await store.getTransfers(list.slice(i, i + 500))).map((t) => [t.id, t]));
      for (const id of list.slice(i, i + 500)) {
        const t = found.get(id);
        if (!t || t.accountId !== account) lost += 1;
        else if (isSettled(t)) settled += 1;
        else if (withJob.has(id)) pending += 1;
        else lost += 1;
      }
    }
  }
  return { acknowledged, settled, pending, lost, jobsLeft: jobs.length };
}
