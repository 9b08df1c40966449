/** Finding the risk model a request names, and the token a request names by symbol. */

import { isSymbolTokenId } from "../../domain/addresses.js";
import { NATIVE_TOKEN } from "../../domain/networks.js";
import type { RiskModel } from "../../domain/records.js";
import { fieldError } from "../../errors.js";
import type { EngineContext } from "../engine-context.js";
import { accountDefaultModelId } from "../use-cases/risk-model-management.js";

/** Ids that mean the built-in model. */
const DEFAULT_MODEL_IDS = new Set(["default"]);

/**
 * The model a request names: none -> the account's default model, else the built-in one;
 * "default" -> the built-in model; else the account's model with that id (unknown or deleted:
 * a validation error naming `risk_model`).
 */
export async function resolveRiskModel(
  ctx: EngineContext,
  accountId: string,
  requested: string | null | undefined,
): Promise<{ model: RiskModel; modelId: string | null }> {
  if (requested === null || requested === undefined || requested === "") {
    const accountDefault = await accountDefaultModelId(ctx.store, accountId);
    const model = accountDefault === null ? null : await ctx.store.getRiskModel(accountId, accountDefault);
    return model ? { model, modelId: model.id } : { model: ctx.defaultModel, modelId: null };
  }
  if (DEFAULT_MODEL_IDS.has(requested) || requested === ctx.defaultModel.id) {
    return { model: ctx.defaultModel, modelId: null };
  }
  const model = await ctx.store.getRiskModel(accountId, requested);
  if (!model) throw fieldError("risk_model", `unknown risk model ${requested}`);
  return { model, modelId: model.id };
}

/** The version tag a check records: `id@version`. */
export function modelVersionTag(model: RiskModel): string {
  return `${model.id}@${model.version}`;
}

/** Resolves a token given by symbol to its id; returns the id and its symbol (null when unknown). */
export async function resolveToken(
  ctx: EngineContext,
  network: string,
  tokenId: string,
  field = "token_id",
): Promise<{ tokenId: string; tokenSymbol: string | null }> {
  if (tokenId !== NATIVE_TOKEN && isSymbolTokenId(network, tokenId)) {
    const token = await ctx.tokens.bySymbol(network, tokenId);
    if (!token) throw fieldError(field, `unknown token symbol ${tokenId} on ${network}`);
    return { tokenId: token.tokenId, tokenSymbol: token.symbol };
  }
  const token = await ctx.tokens.token(network, tokenId);
  return { tokenId, tokenSymbol: token?.symbol ?? null };
}
