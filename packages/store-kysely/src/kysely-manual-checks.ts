/** Manual checks of the kysely store. */
import {
  type CounterpartyResult,
  type ExposureResult,
  KytError,
  type ManualCheckRecord,
  type ManualCheckStore,
  notFound,
  type SanctionsResult,
} from "@openkyt/core";
import type { Insertable, Selectable } from "kysely";
import { changedRows, type KyselyContext, lockedRead } from "./kysely-context.js";
import { listPage } from "./kysely-list-page.js";
import type { ManualChecksTable } from "./kysely-schema.js";
import { fromJsonOrNull, num, numOrNull, toJsonOrNull } from "./kysely-values.js";

/** The manual check members of the store port. */
export type ManualCheckOps = ManualCheckStore;

/** A manual check as a row. */
function toRow(m: ManualCheckRecord): Insertable<ManualChecksTable> {
  return {
    id: m.id,
    account_id: m.accountId,
    created_at: m.createdAt,
    check_type: m.checkType,
    check_status: m.checkStatus,
    checked_at: m.checkedAt,
    network: m.network,
    token_id: m.tokenId,
    token_symbol: m.tokenSymbol,
    tx_hash: m.txHash,
    output_address: m.outputAddress,
    direction: m.direction,
    address: m.address,
    tx_status: m.txStatus,
    occurred_at: m.occurredAt,
    input_address: m.inputAddress,
    counterparty_address: m.counterpartyAddress,
    amount: m.amount,
    value_in_fiat: m.valueInFiat,
    risk_level: m.riskLevel,
    risk_score: m.riskScore,
    risk_model_id: m.riskModelId,
    risk_model_version: m.riskModelVersion,
    exposure: toJsonOrNull(m.exposure),
    counterparty: toJsonOrNull(m.counterparty),
    sanctions: toJsonOrNull(m.sanctions),
    last_error: m.lastError,
    updated_at: m.updatedAt,
  };
}

/** A row as a manual check. */
function fromRow(r: Selectable<ManualChecksTable>): ManualCheckRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    createdAt: num(r.created_at),
    checkType: r.check_type as ManualCheckRecord["checkType"],
    checkStatus: r.check_status as ManualCheckRecord["checkStatus"],
    checkedAt: numOrNull(r.checked_at),
    network: r.network,
    tokenId: r.token_id,
    tokenSymbol: r.token_symbol,
    txHash: r.tx_hash,
    outputAddress: r.output_address,
    direction: r.direction as ManualCheckRecord["direction"],
    address: r.address,
    txStatus: r.tx_status as ManualCheckRecord["txStatus"],
    occurredAt: numOrNull(r.occurred_at),
    inputAddress: r.input_address,
    counterpartyAddress: r.counterparty_address,
    amount: numOrNull(r.amount),
    valueInFiat: numOrNull(r.value_in_fiat),
    riskLevel: r.risk_level as ManualCheckRecord["riskLevel"],
    riskScore: numOrNull(r.risk_score),
    riskModelId: r.risk_model_id,
    riskModelVersion: r.risk_model_version,
    exposure: fromJsonOrNull<ExposureResult>(r.exposure),
    counterparty: fromJsonOrNull<CounterpartyResult>(r.counterparty),
    sanctions: fromJsonOrNull<SanctionsResult>(r.sanctions),
    lastError: r.last_error,
    updatedAt: num(r.updated_at),
  };
}

/** Creates the manual check members over `ctx`. */
export function kyselyManualCheckOps(ctx: KyselyContext): ManualCheckOps {
  const { db } = ctx;
  return {
    async insertManualCheck(record) {
      const result = await db
        .insertInto("manual_checks")
        .values(toRow(record))
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirstOrThrow();
      if (changedRows(result) === 0) throw new KytError("CONFLICT", `manual check ${record.id} exists`);
    },
    async updateManualCheck(record) {
      const { id, ...changes } = toRow(record);
      const result = await db
        .updateTable("manual_checks")
        .set(changes)
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      if (changedRows(result) === 0) throw notFound("manual check", id);
    },
    async getManualCheck(id) {
      const row = await lockedRead(
        ctx,
        "manual_checks",
        db.selectFrom("manual_checks").selectAll().where("id", "=", id),
      );
      return row ? fromRow(row) : null;
    },
    async listManualChecks(accountId, page) {
      const matching = db.selectFrom("manual_checks").selectAll().where("account_id", "=", accountId);
      return listPage(ctx, matching, { key: "created_at", tie: "id", direction: "desc" }, page, fromRow);
    },
  };
}
