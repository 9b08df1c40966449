/**
 * The bind job: asks the chain source for the transfer's transaction and, when found, enriches
 * the transfer (occurred_at, addresses, amount, value) and queues its checks, in one
 * transaction. Not found yet: asked again until the binding window ends, then not_found.
 */
import type { JobRecord, LedgerTransfer, TransferRecord } from "../domain/records.js";
import { TX_STATUS_MACHINE, transition } from "../machines/index.js";
import type { StoreOps } from "../ports/store.js";
import { presentTransfer } from "../schemas/index.js";
import { unqueueChecks } from "./check-states.js";
import type { EngineContext } from "./engine-context.js";
import { newJob } from "./job-factory.js";
import type { BatchJobOutcome, JobHandler, JobOutcome } from "./job-runner.js";
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

/**
 * Moves a transfer that is still binding to what `change` makes of it and records its status
 * event, in `tx`; null (nothing written) when the transfer is no longer binding.
 */
async function leaveBinding(
  ctx: EngineContext,
  tx: StoreOps,
  job: JobRecord,
  change: (transfer: TransferRecord, now: number) => TransferRecord,
): Promise<TransferRecord | null> {
  const transfer = await tx.getTransfer(job.subjectId);
  if (transfer?.txStatus !== "binding") return null;
  const next = change(transfer, ctx.clock.now());
  await tx.updateTransfer(next);
  await recordEvent(ctx, tx, next.accountId, "transfer.status_changed", {
    transfer: presentTransfer(next),
    from: "binding",
  });
  return next;
}

/** Ends binding without a transaction (not_found or error, queued checks back to none), in `tx`. */
function writeEndBinding(
  ctx: EngineContext,
  tx: StoreOps,
  job: JobRecord,
  to: "not_found" | "error",
  reason: string,
): Promise<TransferRecord | null> {
  return leaveBinding(ctx, tx, job, (transfer, now) => ({
    ...transfer,
    txStatus: transition(TX_STATUS_MACHINE, transfer.txStatus, to),
    checks: unqueueChecks(transfer.checks, now),
    lastError: reason,
    updatedAt: now,
  }));
}

/** Ends binding without a transaction in a transaction of its own. */
async function endBinding(
  ctx: EngineContext,
  job: JobRecord,
  to: "not_found" | "error",
  reason: string,
): Promise<void> {
  const changed = await ctx.store.transaction((tx) => writeEndBinding(ctx, tx, job, to, reason));
  if (changed) ctx.events.emit("transfer.status_changed", changed, "binding");
}

/** What a found transaction adds to its transfer, read before the write. */
interface FoundTransfer {
  readonly row: LedgerTransfer;
  readonly value: number | null;
  readonly symbol: string | null;
}

/** Looks up the token and the USD value of a found ledger transfer. */
async function enrich(ctx: EngineContext, row: LedgerTransfer): Promise<FoundTransfer> {
  const token = await ctx.tokens.token(row.network, row.tokenId);
  const price =
    row.valueUsd === null ? await ctx.prices.usdPrice(row.network, row.tokenId, row.occurredAt) : null;
  const value = row.valueUsd ?? (price === null ? null : row.amount * price);
  return { row, value, symbol: token?.symbol ?? null };
}

/** Writes the found transaction onto the transfer and queues its checks, in `tx`. */
async function writeBind(
  ctx: EngineContext,
  tx: StoreOps,
  job: JobRecord,
  found: FoundTransfer,
): Promise<TransferRecord | null> {
  const { row, value } = found;
  const next = await leaveBinding(ctx, tx, job, (transfer, now) => ({
    ...transfer,
    txStatus: transition(TX_STATUS_MACHINE, transfer.txStatus, "bound"),
    occurredAt: row.occurredAt,
    inputAddress: row.from,
    outputAddress: row.to,
    amount: row.amount,
    valueInFiat: value === null ? null : roundCents(value),
    tokenSymbol: found.symbol ?? transfer.tokenSymbol,
    lastError: null,
    updatedAt: now,
  }));
  if (next && !next.disableAutoCheck) {
    await tx.enqueueJob(newJob(ctx, "transfer.check", next.accountId, next.id, { checks: [...ALL_CHECKS] }));
  }
  return next;
}

/** The events of a bound transfer, after its transaction committed. */
function emitBound(ctx: EngineContext, bound: TransferRecord): void {
  ctx.events.emit("transfer.status_changed", bound, "binding");
  ctx.events.emit("transfer.bound", bound);
}

