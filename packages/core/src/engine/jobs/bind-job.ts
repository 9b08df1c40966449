/**
 * The bind job: asks the chain source for the transfer's transaction and, when found, enriches
 * the transfer (occurred_at, addresses, amount, value) and screens it, in one transaction. Not
 * found yet: asked again until the binding window ends, then not_found.
 *
 * Binding and checking are one pass: the checks of a transfer about to be bound are computed
 * right after the lookup (reads only), and the bind, the results, the risks, the alerts and the
 * outbox events are written together, with one write of the transfer row and no check job.
 * When the checks cannot run (they threw) the bind is written alone and a check job queued, as
 * a registration with `force_recheck` would, so the check is retried with backoff.
 */
import { CHECK_KINDS } from "../../domain/enums.js";
import { roundCents } from "../../domain/money.js";
import type { JobRecord, LedgerTransfer, RiskModel, TransferRecord } from "../../domain/records.js";
import { bindUtxoTransfer } from "../../domain/utxo-binding.js";
import { describeError } from "../../errors.js";
import { TX_STATUS_MACHINE, transition } from "../../machines/index.js";
import type { StoreOps } from "../../ports/store.js";
import { presentTransfer } from "../../schemas/index.js";
import type { EngineContext } from "../engine-context.js";
import type { CheckResults } from "../screening/check-computation.js";
import { unqueueChecks } from "../screening/check-states.js";
import { type EventOutbox, eventOutbox, recordEvent } from "../webhooks/webhook-outbox.js";
import { emitWritten, runChecks, startedChecks, type Written, writeResults } from "./check-job.js";
import { newJob } from "./job-factory.js";
import type { BatchJobOutcome, JobHandler, JobOutcome } from "./job-runner.js";
import { batchWrites, directWrites, type TransferWrites } from "./transfer-writes.js";

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

/** `transfer` bound to the found transaction at `now` (in memory). */
function boundTransfer(transfer: TransferRecord, found: FoundTransfer, now: number): TransferRecord {
  const { row, value } = found;
  return {
    ...transfer,
    txStatus: transition(TX_STATUS_MACHINE, transfer.txStatus, "bound"),
    occurredAt: row.occurredAt,
    // A UTXO transaction whose inputs name no address (a coinbase) has no input address.
    inputAddress: row.from === "" ? null : row.from,
    outputAddress: row.to,
    amount: row.amount,
    valueInFiat: value === null ? null : roundCents(value),
    tokenSymbol: found.symbol ?? transfer.tokenSymbol,
    chainPosition: row.block === null ? null : { block: row.block, logIndex: row.logIndex },
    lastError: null,
    updatedAt: now,
  };
}

/** The checks of a transfer about to be bound, computed before anything is written. */
interface Precomputed {
  readonly results: CheckResults;
  readonly model: RiskModel;
}

/** What a bind wrote: the bound transfer and, when its checks ran in the same pass, their results. */
interface BindWritten {
  readonly bound: TransferRecord;
  readonly checked: Written | null;
}

/**
 * Writes the found transaction onto the transfer, in `tx`, and then either the results of its
 * checks (`checks` given: the transfer row is written once, bound and checked) or a check job
 * (auto-checked transfers whose checks did not run yet). Null when the transfer is no longer
 * binding.
 */
async function writeBind(
  ctx: EngineContext,
  tx: StoreOps,
  job: JobRecord,
  found: FoundTransfer,
  checks: Precomputed | null = null,
  outbox: EventOutbox = eventOutbox(ctx, tx),
  writes: TransferWrites = directWrites(tx),
): Promise<BindWritten | null> {
  if (checks) {
    const transfer = await writes.transfer(job.subjectId);
    if (transfer?.txStatus !== "binding") return null;
    const now = ctx.clock.now();
    const bound = boundTransfer(transfer, found, now);
    await outbox.record(bound.accountId, "transfer.status_changed", () => ({
      transfer: presentTransfer(bound),
      from: "binding",
    }));
    const started = startedChecks(bound, CHECK_KINDS, now);
    const checked = await writeResults(
      ctx,
      tx,
      started,
      CHECK_KINDS,
      checks.results,
      checks.model,
      outbox,
      writes,
    );
    return { bound, checked };
  }
  const bound = await leaveBinding(ctx, tx, job, (transfer, now) => boundTransfer(transfer, found, now));
  if (bound && !bound.disableAutoCheck) {
    await tx.enqueueJob(
      newJob(ctx, "transfer.check", bound.accountId, bound.id, { checks: [...CHECK_KINDS] }),
    );
  }
  return bound ? { bound, checked: null } : null;
}

/**
 * The checks of `transfer` as it will be once bound to `found`, run now (reads only); null when
 * it is not checked automatically or a check threw (the bind then queues a check job instead).
 */
