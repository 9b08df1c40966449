/** Transfers of the kysely store. */
import {
  type CheckStates,
  type CounterpartyResult,
  type ExposureResult,
  KytError,
  notFound,
  type SanctionsResult,
  type TransferFilter,
  type TransferIdentity,
  type TransferRecord,
  type TransferResultField,
  type TransferStore,
  type TransferSummary,
} from "@openkyt/core";
import type { Expression, ExpressionBuilder, Insertable, Selectable, SqlBool } from "kysely";
import { conflictAware, type KyselyContext, lockedRead } from "./kysely-context.js";
import { listPage } from "./kysely-list-page.js";
import { runPrecompiled } from "./kysely-precompiled.js";
import type { Database, TransfersTable } from "./kysely-schema.js";
import {
  bool,
  boolColumn,
  chunksOf,
  fromJson,
  fromJsonOrNull,
  IN_LIST_CHUNK,
  num,
  numOrNull,
  toJson,
  toJsonOrNull,
} from "./kysely-values.js";

/** The transfer members of the store port. */
export type TransferOps = TransferStore;

/** Transfer rows per multi-row statement (29 parameters each: under every driver's limit). */
const TRANSFER_CHUNK = 200;

/** The columns an update of a whole transfer replaces (all but the id). */
const UPDATED_COLUMNS = [
  "account_id",
  "client_id",
  "attempt_id",
  "registered_at",
  "network",
  "token_id",
  "token_symbol",
  "direction",
  "tx_status",
  "tx_hash",
  "occurred_at",
  "input_address",
  "output_address",
  "amount",
  "value_in_fiat",
  "risk_level",
  "risk_score",
  "risk_model_id",
  "risk_model_version",
  "checks",
  "disable_auto_check",
  "exposure",
  "counterparty",
  "sanctions",
  "counterparty_name",
  "counterparty_category",
  "last_error",
  "updated_at",
  "block",
  "log_index",
] as const satisfies ReadonlyArray<Exclude<keyof TransfersTable, "id">>;

/** The columns of a transfer's summary: all but its checks' results (see `getTransferSummary`). */
const SUMMARY_COLUMNS = [
  "id",
  ...UPDATED_COLUMNS.filter((c) => c !== "exposure" && c !== "counterparty" && c !== "sanctions"),
] as const;

/** The same identity (see `Store.findTransfer`). */
function sameIdentity(t: TransferRecord, i: TransferIdentity): boolean {
  return (
    t.accountId === i.accountId &&
    t.network === i.network &&
    t.txHash === i.txHash &&
    t.tokenId === i.tokenId &&
    t.outputAddress === i.outputAddress &&
    t.direction === i.direction
  );
}

/** A transfer as a row. */
function toRow(t: TransferRecord): Insertable<TransfersTable> {
  return {
    id: t.id,
    account_id: t.accountId,
    client_id: t.clientId,
    attempt_id: t.attemptId,
    registered_at: t.registeredAt,
    network: t.network,
    token_id: t.tokenId,
    token_symbol: t.tokenSymbol,
    direction: t.direction,
    tx_status: t.txStatus,
    tx_hash: t.txHash,
    occurred_at: t.occurredAt,
    input_address: t.inputAddress,
    output_address: t.outputAddress,
    amount: t.amount,
    value_in_fiat: t.valueInFiat,
    risk_level: t.riskLevel,
    risk_score: t.riskScore,
    risk_model_id: t.riskModelId,
    risk_model_version: t.riskModelVersion,
    checks: toJson(t.checks),
    disable_auto_check: boolColumn(t.disableAutoCheck),
    exposure: toJsonOrNull(t.exposure),
    counterparty: toJsonOrNull(t.counterparty),
    sanctions: toJsonOrNull(t.sanctions),
    counterparty_name: t.counterpartyName,
    counterparty_category: t.counterpartyCategory,
    last_error: t.lastError,
    updated_at: t.updatedAt,
    block: t.chainPosition?.block ?? null,
    log_index: t.chainPosition?.logIndex ?? null,
  };
}

/** A row as a transfer: its summary and the checks' results. */
export function fromRow(r: Selectable<TransfersTable>): TransferRecord {
  return {
    ...summaryFromRow(r),
    exposure: fromJsonOrNull<ExposureResult>(r.exposure),
    counterparty: fromJsonOrNull<CounterpartyResult>(r.counterparty),
    sanctions: fromJsonOrNull<SanctionsResult>(r.sanctions),
  };
}

/**
 * A summary row (SUMMARY_COLUMNS) as a transfer's summary: {@link fromRow} without the checks'
 * results, field for field (the store conformance suite compares the two).
 */
