/**
 * The bind job: asks the chain source for the transfer's transaction and, when found, enriches
 * the transfer (occurred_at, addresses, amount, value) and queues its checks, in one
 * transaction. Not found yet: asked again until the binding window ends, then not_found.
 */
import type { JobRecord, LedgerTransfer, TransferRecord } from "../domain/records.js";
import { TX_STATUS_MACHINE, transition } from "../machines/index.js";
import { presentTransfer } from "../schemas/index.js";
import { unqueueChecks } from "./check-states.js";
import type { EngineContext } from "./engine-context.js";
import { newJob } from "./job-factory.js";
import type { JobHandler, JobOutcome } from "./job-runner.js";
import { roundCents } from "./money.js";
import { ALL_CHECKS } from "./transfer-registration.js";
import { recordEvent } from "./webhook-outbox.js";

/** The ledger transfer of a transaction that matches a registered transfer, or null. */
export function matchChainTransfer(
  transfer: Pick<TransferRecord, "tokenId" | "outputAddress" | "inputAddress">,
  candidates: ReadonlyArray<LedgerTransfer>,
): LedgerTransfer | null {
  return (
    candidates.find(
      (row) =>
        row.tokenId === transfer.tokenId &&
        (transfer.outputAddress === null || row.to === transfer.outputAddress) &&
        (transfer.inputAddress === null || row.from === transfer.inputAddress),
    ) ?? null
  );
}

/** Ends binding without a transaction: not_found or error, queued checks back to none. */
async function endBinding(
  ctx: EngineContext,
  job: JobRecord,
  to: "not_found" | "error",
  reason: string,
): Promise<void> {
  const changed = await ctx.store.transaction(async (tx) => {
    const transfer = await tx.getTransfer(job.subjectId);
    if (transfer?.txStatus !== "binding") return null;
    const now = ctx.clock.now();
    const next: TransferRecord = {
      ...transfer,
      txStatus: transition(TX_STATUS_MACHINE, transfer.txStatus, to),
      checks: unqueueChecks(transfer.checks, now),
      lastError: reason,
      updatedAt: now,
    };
    await tx.updateTransfer(next);
    await recordEvent(ctx, tx, next.accountId, "transfer.status_changed", {
      transfer: presentTransfer(next),
      from: "binding",
    });
    return next;
  });
  if (changed) ctx.events.emit("transfer.status_changed", changed, "binding");
}

/** Writes the found transaction onto the transfer and queues its checks. */
async function bind(ctx: EngineContext, job: JobRecord, row: LedgerTransfer): Promise<void> {
  const token = await ctx.tokens.token(row.network, row.tokenId);
  const price =
    row.valueUsd === null ? await ctx.prices.usdPrice(row.network, row.tokenId, row.occurredAt) : null;
  const value = row.valueUsd ?? (price === null ? null : row.amount * price);
  const bound = await ctx.store.transaction(async (tx) => {
    const transfer = await tx.getTransfer(job.subjectId);
    if (transfer?.txStatus !== "binding") return null;
    const now = ctx.clock.now();
    const next: TransferRecord = {
      ...transfer,
      txStatus: transition(TX_STATUS_MACHINE, transfer.txStatus, "bound"),
      occurredAt: row.occurredAt,
      inputAddress: row.from,
      outputAddress: row.to,
      amount: row.amount,
      valueInFiat: value === null ? null : roundCents(value),
      tokenSymbol: token?.symbol ?? transfer.tokenSymbol,
      lastError: null,
      updatedAt: now,
    };
    await tx.updateTransfer(next);
    await recordEvent(ctx, tx, next.accountId, "transfer.status_changed", {
      transfer: presentTransfer(next),
      from: "binding",
    });
    if (!next.disableAutoCheck) {
      await tx.enqueueJob(
        newJob(ctx, "transfer.check", next.accountId, next.id, { checks: [...ALL_CHECKS] }),
      );
    }
    return next;
  });
  if (bound) {
    ctx.events.emit("transfer.status_changed", bound, "binding");
    ctx.events.emit("transfer.bound", bound);
    ctx.wake();
  }
}

/** Creates the handler of `transfer.bind` jobs. */
export function bindJobHandler(ctx: EngineContext): JobHandler {
  return {
    async run(job): Promise<JobOutcome> {
      const transfer = await ctx.store.getTransfer(job.subjectId);
      if (transfer?.txStatus !== "binding" || !transfer.txHash) return { kind: "done" };
      const lookup = await ctx.chain.lookup(transfer.network, transfer.txHash);
      if (lookup.kind === "found") {
        const row = matchChainTransfer(transfer, lookup.transfers);
        if (row) {
          await bind(ctx, job, row);
        } else {
          await endBinding(
            ctx,
            job,
            "not_found",
            "the transaction has no transfer of this token to this output address",
          );
        }
        return { kind: "done" };
      }
      if (lookup.kind === "failed") {
        await endBinding(ctx, job, "not_found", `the transaction failed on chain: ${lookup.reason}`);
        return { kind: "done" };
      }
      const since = typeof job.payload.bindingSince === "number" ? job.payload.bindingSince : job.createdAt;
      const now = ctx.clock.now();
      if (now - since >= ctx.binding.windowMs) {
        await endBinding(
          ctx,
          job,
          "not_found",
          `the chain source did not find the transaction within ${ctx.binding.windowMs} ms`,
        );
        return { kind: "done" };
      }
      const reason = lookup.kind === "pending" ? "transaction not final yet" : "transaction not found yet";
      return {
        kind: "later",
        runAt: Math.min(now + ctx.binding.pollMs, since + ctx.binding.windowMs),
        reason,
      };
    },
    async giveUp(job, reason) {
      await endBinding(ctx, job, "error", `binding kept failing (chain source or store): ${reason}`);
    },
  };
}
