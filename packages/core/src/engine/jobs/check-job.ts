/**
 * The check job of a transfer: marks its checks checking, runs them, then writes results,
 * risks, the aggregated level and new alerts in one transaction. Running it twice writes the
 * same results and opens no second alert.
 */
import type { CheckKind } from "../../domain/enums.js";
import { CHECK_KINDS, isCheckKind } from "../../domain/enums.js";
import type { AlertRecord, JobRecord, RiskModel, RiskRecord, TransferRecord } from "../../domain/records.js";
import type { StoreOps } from "../../ports/store.js";
import { aggregateRisk, collapseRisks, evaluateRisks } from "../../risk/index.js";
import { presentAlertWorkflow, presentTransfer } from "../../schemas/index.js";
import type { EngineContext } from "../engine-context.js";
import {
  type CheckResults,
  computeChecks,
  counterpartyLabel,
  transferCheckSubject,
} from "../screening/check-computation.js";
import { anyChecked, moveChecks } from "../screening/check-states.js";
import { modelVersionTag } from "../screening/model-resolution.js";
import { alertForRisk, riskRecords } from "../screening/risk-records.js";
import { type EventOutbox, eventOutbox } from "../webhooks/webhook-outbox.js";
import type { BatchJobOutcome, JobHandler, JobOutcome } from "./job-runner.js";
import { batchWrites, directWrites, type TransferWrites } from "./transfer-writes.js";

/** The checks a job asks for. */
export function jobChecks(job: JobRecord): CheckKind[] {
  const raw = job.payload.checks;
  return Array.isArray(raw) ? raw.filter(isCheckKind) : [];
}

/** The model a transfer is checked with: the one it asked for, else the default. */
async function modelOf(ctx: EngineContext, transfer: TransferRecord): Promise<RiskModel> {
  if (transfer.riskModelId === null) return ctx.defaultModel;
  return (await ctx.store.getRiskModel(transfer.accountId, transfer.riskModelId)) ?? ctx.defaultModel;
}

/** Moves checks still running to `to`; others keep their state (a newer job owns them). */
function finish(
  transfer: TransferRecord,
  kinds: ReadonlyArray<CheckKind>,
  to: "checked" | "error",
  at: number,
) {
  return moveChecks(
    transfer.checks,
    kinds.filter((kind) => transfer.checks[kind].state === "checking"),
    to,
    at,
  );
}

/** What a run's results are for: the checks among `kinds` that `transfer` still has running. */
function ownResults(
  transfer: TransferRecord,
  kinds: ReadonlyArray<CheckKind>,
  results: CheckResults,
): { live: CheckKind[]; own: CheckResults } {
  const live = kinds.filter((kind) => transfer.checks[kind].state === "checking");
  const has = (kind: CheckKind) => live.includes(kind);
  const own: CheckResults = {
    ...(has("exposure") && results.exposure ? { exposure: results.exposure } : {}),
    ...(has("counterparty") && results.counterparty ? { counterparty: results.counterparty } : {}),
    ...(has("sanctions") && results.sanctions ? { sanctions: results.sanctions } : {}),
    failures: results.failures,
  };
  return { live, own };
}

/**
 * Writes the results of one run over `transfer`, in `tx`: risks, the transfer row once, new
 * alerts with their history, and the outbox events. Only the checks among `kinds` that
 * `transfer` still has in state checking are written: a newer run may have finished or queued
 * the others again meanwhile (an attempt's checks, overtaken by its bind), and its results
 * stand. Returns the new transfer, risks, alerts and the checks written (none: nothing written).
 */
