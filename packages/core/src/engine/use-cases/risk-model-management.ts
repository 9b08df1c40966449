/**
 * Managing an account's risk models: create, read, replace (a new version), delete, and choose
 * the account's default. Models are versioned: a check records the version it used, and a change
 * writes a new version, so past results never change. The built-in default model can be read
 * and copied, not changed.
 */

import type { z } from "zod";
import type { RiskModel, RiskRule } from "../../domain/records.js";
import { type FieldErrors, fieldError, isKytError, KytError, notFound } from "../../errors.js";
import type { StoreOps } from "../../ports/store.js";
import { validateRiskModel } from "../../risk/index.js";
import {
  lookupId,
  parseInput,
  presentRiskModel,
  presentRiskModelVersion,
  type RiskModelBodyInput,
  riskModelBodySchema,
  riskModelReplaceSchema,
} from "../../schemas/index.js";
import type { RiskModelReplaceRequest, RiskModelRequest } from "../../schemas/request-types.js";
import type { EngineContext } from "../engine-context.js";

/** The setting that holds an account's default model id. */
export const defaultModelSetting = (accountId: string) => `risk-model:default:${accountId}`;

/** camelCase rule fields to their wire names, for error keys. */
const WIRE = {
  ruleType: "rule_type",
  ruleSubType: "rule_sub_type",
  entityCategory: "entity_category",
  minValueInFiat: "min_value_in_fiat",
  minValueShare: "min_value_share",
  riskLevel: "risk_level",
} as const;

/** The account's default model id, or null (the built-in model). */
export async function accountDefaultModelId(store: StoreOps, accountId: string): Promise<string | null> {
  return (await store.getSetting(defaultModelSetting(accountId))) || null;
}

/** True when `id` names the built-in model. */
export function isBuiltin(ctx: EngineContext, id: string): boolean {
  return id === ctx.defaultModel.id;
}

/** The rules of a body: given, or copied from another model. */
export async function rulesOf(
  ctx: EngineContext,
  accountId: string,
  body: RiskModelBodyInput,
): Promise<RiskRule[]> {
  if (body.rules) {
    return body.rules.map((r) => ({
      ruleType: r.rule_type,
      ruleSubType: r.rule_sub_type,
      entityCategory: r.entity_category,
      minValueInFiat: r.min_value_in_fiat ?? null,
      minValueShare: r.min_value_share ?? null,
      riskLevel: r.risk_level,
    }));
  }
  const source = body.copy_from ?? "";
  const model = isBuiltin(ctx, source) ? ctx.defaultModel : await ctx.store.getRiskModel(accountId, source);
  if (!model) throw fieldError("copy_from", `unknown risk model ${source}`);
  return model.rules.map((r) => ({ ...r }));
}

/**
 * A field key with its rule numbered as the console labels rules (1-based):
 * `rules[3].min_value_share` is "rule 4 min_value_share (rules[3].min_value_share)".
 */
export function ruleNumbered(field: string): string {
  const m = /^rules\[(\d+)\](?:\.(\w+))?$/.exec(field);
  if (!m) return field;
  return `rule ${Number(m[1]) + 1}${m[2] ? ` ${m[2]}` : ""} (${field})`;
}

/**
 * Validates a model, naming wire fields (`rules[3].min_value_share`); `extra` errors found
 * elsewhere in the same body (a missing change reason) are reported with them, all at once.
 */
export function checkModel(model: RiskModel, extra: FieldErrors = {}): void {
  const problems = validateRiskModel(model);
  const keys = Object.keys(problems);
  if (keys.length === 0 && Object.keys(extra).length === 0) return;
  const errors = {
    ...Object.fromEntries(
      keys.map((k) => [
        k.replace(/\.(\w+)$/, (_, f: string) => `.${WIRE[f as keyof typeof WIRE] ?? f}`),
        problems[k] ?? [],
      ]),
    ),
    ...extra,
  };
  const entries = Object.entries(errors);
  const [field, messages] = entries[0] ?? ["model", []];
  const more = entries.length > 1 ? ` (and ${entries.length - 1} more)` : "";
  throw new KytError(
    "VALIDATION_ERROR",
    `risk model: ${ruleNumbered(field)}: ${messages[0] ?? "invalid"}${more}`,
    { errors },
  );
}

/**
 * Parses a model body, naming a rule's fields as the model checks do (`rules[3].min_value_share`,
 * not zod's `rules.3.min_value_share`), so the console finds every error at its field whichever
 * check found it; the message numbers rules as the console labels them.
 */
function parseModelBody<T>(schema: z.ZodType<T>, body: unknown): T {
  try {
    return parseInput(schema, body, "risk model");
  } catch (error) {
    if (!isKytError(error, "VALIDATION_ERROR")) throw error;
    const errors = Object.fromEntries(
      Object.entries(error.errors).map(([k, v]) => [k.replace(/^rules\.(\d+)(?=\.|$)/, "rules[$1]"), v]),
    );
    const parts = Object.entries(errors).map(
      ([field, messages]) => `${ruleNumbered(field)}: ${messages.join(", ")}`,
    );
    throw new KytError("VALIDATION_ERROR", `invalid risk model: ${parts.join("; ")}`, {
      errors,
      cause: error,
    });
  }
}