function summaryFromRow(r: Omit<Selectable<TransfersTable>, TransferResultField>): TransferSummary {
  return {
    id: r.id,
    accountId: r.account_id,
    clientId: r.client_id,
    attemptId: r.attempt_id,
    registeredAt: num(r.registered_at),
    network: r.network,
    tokenId: r.token_id,
    tokenSymbol: r.token_symbol,
    direction: r.direction as TransferRecord["direction"],
    txStatus: r.tx_status as TransferRecord["txStatus"],
    txHash: r.tx_hash,
    occurredAt: numOrNull(r.occurred_at),
    inputAddress: r.input_address,
    outputAddress: r.output_address,
    amount: numOrNull(r.amount),
    valueInFiat: numOrNull(r.value_in_fiat),
    riskLevel: r.risk_level as TransferRecord["riskLevel"],
    riskScore: numOrNull(r.risk_score),
    riskModelId: r.risk_model_id,
    riskModelVersion: r.risk_model_version,
    checks: fromJson<CheckStates>(r.checks),
    disableAutoCheck: bool(r.disable_auto_check),
    counterpartyName: r.counterparty_name,
    counterpartyCategory: r.counterparty_category,
    lastError: r.last_error,
    updatedAt: num(r.updated_at),
    ...(r.block === null || r.log_index === null
      ? {}
      : { chainPosition: { block: num(r.block), logIndex: num(r.log_index) } }),
  };
}

/** The WHERE of the transfer list: the account and every filter given. */
export function listConditions(
  eb: ExpressionBuilder<Database, "transfers">,
  accountId: string,
  f: TransferFilter,
): Expression<SqlBool> {
  const c: Expression<SqlBool>[] = [eb("account_id", "=", accountId)];
  if (f.clientId !== undefined) c.push(eb("client_id", "=", f.clientId));
  if (f.direction !== undefined) c.push(eb("direction", "=", f.direction));
  if (f.network !== undefined) c.push(eb("network", "=", f.network));
  if (f.tokenId !== undefined) c.push(eb("token_id", "=", f.tokenId));
  if (f.tokenSymbol !== undefined)
    c.push(eb(eb.fn("lower", ["token_symbol"]), "=", f.tokenSymbol.toLowerCase()));
  if (f.txHash !== undefined) c.push(eb("tx_hash", "=", f.txHash));
  if (f.inputAddress !== undefined) c.push(eb("input_address", "=", f.inputAddress));
  if (f.outputAddress !== undefined) c.push(eb("output_address", "=", f.outputAddress));
  if (f.registeredFrom !== undefined) c.push(eb("registered_at", ">=", f.registeredFrom));
  if (f.registeredTo !== undefined) c.push(eb("registered_at", "<=", f.registeredTo));
  if (f.occurredFrom !== undefined) c.push(eb("occurred_at", ">=", f.occurredFrom));
  if (f.occurredTo !== undefined) c.push(eb("occurred_at", "<=", f.occurredTo));
  if (f.riskLevel !== undefined) c.push(eb("risk_level", "=", f.riskLevel));
  if (f.txStatus !== undefined) c.push(eb("tx_status", "=", f.txStatus));
  if (f.counterpartyName !== undefined) c.push(eb("counterparty_name", "=", f.counterpartyName));
  if (f.counterpartyCategory !== undefined) c.push(eb("counterparty_category", "=", f.counterpartyCategory));
  return eb.and(c);
}