export async function writeResults(
  ctx: EngineContext,
  tx: StoreOps,
  transfer: TransferRecord,
  kinds: ReadonlyArray<CheckKind>,
  computed: CheckResults,
  model: RiskModel,
  outbox: EventOutbox = eventOutbox(ctx, tx),
  writes: TransferWrites = directWrites(tx),
): Promise<{ transfer: TransferRecord; risks: RiskRecord[]; alerts: AlertRecord[]; kinds: CheckKind[] }> {
  const { live, own: results } = ownResults(transfer, kinds, computed);
  if (live.length === 0) return { transfer, risks: [], alerts: [], kinds: [] };
  const now = ctx.clock.now();
  const ok = live.filter((kind) => results.failures[kind] === undefined);
  const failed = live.filter((kind) => results.failures[kind] !== undefined);
  const fired = collapseRisks(
    evaluateRisks({
      model,
      direction: transfer.direction,
      isAttempt: transfer.txStatus !== "bound",
      transferValue: transfer.valueInFiat,
      exposure: results.exposure ?? null,
      counterparty: results.counterparty ?? null,
      sanctions: results.sanctions ?? null,
    }),
  );
  const subject = {
    type: "transfer" as const,
    id: transfer.id,
    accountId: transfer.accountId,
    occurredAt: transfer.occurredAt ?? transfer.registeredAt,
  };
  const risks = riskRecords(ctx, fired, subject);
  await writes.replaceRisks(
    transfer.id,
    ok,
    risks.filter((risk) => ok.includes(risk.checkKind)),
  );
  const checks = finish(transfer, ok, "checked", now);
  const afterFail = finish({ ...transfer, checks }, failed, "error", now);
  // Every check kind replaced: the stored risks are exactly `risks`, no need to read them back.
  const all = new Set(ok).size === CHECK_KINDS.length ? risks : await writes.risks(transfer.id);
  const { riskLevel, riskScore } = aggregateRisk(all, anyChecked(afterFail));
  const counterparty = results.counterparty ?? transfer.counterparty;
  const sanctions = results.sanctions ?? transfer.sanctions;
  const label = counterpartyLabel(counterparty, sanctions);
  const next: TransferRecord = {
    ...transfer,
    checks: afterFail,
    exposure: results.exposure ?? transfer.exposure,
    counterparty,
    sanctions,
    counterpartyName: label.name,
    counterpartyCategory: label.category,
    riskLevel,
    riskScore,
    riskModelVersion: modelVersionTag(model),
    lastError:
      failed.length > 0
        ? failed.map((kind) => `${kind}: ${results.failures[kind]}`).join("; ")
        : transfer.lastError,
    updatedAt: now,
  };
  await writes.updateTransfer(next);
  const alerts: AlertRecord[] = [];
  for (const risk of risks) {
    const alert = alertForRisk(ctx, risk);
    if (!(await tx.insertAlert(alert))) continue;
    alerts.push(alert);
    await writes.alertOpened({
      id: ctx.ids.next(),
      alertId: alert.id,
      at: alert.createdAt,
      actor: null,
      from: null,
      to: "open",
      comment: null,
      assignee: null,
    });
    await outbox.record(next.accountId, "alert.created", () => ({
      alert: presentAlertWorkflow(alert, next),
    }));
  }
  await outbox.record(next.accountId, "transfer.checked", () => ({ transfer: presentTransfer(next) }));
  return { transfer: next, risks, alerts, kinds: live };
}

/** `transfer` with its queued checks among `kinds` moved to checking at `now` (in memory). */
export function startedChecks(
  transfer: TransferRecord,
  kinds: ReadonlyArray<CheckKind>,
  now: number,
): TransferRecord {
  const queued = kinds.filter((kind) => transfer.checks[kind].state === "queued");
  return queued.length === 0
    ? transfer
    : { ...transfer, checks: moveChecks(transfer.checks, queued, "checking", now) };
}

/** Moves the job's queued checks to checking, in the caller's transaction; null when the transfer is gone. */
async function startChecks(ctx: EngineContext, tx: StoreOps, job: JobRecord): Promise<TransferRecord | null> {
  const transfer = await tx.getTransfer(job.subjectId);
  if (!transfer) return null;
  const next = startedChecks(transfer, jobChecks(job), ctx.clock.now());
  if (next !== transfer) await tx.updateTransfer(next);
  return next;
}

/**
 * The checks of a started transfer, run against the engine's sources (reads only). `models`
 * memoises the risk model per account and model id across the transfers of one batch.
 */
export async function runChecks(
  ctx: EngineContext,
  started: TransferRecord,
  kinds: ReadonlyArray<CheckKind>,
  models: Map<string, Promise<RiskModel>>,
): Promise<{ results: CheckResults; model: RiskModel }> {
  const modelKey = `${started.accountId}\u0000${started.riskModelId ?? ""}`;
  let model = models.get(modelKey);
  if (!model) {
    model = modelOf(ctx, started);
    models.set(modelKey, model);
  }
  const results = await computeChecks(ctx, transferCheckSubject(started), kinds);
  return { results, model: await model };
}

