/** Risks of the kysely store. */
import { assertRisksOfKinds, type RiskRecord, type RiskRule, riskRank, type StoreOps } from "@openkyt/core";
import type { Insertable, Selectable } from "kysely";
import { type KyselyContext, lockRow, orderText } from "./kysely-context.js";
import type { RisksTable } from "./kysely-schema.js";
import { chunksOf, fromJson, INSERT_CHUNK, num, numOrNull, toJson } from "./kysely-values.js";

/** The risk members of the store port. */
export type RiskOps = Pick<StoreOps, "replaceRisks" | "listRisks">;

/** A risk as a row. */
function toRow(r: RiskRecord): Insertable<RisksTable> {
  return {
    id: r.id,
    account_id: r.accountId,
    subject_type: r.subjectType,
    subject_id: r.subjectId,
    check_kind: r.checkKind,
    risk_type: r.riskType,
    risk_level: r.riskLevel,
    level_rank: riskRank(r.riskLevel),
    entity_category: r.entityCategory,
    entity_name: r.entityName,
    proximity: r.proximity,
    value_in_fiat: r.valueInFiat,
    value_share: r.valueShare,
    rule: toJson(r.rule),
    occurred_at: r.occurredAt,
    created_at: r.createdAt,
  };
}

/** A row as a risk. */
function fromRow(r: Selectable<RisksTable>): RiskRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    subjectType: r.subject_type as RiskRecord["subjectType"],
    subjectId: r.subject_id,
    checkKind: r.check_kind as RiskRecord["checkKind"],
    riskType: r.risk_type as RiskRecord["riskType"],
    riskLevel: r.risk_level as RiskRecord["riskLevel"],
    entityCategory: r.entity_category,
    entityName: r.entity_name,
    proximity: r.proximity as RiskRecord["proximity"],
    valueInFiat: numOrNull(r.value_in_fiat),
    valueShare: numOrNull(r.value_share),
    rule: fromJson<RiskRule>(r.rule),
    occurredAt: num(r.occurred_at),
    createdAt: num(r.created_at),
  };
}

/** Creates the risk members over `ctx`. */
export function kyselyRiskOps(ctx: KyselyContext): RiskOps {
  return {
    async replaceRisks(subjectType, subjectId, checkKinds, risks) {
      assertRisksOfKinds(checkKinds, risks);
      if (checkKinds.length === 0) return;
      await ctx.atomic(async (db) => {
        await lockRow(ctx, db, subjectType === "transfer" ? "transfers" : "manual_checks", subjectId);
        await db
          .deleteFrom("risks")
          .where("subject_type", "=", subjectType)
          .where("subject_id", "=", subjectId)
          .where("check_kind", "in", [...checkKinds])
          .execute();
        for (const chunk of chunksOf(risks.map(toRow), INSERT_CHUNK / 2)) {
          await db.insertInto("risks").values(chunk).execute();
        }
      });
    },
    async listRisks(subjectType, subjectId) {
      const rows = await ctx.db
        .selectFrom("risks")
        .selectAll()
        .where("subject_type", "=", subjectType)
        .where("subject_id", "=", subjectId)
        .orderBy("level_rank", "desc")
        .orderBy("created_at", "asc")
        .orderBy(orderText(ctx, "id"), "asc")
        .execute();
      return rows.map(fromRow);
    },
  };
}
