/** Backtests of the kysely store: the keyset transfer scan and the backtest rows. */
import type {
  BacktestRecord,
  BacktestStoreOps,
  CheckStates,
  ScreenedTransfer,
  TransferRecord,
} from "@openkyt/core";
import type { Insertable, Selectable } from "kysely";
import { type KyselyContext, orderText } from "./kysely-context.js";
import type { BacktestsTable, TransfersTable } from "./kysely-schema.js";
import { listConditions } from "./kysely-transfers.js";
import { fromJson, fromJsonOrNull, num, numOrNull, toJson, toJsonOrNull } from "./kysely-values.js";

/** A backtest as a row. */
function toRow(b: BacktestRecord): Insertable<BacktestsTable> {
  return {
    id: b.id,
    account_id: b.accountId,
    status: b.status,
    request: toJson(b.request),
    scanned: b.scanned,
    total: b.total,
    report: toJsonOrNull(b.report),
    error: b.error,
    created_at: b.createdAt,
    updated_at: b.updatedAt,
  };
}

/** A row as a backtest. */
function fromRow(r: Selectable<BacktestsTable>): BacktestRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    status: r.status as BacktestRecord["status"],
    request: fromJson<BacktestRecord["request"]>(r.request),
    scanned: num(r.scanned),
    total: numOrNull(r.total),
    report: fromJsonOrNull<NonNullable<BacktestRecord["report"]>>(r.report),
    error: r.error,
    createdAt: num(r.created_at),
    updatedAt: num(r.updated_at),
  };
}

/** The columns a scan reads: what a {@link ScreenedTransfer} holds. */
const SCANNED = [
  "id",
  "registered_at",
  "direction",
  "tx_status",
  "value_in_fiat",
  "risk_level",
  "risk_model_version",
  "checks",
  "exposure",
  "counterparty",
  "sanctions",
] as const;

/** A scanned row as a screened transfer. */
function screenedOf(r: Pick<Selectable<TransfersTable>, (typeof SCANNED)[number]>): ScreenedTransfer {
  return {
    id: r.id,
    registeredAt: num(r.registered_at),
    direction: r.direction as TransferRecord["direction"],
    txStatus: r.tx_status as TransferRecord["txStatus"],
    valueInFiat: numOrNull(r.value_in_fiat),
    riskLevel: r.risk_level as TransferRecord["riskLevel"],
    riskModelVersion: r.risk_model_version,
    checks: fromJson<CheckStates>(r.checks),
    exposure: fromJsonOrNull<TransferRecord["exposure"]>(r.exposure),
    counterparty: fromJsonOrNull<TransferRecord["counterparty"]>(r.counterparty),
    sanctions: fromJsonOrNull<TransferRecord["sanctions"]>(r.sanctions),
  };
}

/** Creates the backtest members over `ctx`. */
export function kyselyBacktestOps(ctx: KyselyContext): BacktestStoreOps {
  const { db } = ctx;
  return {
    async scanTransfers(accountId, filter, after, limit) {
      const size = Math.max(1, Math.floor(limit));
      const id = orderText(ctx, "id");
      const rows = await db
        .selectFrom("transfers")
        .select(SCANNED)
        .where((eb) => {
          if (after === null) return listConditions(eb, accountId, filter);
          // The cursor's time is folded into the window's lower bound: one `>=` on registered_at
          // lets the (account_id, registered_at, id) index start at the cursor (two bounds, or the
          // OR alone, made SQLite read the window from its start on every page).
          const from = Math.max(filter.registeredFrom ?? Number.NEGATIVE_INFINITY, after.registeredAt);
          return eb.and([
            listConditions(eb, accountId, { ...filter, registeredFrom: from }),
            eb.or([eb("registered_at", ">", after.registeredAt), eb(id, ">", after.id)]),
          ]);
        })
        .orderBy("registered_at", "asc")
        .orderBy(id, "asc")
        .limit(size)
        .execute();
      const records = rows.map(screenedOf);
      const last = records[records.length - 1];
      const next = records.length === size && last ? { registeredAt: last.registeredAt, id: last.id } : null;
      return { rows: records, next };
    },
    async putBacktest(record) {
      const { id, ...changes } = toRow(record);
      await db
        .insertInto("backtests")
        .values({ id, ...changes })
        .onConflict((oc) => oc.column("id").doUpdateSet(changes))
        .execute();
    },
    async getBacktest(accountId, id) {
      const row = await db
        .selectFrom("backtests")
        .selectAll()
        .where("id", "=", id)
        .where("account_id", "=", accountId)
        .executeTakeFirst();
      return row ? fromRow(row) : null;
    },
  };
}
