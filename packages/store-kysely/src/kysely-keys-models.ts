/** Risk models and API keys of the kysely store. */
import {
  type ApiKeyRecord,
  type ApiKeyStore,
  KytError,
  type ModelApprovalRecord,
  type RiskModelStore,
  type RiskRule,
  type StoredRiskModel,
} from "@openkyt/core";
import type { Selectable } from "kysely";
import { changedRows, type KyselyContext, orderText } from "./kysely-context.js";
import { runPrecompiled } from "./kysely-precompiled.js";
import type { ApiKeysTable, RiskModelsTable } from "./kysely-schema.js";
import { fromJson, num, numOrNull, toJson } from "./kysely-values.js";

/** The risk model and API key members of the store port. */
export type KeyModelOps = RiskModelStore & ApiKeyStore;

/** The approval columns of a row; null when the version was written while approval was off. */
function approvalFromRow(r: Selectable<RiskModelsTable>): ModelApprovalRecord | null {
  const state = r.approval_state;
  if (state !== "pending" && state !== "approved" && state !== "rejected") return null;
  return {
    state,
    proposedBy: r.proposed_by,
    makeDefault: numOrNull(r.make_default) === 1,
    decidedBy: r.decided_by,
    decidedAt: numOrNull(r.decided_at),
    reason: r.decision_reason,
  };
}

/** The approval columns of a version to write. */
function approvalColumns(a: ModelApprovalRecord | null) {
  return {
    approval_state: a?.state ?? null,
    proposed_by: a?.proposedBy ?? null,
    make_default: a === null ? null : a.makeDefault ? 1 : 0,
    decided_by: a?.decidedBy ?? null,
    decided_at: a?.decidedAt ?? null,
    decision_reason: a?.reason ?? null,
  };
}

/** A row as a stored risk model version. */
function modelFromRow(r: Selectable<RiskModelsTable>): StoredRiskModel {
  return {
    accountId: r.account_id,
    id: r.id,
    name: r.name,
    version: num(r.version),
    rules: fromJson<RiskRule[]>(r.rules),
    createdAt: num(r.created_at),
    deletedAt: numOrNull(r.deleted_at),
    changeReason: r.change_reason ?? null,
    approval: approvalFromRow(r),
  };
}

/** A row as an API key. */
function keyFromRow(r: Selectable<ApiKeysTable>): ApiKeyRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    secret: r.secret,
    createdAt: num(r.created_at),
    revokedAt: numOrNull(r.revoked_at),
    ...(r.name === null || r.name === undefined ? {} : { name: r.name }),
  };
}

/** Creates the risk model and API key members over `ctx`. */
export function kyselyKeyModelOps(ctx: KyselyContext): KeyModelOps {
  const { db } = ctx;
  return {
    async putRiskModel(accountId, model, createdAt, details) {
      const result = await db
        .insertInto("risk_models")
        .values({
          account_id: accountId,
          id: model.id,
          version: model.version,
          name: model.name,
          rules: toJson(model.rules),
          created_at: createdAt ?? 0,
          change_reason: details?.changeReason ?? null,
          ...approvalColumns(details?.approval ?? null),
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirstOrThrow();
      if (changedRows(result) === 0) {
        throw new KytError("CONFLICT", `risk model ${model.id} version ${model.version} exists`);
      }
    },
    async getRiskModel(accountId, id, version) {
      let query = db
        .selectFrom("risk_models")
        .selectAll()
        .where("account_id", "=", accountId)
        .where("id", "=", id)
        .orderBy("version", "desc")
        .limit(1);
      query =
        version === undefined
          ? query
              .where("deleted_at", "is", null)
              .where((eb) => eb.or([eb("approval_state", "is", null), eb("approval_state", "=", "approved")]))
          : query.where("version", "=", version);
      const row = await query.executeTakeFirst();
      if (!row) return null;
      return {
        id: row.id,
        name: row.name,
        version: num(row.version),
        rules: fromJson<RiskRule[]>(row.rules),
      };
    },
    async decideRiskModelVersion(accountId, id, version, approval) {
      const result = await db
        .updateTable("risk_models")
        .set(approvalColumns(approval))
        .where("account_id", "=", accountId)
        .where("id", "=", id)
        .where("version", "=", version)
        .where("deleted_at", "is", null)
        .where("approval_state", "=", "pending")
        .executeTakeFirstOrThrow();
      return changedRows(result) > 0;
    },
    async listRiskModels(accountId) {
      const rows = await db
        .selectFrom("risk_models as m")
        .selectAll("m")
        .where("m.account_id", "=", accountId)
        .where("m.deleted_at", "is", null)
        .where((eb) =>
          eb(
            "m.version",
            "=",
            eb
              .selectFrom("risk_models as v")
              .select((v) => v.fn.max("v.version").as("latest"))
              .whereRef("v.account_id", "=", "m.account_id")
              .whereRef("v.id", "=", "m.id"),
          ),
        )
        .orderBy(orderText(ctx, "m.name"))
        .orderBy(orderText(ctx, "m.id"))
        .execute();
      return rows.map(modelFromRow);
    },
    async listRiskModelVersions(accountId, id) {
      const rows = await db
        .selectFrom("risk_models")
        .selectAll()
        .where("account_id", "=", accountId)
        .where("id", "=", id)
        .orderBy("version", "asc")
        .execute();
      return rows.map(modelFromRow);
    },
    async deleteRiskModel(accountId, id, at) {
      const result = await db
        .updateTable("risk_models")
        .set({ deleted_at: at })
        .where("account_id", "=", accountId)
        .where("id", "=", id)
        .where("deleted_at", "is", null)
        .executeTakeFirstOrThrow();
      return changedRows(result) > 0;
    },
    async putApiKey(record) {
      const result = await db
        .insertInto("api_keys")
        .values({
          id: record.id,
          account_id: record.accountId,
          secret: record.secret,
          created_at: record.createdAt,
          revoked_at: record.revokedAt,
          name: record.name ?? null,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirstOrThrow();
      if (changedRows(result) === 0) throw new KytError("CONFLICT", `api key ${record.id} exists`);
    },
    async getApiKey(id) {
      const { rows } = await runPrecompiled(
        db,
        "api_keys.byId",
        () => db.selectFrom("api_keys").selectAll().where("id", "=", id),
        [id],
      );
      return rows[0] ? keyFromRow(rows[0]) : null;
    },
    async listApiKeys(accountId) {
      const rows = await db
        .selectFrom("api_keys")
        .selectAll()
        .where("account_id", "=", accountId)
        .orderBy("created_at", "asc")
        .orderBy(orderText(ctx, "id"), "asc")
        .execute();
      return rows.map(keyFromRow);
    },
    async revokeApiKey(id, at) {
      const result = await db
        .updateTable("api_keys")
        .set({ revoked_at: at })
        .where("id", "=", id)
        .where("revoked_at", "is", null)
        .executeTakeFirstOrThrow();
      return changedRows(result) === 1;
    },
  };
}
