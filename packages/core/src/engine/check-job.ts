/**
 * The check job of a transfer: marks its checks checking, runs them, then writes results,
 * risks, the aggregated level and new alerts in one transaction. Running it twice writes the
 * same results and opens no second alert.
 */
import type { CheckKind } from "../domain/enums.js";
import { isCheckKind } from "../domain/enums.js";
import type { AlertRecord, JobRecord, RiskModel, RiskRecord, TransferRecord } from "../domain/records.js";
import type { StoreOps } from "../ports/store.js";
import { aggregateRisk, collapseRisks, evaluateRisks } from "../risk/index.js";
import { presentAlertWorkflow, presentTransfer } from "../schemas/index.js";
import { type CheckResults, computeChecks, counterpartyLabel } from "./check-computation.js";
import { anyChecked, moveChecks } from "./check-states.js";
import type { EngineContext } from "./engine-context.js";
import type { JobHandler, JobOutcome } from "./job-runner.js";
import { modelVersionTag } from "./model-resolution.js";
import { alertForRisk, riskRecords } from "./risk-records.js";
import { recordEvent } from "./webhook-outbox.js";

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

/** Writes the results of one run. Returns the new transfer, risks and alerts. */
async function writeResults(
  ctx: EngineContext,
  tx: StoreOps,
  transfer: TransferRecord,
  kinds: ReadonlyArray<CheckKind>,
  results: CheckResults,
  model: RiskModel,
): Promise<{ transfer: TransferRecord; risks: RiskRecord[]; alerts: AlertRecord[] }> {
  const now = ctx.clock.now();
  const ok = kinds.filter((kind) => results.failures[kind] === undefined);
  const failed = kinds.filter((kind) => results.failures[kind] !== undefined);
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
  for (const kind of ok) {
    await tx.replaceRisks(
      "transfer",
      transfer.id,
      kind,
      risks.filter((risk) => risk.checkKind === kind),
    );
  }
  const checks = finish(transfer, ok, "checked", now);
  const afterFail = finish({ ...transfer, checks }, failed, "error", now);
  const all = await tx.listRisks("transfer", transfer.id);
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
  await tx.updateTransfer(next);
  const alerts: AlertRecord[] = [];
  for (const risk of risks) {
    const alert = alertForRisk(ctx, risk);
    if (!(await tx.insertAlert(alert))) continue;
    alerts.push(alert);
    await tx.appendAlertHistory({
      id: ctx.ids.next(),
      alertId: alert.id,
      at: alert.createdAt,
      actor: null,
      from: null,
      to: "open",
      comment: null,
      assignee: null,
    });
    await recordEvent(ctx, tx, next.accountId, "alert.created", { alert: presentAlertWorkflow(alert, next) });
  }
  await recordEvent(ctx, tx, next.accountId, "transfer.checked", { transfer: presentTransfer(next) });
  return { transfer: next, risks, alerts };
}

/** Creates the handler of `transfer.check` jobs. */
export function checkJobHandler(ctx: EngineContext): JobHandler {
  return {
    async run(job): Promise<JobOutcome> {
      const kinds = jobChecks(job);
      const started = await ctx.store.transaction(async (tx) => {
        const transfer = await tx.getTransfer(job.subjectId);
        if (!transfer) return null;
        const queued = kinds.filter((kind) => transfer.checks[kind].state === "queued");
        const next = {
          ...transfer,
          checks: moveChecks(transfer.checks, queued, "checking", ctx.clock.now()),
        };
        if (queued.length > 0) await tx.updateTransfer(next);
        return next;
      });
      if (!started || kinds.length === 0) return { kind: "done" };
      const model = await modelOf(ctx, started);
      const results = await computeChecks(
        ctx,
        {
          network: started.network,
          tokenId: started.tokenId,
          direction: started.direction,
          counterpartyAddress:
            started.direction === "incoming" ? started.inputAddress : started.outputAddress,
          occurredAt: started.txStatus === "bound" ? started.occurredAt : null,
          since: started.occurredAt ?? started.registeredAt,
          valueInFiat: started.valueInFiat,
        },
        kinds,
      );
      const written = await ctx.store.transaction(async (tx) => {
        const transfer = await tx.getTransfer(job.subjectId);
        return transfer ? writeResults(ctx, tx, transfer, kinds, results, model) : null;
      });
      if (!written) return { kind: "done" };
      for (const kind of kinds) ctx.events.emit("check.completed", written.transfer, kind);
      for (const risk of written.risks) ctx.events.emit("risk.detected", risk);
      for (const alert of written.alerts) ctx.events.emit("alert.created", alert);
      ctx.events.emit("transfer.checked", written.transfer);
      return { kind: "done" };
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