/** What a lookup decided for one bind job, before anything is written. */
type BindStep =
  | { readonly kind: "skip" }
  | { readonly kind: "bind"; readonly found: FoundTransfer }
  | { readonly kind: "end"; readonly reason: string }
  | { readonly kind: "later"; readonly outcome: JobOutcome };

/** Asks the chain source about a binding transfer and decides the job's step (reads only). */
async function decide(
  ctx: EngineContext,
  job: JobRecord,
  transfer: TransferRecord | null,
): Promise<BindStep> {
  if (transfer?.txStatus !== "binding" || !transfer.txHash) return { kind: "skip" };
  const lookup = await ctx.chain.lookup(transfer.network, transfer.txHash);
  if (lookup.kind === "found") {
    const row = matchChainTransfer(transfer, lookup.transfers);
    return row
      ? { kind: "bind", found: await enrich(ctx, row) }
      : { kind: "end", reason: "the transaction has no transfer of this token to this output address" };
  }
  if (lookup.kind === "failed") {
    return { kind: "end", reason: `the transaction failed on chain: ${lookup.reason}` };
  }
  const since = typeof job.payload.bindingSince === "number" ? job.payload.bindingSince : job.createdAt;
  const now = ctx.clock.now();
  if (now - since >= ctx.binding.windowMs) {
    return {
      kind: "end",
      reason: `the chain source did not find the transaction within ${ctx.binding.windowMs} ms`,
    };
  }
  const reason = lookup.kind === "pending" ? "transaction not final yet" : "transaction not found yet";
  return {
    kind: "later",
    outcome: {
      kind: "later",
      runAt: Math.min(now + ctx.binding.pollMs, since + ctx.binding.windowMs),
      reason,
    },
  };
}

/** Creates the handler of `transfer.bind` jobs. */
export function bindJobHandler(ctx: EngineContext): JobHandler {
  return {
    async run(job): Promise<JobOutcome> {
      const step = await decide(ctx, job, await ctx.store.getTransfer(job.subjectId));
      if (step.kind === "later") return step.outcome;
      if (step.kind === "end") await endBinding(ctx, job, "not_found", step.reason);
      if (step.kind === "bind") {
        const bound = await ctx.store.transaction((tx) => writeBind(ctx, tx, job, step.found));
        if (bound) {
          emitBound(ctx, bound);
          ctx.wake();
        }
      }
      return { kind: "done" };
    },
    /**
     * Several jobs with one read of their transfers, the chain lookups side by side, and one
     * transaction that binds or ends every decided transfer and deletes their jobs. A job whose
     * lookup throws is failed alone; one still waiting for its transaction is run again later.
     */
    async runBatch(jobs): Promise<ReadonlyArray<BatchJobOutcome>> {
      const transfers = new Map(
        (await ctx.store.getTransfers(jobs.map((j) => j.subjectId))).map((t) => [t.id, t]),
      );
      const steps = await Promise.all(
        jobs.map(async (job): Promise<BindStep | { kind: "failed"; error: unknown }> => {
          try {
            return await decide(ctx, job, transfers.get(job.subjectId) ?? null);
          } catch (error) {
            return { kind: "failed", error };
          }
        }),
      );
      const changed = await ctx.store.transaction(async (tx) => {
        const out: Array<{ transfer: TransferRecord; bound: boolean } | null> = [];
        for (const [i, job] of jobs.entries()) {
          const step = steps[i];
          let next: TransferRecord | null = null;
          if (step?.kind === "bind") next = await writeBind(ctx, tx, job, step.found);
          else if (step?.kind === "end") next = await writeEndBinding(ctx, tx, job, "not_found", step.reason);
          else if (step?.kind !== "skip") {
            out.push(null);
            continue;
          }
          await tx.completeJob(job.id, ctx.jobs.workerId);
          out.push(next ? { transfer: next, bound: step.kind === "bind" } : null);
        }
        return out;
      });
      let anyBound = false;
      const outcomes = jobs.map((_job, i): BatchJobOutcome => {
        const step = steps[i];
        if (step?.kind === "failed") return step;
        if (step?.kind === "later") return step.outcome;
        const done = changed[i];
        if (done?.bound) {
          emitBound(ctx, done.transfer);
          anyBound = true;
        } else if (done) {
          ctx.events.emit("transfer.status_changed", done.transfer, "binding");
        }
        return { kind: "completed" };
      });
      if (anyBound) ctx.wake();
      return outcomes;
    },
    async giveUp(job, reason) {
      await endBinding(ctx, job, "error", `binding kept failing (chain source or store): ${reason}`);
    },
  };
}
