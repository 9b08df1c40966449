/** Reading transfers, their exposure, counterparty and risks, and rechecking them. */

import type { CheckKind } from "../../domain/enums.js";
import type { TransferRecord } from "../../domain/records.js";
import { KytError, notFound } from "../../errors.js";
import type { TransferSummary } from "../../ports/store.js";
import { parseInput, transferListQuerySchema } from "../../schemas/index.js";
import { lookupId } from "../../schemas/wire-text.js";
import type { EngineContext } from "../engine-context.js";
import { enqueueChecks, loadTransfer } from "./transfer-registration.js";

/**
 * A transfer of the account without its checks' results (what its summary presents), or
 * NOT_FOUND (also for another account's transfer): the results are neither read nor decoded.
 */
export async function loadTransferSummary(
  ctx: EngineContext,
  accountId: string,
  id: string,
): Promise<TransferSummary> {
  const transfer = await ctx.store.getTransferSummary(lookupId("transfer", id));
  if (!transfer || transfer.accountId !== accountId) throw notFound("transfer", id);
  return transfer;
}

/** Lists the account's transfers with the spec's filters, newest first. */
export async function listTransfers(ctx: EngineContext, accountId: string, query: unknown) {
  const q = parseInput(transferListQuerySchema, query, "transfer list query");
  const page = await ctx.store.listTransfers(accountId, q.filter, { page: q.page, pageSize: q.pageSize });
  return { ...page, page: q.page, pageSize: q.pageSize };
}

/**
 * Queues new runs of `kinds` (the first names the check in a refusal) on the account's transfer
 * `id`, in one transaction; ILLEGAL_TRANSITION (409) with the reason when `refusal` gives one.
 */
async function recheck(
  ctx: EngineContext,
  accountId: string,
  id: string,
  kinds: readonly [CheckKind, ...CheckKind[]],
  refusal: (transfer: TransferRecord) => string | null,
): Promise<TransferRecord> {
  const next = await ctx.store.transaction(async (tx) => {
    const transfer = await loadTransfer(tx, accountId, id);
    const reason = refusal(transfer);
    if (reason !== null) {
      throw new KytError("ILLEGAL_TRANSITION", `transfer ${id}: ${reason}`, {
        details: { machine: "check_state", from: transfer.checks[kinds[0]].state, to: "queued", allowed: [] },
      });
    }
    return enqueueChecks(ctx, tx, transfer, kinds);
  });
  ctx.wake();
  return next;
}

/** Queues a new counterparty check. The counterparty must be known (409 otherwise). */
export function recheckCounterparty(
  ctx: EngineContext,
  accountId: string,
  id: string,
): Promise<TransferRecord> {
  return recheck(ctx, accountId, id, ["counterparty", "sanctions"], (transfer) => {
    const address = transfer.direction === "incoming" ? transfer.inputAddress : transfer.outputAddress;
    return address === null ? "the counterparty address is not known until the transfer is bound" : null;
  });
}

/** Queues a new exposure check. Exposure is a property of bound transfers (409 otherwise). */
export function recheckExposure(ctx: EngineContext, accountId: string, id: string): Promise<TransferRecord> {
  return recheck(ctx, accountId, id, ["exposure"], (transfer) =>
    transfer.txStatus === "bound"
      ? null
      : `exposure needs a bound transaction (tx_status ${transfer.txStatus})`,
  );
}
