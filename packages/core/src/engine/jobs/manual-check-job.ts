/**
 * The job of a manual check: resolves the transaction (transfer checks), runs the checks,
 * and writes the results and risks in one transaction. Manual checks open no alerts.
 */
import { CHECK_KINDS, type CheckKind } from "../../domain/enums.js";
import { roundCents } from "../../domain/money.js";
import type { JobRecord, LedgerTransfer, ManualCheckRecord, RiskModel } from "../../domain/records.js";
import type { UtxoTransaction } from "../../domain/utxo.js";
import { bindUtxoTransfer, outgoingCounterparty } from "../../domain/utxo-binding.js";
import { MANUAL_CHECK_MACHINE, transition } from "../../machines/index.js";
import type { StoreOps } from "../../ports/store.js";
import { aggregateRisk, collapseRisks, evaluateRisks } from "../../risk/index.js";
import { presentManualCheck } from "../../schemas/index.js";
import type { EngineContext } from "../engine-context.js";
import { type CheckSubject, computeChecks } from "../screening/check-computation.js";
import { modelVersionTag } from "../screening/model-resolution.js";
import { riskRecords } from "../screening/risk-records.js";
import { recordEvent } from "../webhooks/webhook-outbox.js";
import { jobOrigin, withOrigin } from "./job-origin.js";
import type { JobHandler, JobOutcome } from "./job-runner.js";

const ADDRESS_CHECKS: ReadonlyArray<CheckKind> = Object.freeze(["counterparty", "sanctions"]);

/** The transfer of a transaction a manual check means: the client side is `outputAddress`. */
export function matchManualTransfer(
  check: ManualCheckRecord,
  rows: ReadonlyArray<LedgerTransfer>,
): LedgerTransfer | null {
  return (
    rows.find(
      (row) =>
        row.tokenId === check.tokenId &&
        (check.direction === "incoming" ? row.to === check.outputAddress : row.from === check.outputAddress),
    ) ?? null
  );
}

/**
 * A transfer check of a UTXO transaction: incoming binds the outputs paying the check's
 * `output_address`; outgoing names the sender (the client's address, which must be an input),
 * so it binds the outputs paying the largest output address that is not an input's (the
 * counterparty; change excluded). The row is null with a reason when it cannot bind.
 */
function manualUtxoBinding(
  check: ManualCheckRecord,
  tx: UtxoTransaction,
): { row: LedgerTransfer | null; reason: string | null } {
  const outgoing = check.direction === "outgoing";
  const paid = outgoing ? outgoingCounterparty(tx) : check.outputAddress;
  if (paid === null) return { row: null, reason: "the transaction pays no address other than its inputs'" };
  const bound = bindUtxoTransfer(tx, {
    tokenId: check.tokenId,
    outputAddress: paid,
    inputAddress: outgoing ? check.outputAddress : null,
  });
  return bound.kind === "bound" ? { row: bound.row, reason: null } : { row: null, reason: bound.reason };
}

/** Ends a check: checked with results, or error with a reason. */
async function finishCheck(
  ctx: EngineContext,
  id: string,
  change: Partial<ManualCheckRecord>,
  to: "checked" | "error",
  alsoWrite?: (tx: StoreOps) => Promise<void>,
) {
  const done = await ctx.store.transaction(async (tx) => {
    const check = await tx.getManualCheck(id);
    if (check?.checkStatus !== "checking") return null;
    await alsoWrite?.(tx);
    const now = ctx.clock.now();
    const next: ManualCheckRecord = {
      ...check,
      ...change,
      checkStatus: transition(MANUAL_CHECK_MACHINE, check.checkStatus, to),
      checkedAt: now,
      updatedAt: now,
    };
    await tx.updateManualCheck(next);
    await recordEvent(ctx, tx, next.accountId, "manual_check.completed", {
      manual_check: presentManualCheck(next),
    });
    return next;
  });
  if (done) ctx.events.emit("manual_check.completed", done);
}

/** Runs the checks of a resolved subject and finishes the manual check with them. */
async function runChecks(
  ctx: EngineContext,
  check: ManualCheckRecord,
  subject: CheckSubject,
  kinds: ReadonlyArray<CheckKind>,
  enrichment: Partial<ManualCheckRecord>,
  model: RiskModel,
): Promise<void> {
  const results = await computeChecks(ctx, subject, kinds);
  const failed = kinds.filter((kind) => results.failures[kind] !== undefined);
  if (failed.length > 0) {
    const reason = failed.map((kind) => `${kind}: ${results.failures[kind]}`).join("; ");
    await finishCheck(ctx, check.id, { ...enrichment, lastError: reason }, "error");
    return;
  }
  const fired = collapseRisks(
    evaluateRisks({
      model,
      direction: subject.direction,
      isAttempt: false,
      transferValue: subject.valueInFiat,
      exposure: results.exposure ?? null,
      counterparty: results.counterparty ?? null,
      sanctions: results.sanctions ?? null,
    }),
  );
  const occurredAt = subject.occurredAt ?? check.createdAt;
  const risks = riskRecords(ctx, fired, {
    type: "manual_check",
    id: check.id,
    accountId: check.accountId,
    occurredAt,
  });
  await finishCheck(
    ctx,
    check.id,
    {
      ...enrichment,
      ...aggregateRisk(risks, true),
      riskModelVersion: modelVersionTag(model),
      exposure: results.exposure ?? null,
      counterparty: results.counterparty ?? null,
      sanctions: results.sanctions ?? null,
    },
    "checked",
    async (tx) => {
      await tx.replaceRisks(
        "manual_check",
        check.id,
        kinds,
        risks.filter((risk) => kinds.includes(risk.checkKind)),
      );
    },
  );
}

