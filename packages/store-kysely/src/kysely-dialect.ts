/**
 * What differs between the backends of the kysely store, in one object per backend, as kysely's
 * own dialect adapters do: a backend names only what it changes and takes the rest from
 * {@link BASE_STORE_DIALECT}. Core and the shared store code ask the dialect, never which
 * database they are on.
 */
import type { StoreCapabilities } from "@openkyt/core";

/** A backend of the kysely store. */
export interface StoreDialect {
  /** Human name of the backend (for logs and capabilities). */
  readonly name: string;
  /** What the store reports about itself. */
  readonly capabilities: StoreCapabilities;
  /** Lock claimed jobs with `FOR UPDATE SKIP LOCKED`; without it the transaction alone serialises claims. */
  readonly skipLocked: boolean;
  /**
   * Take explicit row locks: inside `transaction`, reads of a transfer, manual check or alert by
   * id (and `findTransfer`, `getTransfers`) lock their rows `FOR UPDATE` until it ends; risk
   * replacement and alert history lock their subject's row.
   */
  readonly rowLocks: boolean;
  /** Collation of text columns in ORDER BY, so ties come out in byte order; null: the column's. */
  readonly orderCollation: string | null;
  /**
   * Group commit (single-connection backends): transactions that arrive while one runs share one
   * database transaction, each in its own savepoint (see `groupCommitter`).
   */
  readonly groupCommit: boolean;
  /**
   * How `scanLedger` orders the ledger: by SQLite's `rowid`, or by the `seq` column numbered in
   * commit order (migration 0010; inserts then take a transaction-scoped advisory lock first).
   */
  readonly ledgerOrder: "rowid" | "seq";
  /**
   * Lateral joins and array parameters (`unnest($1::text[])`): a ledger hop is then one fixed
   * statement over the whole frontier (`kysely-ledger-frontier.ts`) instead of a UNION ALL.
   */
  readonly lateralJoins: boolean;
  /** Driver error codes of a unique or primary-key violation (turned into CONFLICT). */
  readonly uniqueViolationCodes: ReadonlyArray<string>;
}

/** The defaults a dialect starts from: one writer at a time, no row locks, the column's collation. */
export const BASE_STORE_DIALECT: StoreDialect = Object.freeze({
  name: "kysely",
  capabilities: Object.freeze({ multiProcess: false, dialect: "kysely" }),
  skipLocked: false,
  rowLocks: false,
  orderCollation: null,
  groupCommit: false,
  ledgerOrder: "rowid",
  lateralJoins: false,
  uniqueViolationCodes: Object.freeze([]),
});

/** A dialect: `overrides` over {@link BASE_STORE_DIALECT}, frozen. */
export function defineStoreDialect(
  overrides: Partial<StoreDialect> & Pick<StoreDialect, "name">,
): StoreDialect {
  return Object.freeze({ ...BASE_STORE_DIALECT, ...overrides });
}
