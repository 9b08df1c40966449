/** Risks of the kysely store. */
import { assertReplacements, type RiskRecord, type RiskRule, type RiskStore, riskRank } from "@openkyt/core";
import type { Insertable, Selectable } from "kysely";
import { type KyselyContext, lockRows, orderText } from "./kysely-context.js";
import type { RisksTable } from "./kysely-schema.js";
import { chunksOf, fromJson, IN_LIST_CHUNK, INSERT_CHUNK, num, numOrNull, toJson } from "./kysely-values.js";

/** The risk members of the store port. */
export type RiskOps = RiskStore;

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
  const ops: RiskOps = {
    async replaceRisks(subjectType, subjectId, checkKinds, risks) {
      await ops.replaceRisksOfSubjects(subjectType, [{ subjectId, checkKinds, risks }]);
    },
    async replaceRisksOfSubjects(subjectType, replacements) {
      assertReplacements(replacements);
      const live = replacements.filter((r) => r.checkKinds.length > 0);
      if (live.length === 0) return;
      await ctx.atomic(async (db) => {
        const table = subjectType === "transfer" ? "transfers" : "manual_checks";
        // Serialise with other replacements of the same subjects (Postgres): lock their rows, in id order.
        await lockRows(
          ctx,
          db,
          table,
          live.map((r) => r.subjectId),
        );
        // One delete per set of kinds (a batch of checks has one: every kind) and chunk of subjects.
        const byKinds = new Map<string, { kinds: ReadonlyArray<string>; ids: string[] }>();
        for (const r of live) {
          const key = [...r.checkKinds].sort().join(",");
          const group = byKinds.get(key) ?? { kinds: [...new Set(r.checkKinds)], ids: [] };
          group.ids.push(r.subjectId);
          byKinds.set(key, group);
        }
        for (const { kinds, ids } of byKinds.values()) {
          for (const chunk of chunksOf(ids, IN_LIST_CHUNK)) {
            await db
              .deleteFrom("risks")
              .where("subject_type", "=", subjectType)
              .where("subject_id", "in", chunk)
              .where("check_kind", "in", [...kinds])
              .execute();
          }
        }
        for (const chunk of chunksOf(
          live.flatMap((r) => r.risks.map(toRow)),
          INSERT_CHUNK / 2,
        )) {
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
  return ops;
}
