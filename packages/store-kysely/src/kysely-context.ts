/** What every role of the kysely store works with: the database (or open transaction) and the options. */
import { KytError } from "@openkyt/core";
import type { Kysely } from "kysely";
import type { Database } from "./kysely-schema.js";

/** The database a role runs its statements on, and how to make several of them atomic. */
export interface KyselyContext {
  /** The database at the root, the transaction inside `Store.transaction`. */
  readonly db: Kysely<Database>;
  /** Claim jobs with `FOR UPDATE SKIP LOCKED` (Postgres); otherwise rely on the transaction alone. */
  readonly skipLocked: boolean;
  /** Runs `fn` atomically: in a new transaction at the root, in the open one inside a transaction. */
  atomic<T>(fn: (db: Kysely<Database>) => Promise<T>): Promise<T>;
}

/** True when a driver error is a unique or primary key violation (SQLite or Postgres codes). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null || !("code" in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}

/** Runs a write and turns a unique violation into CONFLICT (cause kept). */
export async function conflictAware<T>(what: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error))
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