/** Resolves the transaction of a transfer check and runs its checks. */
async function runTransferCheck(
  ctx: EngineContext,
  job: JobRecord,
  check: ManualCheckRecord,
  model: RiskModel,
) {
  const lookup = await ctx.chain.lookup(check.network, check.txHash ?? "");
  if (lookup.kind === "pending") {
    const since = typeof job.payload.since === "number" ? job.payload.since : check.createdAt;
    const now = ctx.clock.now();
    if (now - since < ctx.binding.windowMs) {
      return {
        kind: "later",
        runAt: Math.min(now + ctx.binding.pollMs, since + ctx.binding.windowMs),
        reason: "transaction not final yet",
      } as const;
    }
  }
  const utxo = lookup.kind === "found" && lookup.utxo ? manualUtxoBinding(check, lookup.utxo) : null;
  const row = lookup.kind !== "found" ? null : utxo ? utxo.row : matchManualTransfer(check, lookup.transfers);
  if (!row) {
    const reason =
      lookup.kind === "found"
        ? (utxo?.reason ?? "the transaction has no transfer of this token for this output_address")
        : lookup.kind === "failed"
          ? `the transaction failed on chain: ${lookup.reason}`
          : "the transaction was not found";
    await finishCheck(ctx, check.id, { txStatus: "not_found", lastError: reason }, "error");
    return { kind: "done" } as const;
  }
  const token = await ctx.tokens.token(row.network, row.tokenId);
  const price =
    row.valueUsd === null ? await ctx.prices.usdPrice(row.network, row.tokenId, row.occurredAt) : null;
  const value = row.valueUsd ?? (price === null ? null : roundCents(row.amount * price));
  const counterpartyAddress = check.direction === "incoming" ? row.from : row.to;
  const enrichment: Partial<ManualCheckRecord> = {
    txStatus: "bound",
    occurredAt: row.occurredAt,
    inputAddress: row.from === "" ? null : row.from,
    outputAddress: row.to,
    counterpartyAddress,
    amount: row.amount,
    valueInFiat: value,
    tokenSymbol: token?.symbol ?? check.tokenSymbol,
  };
  const subject: CheckSubject = {
    network: check.network,
    tokenId: check.tokenId,
    direction: check.direction ?? "incoming",
    counterpartyAddress,
    occurredAt: row.occurredAt,
    position: row.block === null ? null : { block: row.block, logIndex: row.logIndex },
    txHash: row.txHash,
    paidAddress: row.to,
    since: row.occurredAt,
    valueInFiat: value,
  };
  await runChecks(ctx, check, subject, CHECK_KINDS, enrichment, model);
  return { kind: "done" } as const;
}

/**
 * Creates the handler of `manual_check.run` jobs. The deliveries of a check's
 * `manual_check.completed` event carry the origin of its job (the request that asked for it).
 */
export function manualCheckJobHandler(engineCtx: EngineContext): JobHandler {
  return {
    async run(job): Promise<JobOutcome> {
      const ctx = withOrigin(engineCtx, jobOrigin(job));
      const check = await ctx.store.getManualCheck(job.subjectId);
      if (check?.checkStatus !== "checking") return { kind: "done" };
      const model =
        check.riskModelId === null
          ? ctx.defaultModel
          : ((await ctx.store.getRiskModel(check.accountId, check.riskModelId)) ?? ctx.defaultModel);
      if (check.checkType !== "single_address") return runTransferCheck(ctx, job, check, model);
      const subject: CheckSubject = {
        network: check.network,
        tokenId: check.tokenId,
        direction: "incoming",
        counterpartyAddress: check.address,
        occurredAt: null,
        since: ctx.clock.now(),
        valueInFiat: null,
      };
      await runChecks(ctx, check, subject, ADDRESS_CHECKS, {}, model);
      return { kind: "done" };
    },
    async giveUp(job, reason) {
      await finishCheck(withOrigin(engineCtx, jobOrigin(job)), job.subjectId, { lastError: reason }, "error");
    },
  };
}
