/** What every role of the kysely store works with: the database (or open transaction) and the options. */
import { KytError } from "@openkyt/core";
import { type Expression, type Kysely, sql } from "kysely";
import type { StoreDialect } from "./kysely-dialect.js";
import type { Database } from "./kysely-schema.js";

/** The database a role runs its statements on, and how to make several of them atomic. */
export interface KyselyContext {
  /** The database at the root, the transaction inside `Store.transaction`. */
  readonly db: Kysely<Database>;
  /** What differs between backends (locks, claims, collation, error codes). */
  readonly dialect: StoreDialect;
  /** True inside `Store.transaction`, where a lock taken by a read lasts until the end. */
  readonly inTransaction: boolean;
  /** Rows the open transaction already locked (`table:id`): locking one again costs no round trip. */
  readonly heldLocks: Set<string>;
  /** Runs `fn` atomically: in a new transaction at the root, in the open one inside a transaction. */
  atomic<T>(fn: (db: Kysely<Database>) => Promise<T>): Promise<T>;
}

/** Tables whose rows a transaction locks. */
export type LockedTable = "transfers" | "manual_checks" | "alerts";

/** A query for one row that can be locked. */
interface LockableRead<R> {
  forUpdate(): LockableRead<R>;
  executeTakeFirst(): Promise<R | undefined>;
}

/**
 * Runs a read of one row of `table`, locked `FOR UPDATE` when the context takes row locks and
 * runs inside a transaction (the lock is then remembered in `heldLocks`).
 */
export async function lockedRead<R extends { readonly id: string }>(
  ctx: KyselyContext,
  table: LockedTable,
  query: LockableRead<R>,
): Promise<R | undefined> {
  if (!ctx.dialect.rowLocks || !ctx.inTransaction) return query.executeTakeFirst();
  const row = await query.forUpdate().executeTakeFirst();
  if (row) ctx.heldLocks.add(`${table}:${row.id}`);
  return row;
}

/**
 * Locks the row with `id` in `table` until the transaction of `db` ends, when the context takes
 * row locks (a missing row locks nothing). Serialises read-modify-write of the row's dependents.
 */
export async function lockRow(
  ctx: KyselyContext,
  db: Kysely<Database>,
  table: LockedTable,
  id: string,
): Promise<void> {
  await lockRows(ctx, db, table, [id]);
}

/**
 * {@link lockRow} for several rows: those the transaction does not hold yet are locked with one
 * statement per chunk, in id order (so two batches never wait on each other in a cycle).
 */
export async function lockRows(
  ctx: KyselyContext,
  db: Kysely<Database>,
  table: LockedTable,
  ids: ReadonlyArray<string>,
): Promise<void> {
  if (!ctx.dialect.rowLocks) return;
  // Sorted before chunking, so that locks are taken in one id order across chunks too.
  const wanted = [...new Set(ids)]
    .filter((id) => !(ctx.inTransaction && ctx.heldLocks.has(`${table}:${id}`)))
    .sort();
  for (let i = 0; i < wanted.length; i += 500) {
    const chunk = wanted.slice(i, i + 500);
    await db.selectFrom(table).select("id").where("id", "in", chunk).orderBy("id").forUpdate().execute();
    if (ctx.inTransaction) for (const id of chunk) ctx.heldLocks.add(`${table}:${id}`);
  }
}

/** A text column as an ORDER BY expression, in the context's collation when it has one. */
export function orderText(ctx: Pick<KyselyContext, "dialect">, column: string): Expression<string> {
  return ctx.dialect.orderCollation === null
    ? sql.ref<string>(column)
    : sql<string>`${sql.ref(column)} collate ${sql.id(ctx.dialect.orderCollation)}`;
}

/** True when a driver error is a unique or primary key violation of `dialect`'s backend. */
export function isUniqueViolation(dialect: StoreDialect, error: unknown): boolean {
  if (typeof error !== "object" || error === null || !("code" in error)) return false;
  const code = (error as { code: unknown }).code;
  return typeof code === "string" && dialect.uniqueViolationCodes.includes(code);
}

/** Runs a write and turns a unique violation into CONFLICT (cause kept). */
export async function conflictAware<T>(
  ctx: KyselyContext,
  what: string,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(ctx.dialect, error))
      throw new KytError("CONFLICT", `${what} conflicts with a stored row`, { cause: error });
    throw error;
  }
}

/** The number of rows an insert, update or delete result says it changed. */
export function changedRows(result: {
  readonly numInsertedOrUpdatedRows?: bigint | undefined;
  readonly numUpdatedRows?: bigint;
  readonly numDeletedRows?: bigint;
}): number {
  return Number(result.numInsertedOrUpdatedRows ?? result.numUpdatedRows ?? result.numDeletedRows ?? 0n);
}
