/**
 * Checking a crash run's store: every registered transfer terminal with its checks done, the
 * expected outcome where the world fixes one, no job left, and nothing duplicated (transfers,
 * alerts per (transfer, dedupe key), risks per (subject, check kind, finding)).
 */
import type { RiskRecord, Store, TransferRecord } from "@openkyt/core";
import type { CrashExpectation } from "./crash-world.js";

/** A registered transfer and what it must end as. */
export interface RegisteredTransfer {
  readonly id: string;
  readonly expect: CrashExpectation;
}

/** What the checks found. */
export interface CrashFindings {
  readonly registered: number;
  readonly bound: number;
  readonly notFound: number;
  /** Ended in tx_status error (a failure: nothing in this world should fail). */
  readonly errored: number;
  /**
   * Registered but missing, or not settled with no job left to settle it: nothing will ever
   * finish it. (Not settled but with a job pending is `pending`: the run stopped too early.)
   */
  readonly lost: number;
  /** Not settled yet, with a job that will carry it on. */
  readonly pending: number;
  /** Terminal, but not as the world says (for example a sanctioned sender not severe). */
  readonly wrong: number;
  readonly duplicatedTransfers: number;
  readonly duplicatedAlerts: number;
  readonly duplicatedRisks: number;
  readonly jobsLeft: number;
}

/** Bound with every check checked, or not_found: nothing more will happen to it. */
export function isSettled(t: TransferRecord): boolean {
  if (t.txStatus === "not_found" || t.txStatus === "error") return true;
  return t.txStatus === "bound" && Object.values(t.checks).every((c) => c.state === "checked");
}

/** Reads the transfers with `ids`, 500 at a time. */
export async function readTransfers(store: Store, ids: ReadonlyArray<string>): Promise<TransferRecord[]> {
  const out: TransferRecord[] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(...(await store.getTransfers(ids.slice(i, i + 500))));
  return out;
}

/** How many of `items` share a key with an earlier one. */
function duplicates<T>(items: ReadonlyArray<T>, key: (item: T) => string): number {
  return items.length - new Set(items.map(key)).size;
}

/** The finding a risk records, whatever its id and time. */
const findingOf = (r: RiskRecord) =>
  JSON.stringify([r.checkKind, r.riskType, r.entityCategory, r.proximity, r.rule]);

/** Runs every check over the registered transfers of `accountId`. */
export async function verifyCrashRun(
  store: Store,
  accountId: string,
  registered: ReadonlyArray<RegisteredTransfer>,
): Promise<CrashFindings> {
  const stored = await readTransfers(
    store,
    registered.map((r) => r.id),
  );
  const byId = new Map(stored.map((t) => [t.id, t]));
  const jobs = await store.listJobs();
  const withJob = new Set(jobs.map((job) => job.subjectId));
  const found = { lost: 0, pending: 0, wrong: 0, duplicatedAlerts: 0, duplicatedRisks: 0 };
  const count: Record<string, number> = {};
  for (let i = 0; i < registered.length; i += 20) {
    await Promise.all(
      registered.slice(i, i + 20).map(async ({ id, expect }) => {
        const t = byId.get(id);
        if (!t) {
          found.lost += 1;
          return;
        }
        found.duplicatedAlerts += duplicates(await store.listAlertsOfTransfer(id), (a) => a.dedupeKey);
        found.duplicatedRisks += duplicates(await store.listRisks("transfer", id), findingOf);
        if (!isSettled(t)) {
          if (withJob.has(id)) found.pending += 1;
          else found.lost += 1;
          return;
        }
        count[t.txStatus] = (count[t.txStatus] ?? 0) + 1;
        const outcome = t.txStatus === "bound" ? t.riskLevel : t.txStatus;
        if (t.txStatus === "error" || (expect !== null && outcome !== expect)) found.wrong += 1;
      }),
    );
  }
  const { total } = await store.listTransfers(accountId, {}, { page: 1, pageSize: 1 });
  return {
    ...found,
    registered: registered.length,
    bound: count.bound ?? 0,
    notFound: count.not_found ?? 0,
    errored: count.error ?? 0,
    duplicatedTransfers: total - new Set(registered.map((r) => r.id)).size,
    jobsLeft: jobs.length,
  };
}