/** What {@link writeResults} wrote. */
export type Written = Awaited<ReturnType<typeof writeResults>>;

/** The events of a written run, after its transaction committed (none when it wrote nothing). */
export function emitWritten(ctx: EngineContext, written: Written): void {
  if (written.kinds.length === 0) return;
  for (const kind of written.kinds) ctx.events.emit("check.completed", written.transfer, kind);
  for (const risk of written.risks) ctx.events.emit("risk.detected", risk);
  for (const alert of written.alerts) ctx.events.emit("alert.created", alert);
  ctx.events.emit("transfer.checked", written.transfer);
}

/** Creates the handler of `transfer.check` jobs. */
export function checkJobHandler(ctx: EngineContext): JobHandler {
  return {
    async run(job): Promise<JobOutcome> {
      const kinds = jobChecks(job);
      const started = await ctx.store.transaction((tx) => startChecks(ctx, tx, job));
      if (!started || kinds.length === 0) return { kind: "done" };
      const { results, model } = await runChecks(ctx, started, kinds, new Map());
      const written = await ctx.store.transaction(async (tx) => {
        const transfer = await tx.getTransfer(job.subjectId);
        return transfer ? writeResults(ctx, tx, transfer, kinds, results, model) : null;
      });
      if (written) emitWritten(ctx, written);
      return { kind: "done" };
    },
    /**
     * Several jobs with three transactions in all: one marks their checks checking, the checks
     * run, one writes every result and deletes the jobs. A job whose checks throw is failed
     * alone; the others are written.
     */
    async runBatch(jobs): Promise<ReadonlyArray<BatchJobOutcome>> {
      const started = await ctx.store.transaction(async (tx) => {
        const out: Array<TransferRecord | null> = [];
        for (const job of jobs) out.push(await startChecks(ctx, tx, job));
        return out;
      });
      const models = new Map<string, Promise<RiskModel>>();
      const computed = await Promise.all(
        jobs.map(async (job, i) => {
          const transfer = started[i];
          const kinds = jobChecks(job);
          if (!transfer || kinds.length === 0) return null;
          try {
            return { kinds, ...(await runChecks(ctx, transfer, kinds, models)) };
          } catch (error) {
            return { error };
          }
        }),
      );
      const written = await ctx.store.transaction(async (tx) => {
        const outbox = eventOutbox(ctx, tx);
        const writes = await batchWrites(
          tx,
          jobs
            .filter((_job, i) => computed[i] && !("error" in (computed[i] as object)))
            .map((j) => j.subjectId),
        );
        const out: Array<Written | null> = [];
        const completed: string[] = [];
        for (const [i, job] of jobs.entries()) {
          const run = computed[i];
          if (run && "error" in run) {
            out.push(null);
            continue;
          }
          const transfer = run ? await writes.transfer(job.subjectId) : null;
          out.push(
            run && transfer
              ? await writeResults(ctx, tx, transfer, run.kinds, run.results, run.model, outbox, writes)
              : null,
          );
          completed.push(job.id);
        }
        await writes.flush();
        await tx.completeJobs(completed, ctx.jobs.workerId);
        return out;
      });
      return jobs.map((_job, i): BatchJobOutcome => {
        const run = computed[i];
        if (run && "error" in run) return { kind: "failed", error: run.error };
        const done = written[i];
        if (run && done) emitWritten(ctx, done);
        return { kind: "completed" };
      });
    },
    async giveUp(job, reason) {
      const kinds = jobChecks(job);
      const changed = await ctx.store.transaction(async (tx) => {
        const transfer = await tx.getTransfer(job.subjectId);
        if (!transfer) return null;
        const now = ctx.clock.now();
        const queued = kinds.filter((kind) => transfer.checks[kind].state === "queued");
        const running = { ...transfer, checks: moveChecks(transfer.checks, queued, "checking", now) };
        const checks = finish(running, kinds, "error", now);
        const all = await tx.listRisks("transfer", transfer.id);
        const next = {
          ...transfer,
          checks,
          ...aggregateRisk(all, anyChecked(checks)),
          lastError: reason,
          updatedAt: now,
        };
        await tx.updateTransfer(next);
        return next;
      });
      if (changed) for (const kind of kinds) ctx.events.emit("check.completed", changed, kind);
    },
  };
}
