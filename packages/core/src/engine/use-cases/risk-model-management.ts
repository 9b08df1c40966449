/**
 * Managing an account's risk models: create, read, replace (a new version), delete, and choose
 * the account's default. Models are versioned: a check records the version it used, and a change
 * writes a new version, so past results never change. The built-in default model can be read
 * and copied, not changed.
 */

import type { z } from "zod";
import { diffBaseOf, initialApproval, type ModelApprovalRecord } from "../../domain/model-approval.js";
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
import { type Actor, actorOf } from "./alert-workflow.js";
import { approvalRequired } from "./model-approval-setting.js";

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
  const present = async (
    model: RiskModel,
    createdAt: number | null,
    changeReason: string | null = null,
    approval: ModelApprovalRecord | null = null,
  ) =>
    presentRiskModel(model, {
      isDefault: ((await accountDefaultModelId(ctx.store, accountId)) ?? ctx.defaultModel.id) === model.id,
      isBuiltin: isBuiltin(ctx, model.id),
      createdAt,
      changeReason,
      approval,
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
        ...(await Promise.all(own.map((m) => present(m, m.createdAt, m.changeReason, m.approval)))),
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
      return present(latest, latest.createdAt, latest.changeReason, latest.approval);
    },
    /**
     * GET /v1/risk-models/{id}/versions/: every version of a live model, newest first, each with
     * its change reason, its approval and its diff against the version before it that was in
     * force (`diffBaseOf`). The built-in model has one version and no history: an empty list.
     */
    async versions(id: string) {
      if (isBuiltin(ctx, id)) return [];
      const versions = await ctx.store.listRiskModelVersions(accountId, lookupId("risk model", id));
      if (versions.length === 0 || versions.some((m) => m.deletedAt !== null))
        throw notFound("risk model", id);
      return versions.map((m) => presentRiskModelVersion(m, diffBaseOf(versions, m.version))).reverse();
    },
    /**
     * POST /v1/risk-models/. When the account requires approval, version 1 is pending (it checks
     * nothing) and `is_default` waits for the approval.
     */
    async create(body: RiskModelRequest, by: Actor = {}) {
      const actor = actorOf(by);
      const input = parseModelBody(riskModelBodySchema, body);
      const model: RiskModel = {
        id: ctx.ids.next(),
        name: input.name,
        version: 1,
        rules: await rulesOf(ctx, accountId, input),
      };
      checkModel(model);
      const approval = await ctx.store.transaction(async (tx) => {
        const pending = initialApproval(
          await approvalRequired(tx, accountId),
          actor,
          input.is_default === true,
        );
        await tx.putRiskModel(accountId, model, ctx.clock.now(), {
          changeReason: input.change_reason ?? null,
          approval: pending,
        });
        if (input.is_default && pending === null) await setDefault(tx, model.id);
        return pending;
      });
      return present(model, ctx.clock.now(), input.change_reason ?? null, approval);
    },
    /**
     * PUT /v1/risk-models/{id}/: a new version; checks already made keep theirs. When the account
     * requires approval the version is pending (the one in force keeps checking) and
     * `is_default: true` waits for the approval; a model has one pending version at a time.
     */
    async replace(id: string, body: RiskModelReplaceRequest, by: Actor = {}) {
      const actor = actorOf(by);
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
      const { model, approval } = await ctx.store.transaction(async (tx) => {
        const versions = (await tx.listRiskModelVersions(accountId, lookupId("risk model", id))).filter(
          (m) => m.deletedAt === null,
        );
        const newest = versions[versions.length - 1];
        if (!newest) throw notFound("risk model", id);
        const waiting = versions.find((m) => m.approval?.state === "pending");
        if (waiting)
          throw new KytError(
            "ILLEGAL_TRANSITION",
            `version ${waiting.version} of this model awaits approval: approve or reject it before writing another`,
            { details: { pending_version: waiting.version } },
          );
        const next: RiskModel = { id, name: input.name, version: newest.version + 1, rules };
        checkModel(next);
        const pending = initialApproval(
          await approvalRequired(tx, accountId),
          actor,
          input.is_default === true,
        );
        await tx.putRiskModel(accountId, next, now, { changeReason: reason, approval: pending });
        if (input.is_default === true && pending === null) await setDefault(tx, id);
        if (input.is_default === false && (await accountDefaultModelId(tx, accountId)) === id)
          await setDefault(tx, null);
        return { model: next, approval: pending };
      });
      return present(model, now, reason, approval);
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
