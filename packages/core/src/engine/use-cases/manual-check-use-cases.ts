/** Creating and reading manual checks of a transfer or an address. */
import type { CheckStatus, ManualCheckRecord } from "../../domain/records.js";
import { notFound } from "../../errors.js";
import type { StoreOps } from "../../ports/store.js";
import { checkAddressSchema, checkTransferSchema, lookupId, parseInput } from "../../schemas/index.js";
import type { EngineContext } from "../engine-context.js";
import { newJob } from "../jobs/job-factory.js";
import { NO_RESULTS } from "../screening/check-states.js";
import { resolveRiskModel, resolveToken } from "../screening/model-resolution.js";

/** Loads a manual check of the account, or NOT_FOUND (also for another account's check). */
export async function loadManualCheck(
  store: StoreOps,
  accountId: string,
  id: string,
): Promise<ManualCheckRecord> {
  const check = await store.getManualCheck(lookupId("manual check", id));
  if (!check || check.accountId !== accountId) throw notFound("manual check", id);
  return check;
}

/** A manual check's status in the shape of a transfer's check state (for exposure responses). */
export function manualCheckState(c: ManualCheckRecord): CheckStatus {
  return { state: c.checkStatus, at: c.checkedAt };
}

type NewCheckFields = Pick<
  ManualCheckRecord,
  | "checkType"
  | "network"
  | "tokenId"
  | "tokenSymbol"
  | "txHash"
  | "outputAddress"
  | "direction"
  | "address"
  | "riskModelId"
>;

/** Writes a new manual check in state checking and its job, in one transaction. */
async function createCheck(
  ctx: EngineContext,
  accountId: string,
  fields: NewCheckFields,
): Promise<ManualCheckRecord> {
  const now = ctx.clock.now();
  const check: ManualCheckRecord = {
    ...fields,
    id: ctx.ids.next(),
    accountId,
    createdAt: now,
    checkStatus: "checking",
    checkedAt: null,
    txStatus: fields.txHash === null ? null : "binding",
    occurredAt: null,
    inputAddress: null,
    counterpartyAddress: fields.address,
    amount: null,
    valueInFiat: null,
    ...NO_RESULTS,
    updatedAt: now,
  };
  await ctx.store.transaction(async (tx) => {
    await tx.insertManualCheck(check);
    await tx.enqueueJob(newJob(ctx, "manual_check.run", accountId, check.id, { since: now }));
  });
  ctx.wake();
  return check;
}

/** Creates a manual check of one transfer (deposit for incoming, withdrawal for outgoing). */
export async function checkTransfer(
  ctx: EngineContext,
  accountId: string,
  body: unknown,
): Promise<ManualCheckRecord> {
  const input = parseInput(checkTransferSchema, body, "check-transfer");
  const { tokenId, tokenSymbol } = await resolveToken(ctx, input.network, input.tokenId);
  const { modelId } = await resolveRiskModel(ctx, accountId, input.riskModel);
  return createCheck(ctx, accountId, {
    checkType: input.direction === "incoming" ? "deposit" : "withdrawal",
    network: input.network,
    tokenId,
    tokenSymbol,
    txHash: input.txHash,
    outputAddress: input.outputAddress,
    direction: input.direction,
    address: null,
    riskModelId: modelId,
  });
}

/** Creates a manual check of one address. */
export async function checkAddress(
  ctx: EngineContext,
  accountId: string,
  body: unknown,
): Promise<ManualCheckRecord> {
  const input = parseInput(checkAddressSchema, body, "check-address");
  const { tokenId, tokenSymbol } = await resolveToken(ctx, input.network, input.tokenId);
  const { modelId } = await resolveRiskModel(ctx, accountId, input.riskModel);
  return createCheck(ctx, accountId, {
    checkType: "single_address",
    network: input.network,
    tokenId,
    tokenSymbol,
    txHash: null,
    outputAddress: null,
    direction: null,
    address: input.address,
    riskModelId: modelId,
  });
}