/** The risk model operations of one account. */
export function riskModelManagement(ctx: EngineContext, accountId: string) {
  const present = async (model: RiskModel, createdAt: number | null, changeReason: string | null = null) =>
    presentRiskModel(model, {
      isDefault: ((await accountDefaultModelId(ctx.store, accountId)) ?? ctx.defaultModel.id) === model.id,
      isBuiltin: isBuiltin(ctx, model.id),
      createdAt,
      changeReason,
    });
  const setDefault = async (tx: StoreOps, id: string | null) => {
    if (id === null) await tx.putSetting(defaultModelSetting(accountId), "");
    else await tx.putSetting(defaultModelSetting(accountId), id);
  };
  return Object.freeze({
    /** GET /v1/risk-models/: the built-in model, then the account's, by name. */
    async list() {
      const own = await ctx.store.listRiskModels(accountId);
      return [
        await present(ctx.defaultModel, null),
        ...(await Promise.all(own.map((m) => present(m, m.createdAt, m.changeReason)))),
      ];
    },
    /** GET /v1/risk-models/{id}/ */
    async get(id: string) {
      if (isBuiltin(ctx, id)) return present(ctx.defaultModel, null);
      const versions = (await ctx.store.listRiskModelVersions(accountId, lookupId("risk model", id))).filter(
        (m) => m.deletedAt === null,
      );
      const latest = versions[versions.length - 1];
      if (!latest) throw notFound("risk model", id);
      return present(latest, latest.createdAt, latest.changeReason);
    },
    /**
     * GET /v1/risk-models/{id}/versions/: every version of a live model, newest first, each with
     * its change reason and its diff against the version before it. The built-in model has one
     * version and no history: an empty list.
     */
    async versions(id: string) {
      if (isBuiltin(ctx, id)) return [];
      const versions = await ctx.store.listRiskModelVersions(accountId, lookupId("risk model", id));
      if (versions.length === 0 || versions.some((m) => m.deletedAt !== null))
        throw notFound("risk model", id);
      return versions.map((m, i) => presentRiskModelVersion(m, versions[i - 1] ?? null)).reverse();
    },
    /** POST /v1/risk-models/ */
    async create(body: RiskModelRequest) {
      const input = parseModelBody(riskModelBodySchema, body);
      const model: RiskModel = {
        id: ctx.ids.next(),
        name: input.name,
        version: 1,
        rules: await rulesOf(ctx, accountId, input),
      };
      checkModel(model);
      await ctx.store.transaction(async (tx) => {
        await tx.putRiskModel(accountId, model, ctx.clock.now(), {
          changeReason: input.change_reason ?? null,
        });
        if (input.is_default) await setDefault(tx, model.id);
      });
      return present(model, ctx.clock.now(), input.change_reason ?? null);
    },
    /** PUT /v1/risk-models/{id}/: a new version; checks already made keep theirs. */
    async replace(id: string, body: RiskModelReplaceRequest) {
      if (isBuiltin(ctx, id))
        throw new KytError(
          "ILLEGAL_TRANSITION",
          "the built-in risk model cannot be changed; copy it with copy_from",
        );
      // Every problem at once: the body's shape, the rules' values and the change reason.
      const reasonErrors = (): FieldErrors => {
        const parsed = riskModelReplaceSchema.safeParse(body);
        if (parsed.success) return {};
        const found = parsed.error.issues.filter((i) => i.path[0] === "change_reason").map((i) => i.message);
        return found.length ? { change_reason: found } : {};
      };
      let shaped: RiskModelBodyInput;
      try {
        shaped = parseModelBody(riskModelBodySchema, body);
      } catch (error) {
        const missing = reasonErrors();
        if (!isKytError(error, "VALIDATION_ERROR") || !missing.change_reason) throw error;
        const errors = { ...error.errors, ...missing };
        throw new KytError(
          "VALIDATION_ERROR",
          `${error.message}; change_reason: ${missing.change_reason.join(", ")}`,
          {
            errors,
            cause: error,
          },
        );
      }
      const rules = await rulesOf(ctx, accountId, shaped);
      checkModel({ id, name: shaped.name, version: 1, rules }, reasonErrors());
      const input = parseModelBody(riskModelReplaceSchema, body);
      const reason = input.change_reason;
      const now = ctx.clock.now();
      const model = await ctx.store.transaction(async (tx) => {
        const current = await tx.getRiskModel(accountId, lookupId("risk model", id));
        if (!current) throw notFound("risk model", id);
        const next: RiskModel = { id, name: input.name, version: current.version + 1, rules };
        checkModel(next);
        await tx.putRiskModel(accountId, next, now, { changeReason: reason });
        if (input.is_default === true) await setDefault(tx, id);
        if (input.is_default === false && (await accountDefaultModelId(tx, accountId)) === id)
          await setDefault(tx, null);
        return next;
      });
      return present(model, now, reason);
    },
    /** DELETE /v1/risk-models/{id}/: it checks nothing new; past results keep it. */
    async remove(id: string) {
      if (isBuiltin(ctx, id))
        throw new KytError("ILLEGAL_TRANSITION", "the built-in risk model cannot be deleted");
      await ctx.store.transaction(async (tx) => {
        if (!(await tx.deleteRiskModel(accountId, lookupId("risk model", id), ctx.clock.now())))
          throw notFound("risk model", id);
        if ((await accountDefaultModelId(tx, accountId)) === id) await setDefault(tx, null);
      });
      return { id, deleted: true };
    },
  });
}
