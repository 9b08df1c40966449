/**
 * Backtests of the kysely store: the keyset transfer scan and the backtest rows. The scan's
 * query and row reading are exported for a backend that runs the query itself (the SQLite
 * store reads its rows as arrays: store-sqlite's sqlite-transfer-scan.ts).
 */
import type {
  BacktestRecord,
  BacktestStoreOps,
  ScreenedTransfer,
  TransferCursor,
  TransferFilter,
  TransferRecord,
  TransferScanPage,
} from "@openkyt/core";
import { type Insertable, type Selectable, sql } from "kysely";
import { type KyselyContext, orderText } from "./kysely-context.js";
import type { BacktestsTable } from "./kysely-schema.js";
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

/**
 * Whether any check of the row finished, worked out by the database from the `checks` text
 * instead of reading and parsing it (a sixth of a backtest's JSON). The text is always written
 * by `toJson` (no spaces), where `"state":"checked"` is only ever a state: inside a string its
 * quotes would be escaped. SQLite answers 0/1, Postgres a boolean.
 */
const ANY_CHECKED = sql<number | boolean>`checks like '%"state":"checked"%'`.as("any_checked");

/**
 * The columns a scan reads, in the order {@link screenedOfValues} takes them: what a {@link
 * ScreenedTransfer} holds, `any_checked` standing for the check states.
 */
export const SCANNED_COLUMNS = [
  "id",
  "registered_at",
  "direction",
  "tx_status",
  "value_in_fiat",
  "risk_level",
  "risk_model_version",
  "any_checked",
  "exposure",
  "counterparty",
  "sanctions",
] as const;

/** {@link SCANNED_COLUMNS} as the query selects them, `any_checked` worked out by {@link ANY_CHECKED}. */
const SELECTED = SCANNED_COLUMNS.map((c) => (c === "any_checked" ? ANY_CHECKED : c));

/** A scanned row, its values in {@link SCANNED_COLUMNS} order, as a screened transfer. */
export function screenedOfValues(v: ReadonlyArray<unknown>): ScreenedTransfer {
  const checked = v[7];
  return {
    id: v[0] as string,
    registeredAt: num(v[1] as number | string),
    direction: v[2] as TransferRecord["direction"],
    txStatus: v[3] as TransferRecord["txStatus"],
    valueInFiat: numOrNull(v[4] as number | string | null),
    riskLevel: v[5] as TransferRecord["riskLevel"],
    riskModelVersion: v[6] as string | null,
    anyChecked: checked === true || checked === 1,
    exposure: fromJsonOrNull<TransferRecord["exposure"]>(v[8] as string | null),
    counterparty: fromJsonOrNull<TransferRecord["counterparty"]>(v[9] as string | null),
    sanctions: fromJsonOrNull<TransferRecord["sanctions"]>(v[10] as string | null),
  };
}

/**
 * The query of one page of a transfer scan (see `BacktestStoreOps.scanTransfers`), selecting
 * {@link SCANNED_COLUMNS}: `size` rows of the account that pass `filter`, after `after`.
 */
export function transferScanQuery(
  ctx: Pick<KyselyContext, "db" | "dialect">,
  accountId: string,
  filter: TransferFilter,
  after: TransferCursor | null,
  size: number,
) {
  const id = orderText(ctx, "id");
  return ctx.db
    .selectFrom("transfers")
    .select(SELECTED)
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
    .limit(size);
}

/** A page of screened transfers: `next` after its last row when it is full (`size` rows). */
export function scanPageOf(rows: ReadonlyArray<ScreenedTransfer>, size: number): TransferScanPage {
  const last = rows[rows.length - 1];
  const next = rows.length === size && last ? { registeredAt: last.registeredAt, id: last.id } : null;
  return { rows, next };
}

/** Creates the backtest members over `ctx`. */
export function kyselyBacktestOps(ctx: KyselyContext): BacktestStoreOps {
  const { db } = ctx;
  return {
    async scanTransfers(accountId, filter, after, limit) {
      const size = Math.max(1, Math.floor(limit));
      const rows = await transferScanQuery(ctx, accountId, filter, after, size).execute();
      const values = rows as ReadonlyArray<Record<string, unknown>>;
      return scanPageOf(
        values.map((r) => screenedOfValues(SCANNED_COLUMNS.map((c) => r[c]))),
        size,
      );
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
    async countPendingBacktests(accountId) {
      const row = await db
        .selectFrom("backtests")
        .select((eb) => eb.fn.countAll().as("count"))
        .where("account_id", "=", accountId)
        .where("status", "in", ["queued", "running"])
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },
  };
}