async function precompute(
  ctx: EngineContext,
  transfer: TransferRecord,
  found: FoundTransfer,
  models: Map<string, Promise<RiskModel>>,
): Promise<Precomputed | null> {
  if (transfer.disableAutoCheck) return null;
  const now = ctx.clock.now();
  const started = startedChecks(boundTransfer(transfer, found, now), CHECK_KINDS, now);
  try {
    return await runChecks(ctx, started, CHECK_KINDS, models);
  } catch (error) {
    ctx.logger.warn(
      { transferId: transfer.id, reason: describeError(error) },
      "checks failed while binding; a check job will retry them",
    );
    return null;
  }
}

/** The events of a bound (and maybe checked) transfer, after its transaction committed. */
function emitBound(ctx: EngineContext, written: BindWritten): void {
  ctx.events.emit("transfer.status_changed", written.bound, "binding");
  ctx.events.emit("transfer.bound", written.bound);
  if (written.checked) emitWritten(ctx, written.checked);
  else if (!written.bound.disableAutoCheck) ctx.wake();
}

/** What a lookup decided for one bind job, before anything is written. */
type BindStep =
  | { readonly kind: "skip" }
  | { readonly kind: "bind"; readonly found: FoundTransfer; readonly checks: Precomputed | null }
  | { readonly kind: "end"; readonly reason: string }
  | { readonly kind: "later"; readonly outcome: JobOutcome };

/**
 * Asks the chain source about a binding transfer and decides the job's step; a transfer found
 * on chain has its checks run already (reads only).
 */
async function decide(
  ctx: EngineContext,
  job: JobRecord,
  transfer: TransferRecord | null,
  models: Map<string, Promise<RiskModel>>,
): Promise<BindStep> {
  if (transfer?.txStatus !== "binding" || !transfer.txHash) return { kind: "skip" };
  const lookup = await ctx.chain.lookup(transfer.network, transfer.txHash);
  if (lookup.kind === "found") {
    let row: LedgerTransfer | null;
    if (lookup.utxo) {
      const bound = bindUtxoTransfer(lookup.utxo, transfer);
      if (bound.kind === "mismatch") return { kind: "end", reason: bound.reason };
      row = bound.row;
    } else {
      row = matchChainTransfer(transfer, lookup.transfers);
    }
    if (!row) {
      return { kind: "end", reason: "the transaction has no transfer of this token to this output address" };
    }
    const found = await enrich(ctx, row);
    return { kind: "bind", found, checks: await precompute(ctx, transfer, found, models) };
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
      const step = await decide(ctx, job, await ctx.store.getTransfer(job.subjectId), new Map());
      if (step.kind === "later") return step.outcome;
      if (step.kind === "end") await endBinding(ctx, job, "not_found", step.reason);
      if (step.kind === "bind") {
        const written = await ctx.store.transaction((tx) => writeBind(ctx, tx, job, step.found, step.checks));
        if (written) emitBound(ctx, written);
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
      const models = new Map<string, Promise<RiskModel>>();
      const steps = await Promise.all(
        jobs.map(async (job): Promise<BindStep | { kind: "failed"; error: unknown }> => {
          try {
            return await decide(ctx, job, transfers.get(job.subjectId) ?? null, models);
          } catch (error) {
            return { kind: "failed", error };
          }
        }),
      );
      const changed = await ctx.store.transaction(async (tx) => {
        const outbox = eventOutbox(ctx, tx);
        // The transfers bound with their checks: read with one statement, written with one.
        const writes = await batchWrites(
          tx,
          jobs.filter((_job, i) => steps[i]?.kind === "bind").map((j) => j.subjectId),
        );
        const out: Array<{ bound: BindWritten } | { ended: TransferRecord } | null> = [];
        const completed: string[] = [];
        for (const [i, job] of jobs.entries()) {
          const step = steps[i];
          let done: { bound: BindWritten } | { ended: TransferRecord } | null = null;
          if (step?.kind === "bind") {
            const bound = await writeBind(ctx, tx, job, step.found, step.checks, outbox, writes);
            done = bound ? { bound } : null;
          } else if (step?.kind === "end") {
            const ended = await writeEndBinding(ctx, tx, job, "not_found", step.reason);
            done = ended ? { ended } : null;
          } else if (step?.kind !== "skip") {
            out.push(null);
            continue;
          }
          completed.push(job.id);
          out.push(done);
        }
        await writes.flush();
        await tx.completeJobs(completed, ctx.jobs.workerId);
        return out;
      });
      return jobs.map((_job, i): BatchJobOutcome => {
        const step = steps[i];
        if (step?.kind === "failed") return step;
        if (step?.kind === "later") return step.outcome;
        const done = changed[i];
        if (done && "bound" in done) emitBound(ctx, done.bound);
        else if (done) ctx.events.emit("transfer.status_changed", done.ended, "binding");
        return { kind: "completed" };
      });
    },
    async giveUp(job, reason) {
      await endBinding(ctx, job, "error", `binding kept failing (chain source or store): ${reason}`);
    },
  };
}