/** Creates the transfer members over `ctx`. */
export function kyselyTransferOps(ctx: KyselyContext): TransferOps {
  const { db } = ctx;
  /** Rows by id, locked FOR UPDATE in id order inside a transaction that takes row locks. */
  const rowsById = async (ids: ReadonlyArray<string>) => {
    const lock = ctx.dialect.rowLocks && ctx.inTransaction;
    const out: TransferRecord[] = [];
    for (const chunk of chunksOf([...new Set(ids)].sort(), IN_LIST_CHUNK)) {
      const { rows } = await runPrecompiled(
        db,
        `transfers.byIds:${chunk.length}:${lock}`,
        () => {
          const query = db.selectFrom("transfers").selectAll().where("id", "in", chunk);
          return lock ? query.orderBy("id").forUpdate() : query;
        },
        chunk,
      );
      for (const row of rows) {
        if (lock) ctx.heldLocks.add(`transfers:${row.id}`);
        out.push(fromRow(row));
      }
    }
    return out;
  };
  return {
    async insertTransfer(record) {
      // DO NOTHING instead of a failing insert keeps an open Postgres transaction usable.
      const row = toRow(record);
      const result = await runPrecompiled(
        db,
        `transfers.insert:${Object.keys(row).join(",")}`,
        () =>
          db
            .insertInto("transfers")
            .values(row)
            .onConflict((oc) => oc.doNothing()),
        Object.values(row),
      );
      if (Number(result.numAffectedRows ?? 0n) === 0) {
        throw new KytError("CONFLICT", `transfer ${record.id} or its identity exists`);
      }
    },
    async insertTransfers(records) {
      if (records.length === 0) return;
      await ctx.atomic(async (tx) => {
        for (const chunk of chunksOf(records.map(toRow), TRANSFER_CHUNK)) {
          // DO NOTHING instead of a failing insert keeps an open Postgres transaction usable.
          const result = await runPrecompiled(
            tx,
            `transfers.insertMany:${chunk.length}`,
            () =>
              tx
                .insertInto("transfers")
                .values(chunk)
                .onConflict((oc) => oc.doNothing()),
            chunk.flatMap((row) => Object.values(row)),
          );
          if (Number(result.numAffectedRows ?? 0n) < chunk.length) {
            throw new KytError("CONFLICT", "a transfer of the batch, or its identity, exists");
          }
        }
      });
    },
    async updateTransfers(records) {
      if (records.length === 0) return;
      await ctx.atomic(async (tx) => {
        const ids = records.map((r) => r.id);
        const stored = new Set<string>();
        for (const chunk of chunksOf([...new Set(ids)], IN_LIST_CHUNK)) {
          for (const row of await tx.selectFrom("transfers").select("id").where("id", "in", chunk).execute())
            stored.add(row.id);
        }
        const missing = ids.find((id) => !stored.has(id));
        if (missing !== undefined) throw notFound("transfer", missing);
        // Every id is stored: the upsert replaces rows and inserts none, one statement per chunk.
        for (const chunk of chunksOf(records.map(toRow), TRANSFER_CHUNK)) {
          await conflictAware(ctx, "a transfer of the batch", () =>
            runPrecompiled(
              tx,
              `transfers.upsertMany:${chunk.length}`,
              () =>
                tx
                  .insertInto("transfers")
                  .values(chunk)
                  .onConflict((oc) =>
                    oc
                      .column("id")
                      .doUpdateSet((eb) =>
                        Object.fromEntries(UPDATED_COLUMNS.map((c) => [c, eb.ref(`excluded.${c}`)])),
                      ),
                  ),
              chunk.flatMap((row) => Object.values(row)),
            ),
          );
        }
      });
    },
    async updateTransfer(record) {
      const { id, ...changes } = toRow(record);
      const columns = Object.keys(changes);
      const result = await conflictAware(ctx, `transfer ${id}`, () =>
        runPrecompiled(
          db,
          `transfers.update:${columns.join(",")}`,
          () => db.updateTable("transfers").set(changes).where("id", "=", id),
          [...Object.values(changes), id],
        ),
      );
      if (Number(result.numAffectedRows ?? 0n) === 0) throw notFound("transfer", id);
    },
    async getTransfer(id) {
      if (ctx.dialect.rowLocks && ctx.inTransaction) {
        const row = await lockedRead(
          ctx,
          "transfers",
          db.selectFrom("transfers").selectAll().where("id", "=", id),
        );
        return row ? fromRow(row) : null;
      }
      const { rows } = await runPrecompiled(
        db,
        "transfers.byId",
        () => db.selectFrom("transfers").selectAll().where("id", "=", id),
        [id],
      );
      return rows[0] ? fromRow(rows[0]) : null;
    },
    async getTransferSummary(id) {
      const { rows } = await runPrecompiled(
        db,
        "transfers.summaryById",
        () => db.selectFrom("transfers").select(SUMMARY_COLUMNS).where("id", "=", id),
        [id],
      );
      return rows[0] ? summaryFromRow(rows[0]) : null;
    },
    async getTransfers(ids) {
      return rowsById(ids);
    },
    async findTransfer(identity) {
      const row = await lockedRead(
        ctx,
        "transfers",
        db
          .selectFrom("transfers")
          .selectAll()
          .where("account_id", "=", identity.accountId)
          .where("network", "=", identity.network)
          .where("tx_hash", "=", identity.txHash)
          .where("token_id", "=", identity.tokenId)
          .where("output_address", "=", identity.outputAddress)
          .where("direction", "=", identity.direction),
      );
      return row ? fromRow(row) : null;
    },
    async findTransfers(identities) {
      // One read per (account, network) and chunk of hashes; the rest of the identity is matched here.
      const groups = new Map<string, TransferIdentity[]>();
      for (const i of identities) {
        const key = `${i.accountId}\u0000${i.network}`;
        const group = groups.get(key);
        if (group) group.push(i);
        else groups.set(key, [i]);
      }
      const lock = ctx.dialect.rowLocks && ctx.inTransaction;
      const out = new Map<string, TransferRecord>();
      for (const group of groups.values()) {
        const first = group[0] as TransferIdentity;
        for (const hashes of chunksOf([...new Set(group.map((i) => i.txHash))].sort(), IN_LIST_CHUNK)) {
          const query = db
            .selectFrom("transfers")
            .selectAll()
            .where("account_id", "=", first.accountId)
            .where("network", "=", first.network)
            .where("tx_hash", "in", hashes);
          for (const row of await (lock ? query.orderBy("id").forUpdate() : query).execute()) {
            const t = fromRow(row);
            if (!group.some((i) => sameIdentity(t, i))) continue;
            if (lock) ctx.heldLocks.add(`transfers:${t.id}`);
            out.set(t.id, t);
          }
        }
      }
      return [...out.values()];
    },
    async listTransfers(accountId, filter, page) {
      const matching = db
        .selectFrom("transfers")
        .selectAll()
        .where((eb) => listConditions(eb, accountId, filter));
      return listPage(ctx, matching, { key: "registered_at", tie: "id", direction: "desc" }, page, fromRow);
    },
  };
}
