/**
 * The kysely store: the Store port over any kysely dialect whose SQL both SQLite and Postgres
 * speak. What differs between backends arrives as option flags, never as dialect checks.
 */
import type { Store, StoreCapabilities, StoreOps } from "@openkyt/core";
import type { Kysely } from "kysely";
import { kyselyAlertOps } from "./kysely-alerts.js";
import { kyselyBacktestOps } from "./kysely-backtests.js";
import type { KyselyContext } from "./kysely-context.js";
import { groupCommitter } from "./kysely-group-commit.js";
import { kyselyJobOps } from "./kysely-jobs.js";
import { kyselyKeyModelOps } from "./kysely-keys-models.js";
import { kyselyLedgerOps } from "./kysely-ledger.js";
import { kyselyManualCheckOps } from "./kysely-manual-checks.js";
import { kyselyOperationsOps } from "./kysely-operations.js";
import { kyselyReferenceOps } from "./kysely-reference.js";
import { kyselyReplayOps } from "./kysely-replay.js";
import { kyselyRiskOps } from "./kysely-risks.js";
import type { Database } from "./kysely-schema.js";
import { kyselySecretOps } from "./kysely-secrets.js";
import { kyselyTransferOps } from "./kysely-transfers.js";
import { kyselyUserOps } from "./kysely-users.js";
import { kyselyWebhookOps } from "./kysely-webhooks.js";

/** Options of {@link createKyselyStore}. */
export interface KyselyStoreOptions {
  /** What the store reports about itself. */
  readonly capabilities: StoreCapabilities;
  /** Lock claimed jobs with `FOR UPDATE SKIP LOCKED` (Postgres); SQLite serialises transactions instead. */
  readonly skipLocked: boolean;
  /**
   * Take explicit row locks (Postgres): inside `transaction`, reads of a transfer, manual check or
   * alert by id (and `findTransfer`) lock the row `FOR UPDATE` until the transaction ends; risk
   * replacement and alert history lock their subject's row. Default false: SQLite transactions
   * take the database's write lock when they begin.
   */
  readonly rowLocks?: boolean;
  /**
   * Collation of text columns in ORDER BY, so that ties by id come out in byte order as on
   * SQLite whatever the database's default collation (Postgres: "C"). Default null: the column's.
   */
  readonly orderCollation?: string | null;
  /**
   * Group commit (single-connection backends, SQLite): transactions that arrive while one runs
   * share one database transaction, each in its own savepoint (see `groupCommitter`). Default
   * false: every transaction is a database transaction of its own (Postgres, with a pool).
   */
  readonly groupCommit?: boolean;
  /**
   * The ledger carries a `seq` column in commit order (Postgres, migration 0010), for
   * `scanLedger`: every ledger insert takes a transaction-scoped advisory lock first, so two
   * writers never commit their numbers out of order. Default false (SQLite orders by rowid).
   */
  readonly ledgerSequence?: boolean;
}

/** Every member of the port over `ctx`. */
function kyselyOps(ctx: KyselyContext): StoreOps {
  return {
    ...kyselyTransferOps(ctx),
    ...kyselyManualCheckOps(ctx),
    ...kyselyRiskOps(ctx),
    ...kyselyAlertOps(ctx),
    ...kyselyJobOps(ctx),
    ...kyselyKeyModelOps(ctx),
    ...kyselyLedgerOps(ctx),
    ...kyselyReferenceOps(ctx),
    ...kyselyWebhookOps(ctx),
    ...kyselySecretOps(ctx),
    ...kyselyUserOps(ctx),
    ...kyselyBacktestOps(ctx),
    ...kyselyOperationsOps(ctx),
  };
}

/**
 * Creates a store over a migrated database (see `migrateToLatest`). `transaction(fn)` runs `fn`
 * in `db.transaction()` with a view of the store bound to that transaction (its reads lock their
 * rows when `rowLocks` is set); `close()` destroys `db` once.
 */
export function createKyselyStore(db: Kysely<Database>, options: KyselyStoreOptions): Store {
  const settings = {
    skipLocked: options.skipLocked,
    rowLocks: options.rowLocks ?? false,
    orderCollation: options.orderCollation ?? null,
    ledgerSequence: options.ledgerSequence ?? false,
  };
  const root: KyselyContext = {
    ...settings,
    db,
    inTransaction: false,
    heldLocks: new Set(),
    atomic: (fn) => db.transaction().execute(fn),
  };
  let closing: Promise<void> | null = null;
  // The view of an open transaction, built once per database transaction: a group commit's
  // members share it (building the ~80 members per member showed in the profile).
  const views = new WeakMap<Kysely<Database>, StoreOps>();
  const txOps = (trx: Kysely<Database>): StoreOps => {
    let view = views.get(trx);
    if (!view) {
      view = kyselyOps({
        ...settings,
        db: trx,
        inTransaction: true,
        heldLocks: new Set(),
        atomic: (inner) => inner(trx),
      });
      views.set(trx, view);
    }
    return view;
  };
  const grouped = options.groupCommit ? groupCommitter(db) : null;
  return {
    ...kyselyOps(root),
    ...kyselyReplayOps(root),
    capabilities: Object.freeze({ ...options.capabilities }),
    transaction<T>(fn: (tx: StoreOps) => Promise<T>): Promise<T> {
      if (grouped) return grouped((trx) => fn(txOps(trx)));
      return db.transaction().execute((trx) => fn(txOps(trx)));
    },
    close() {
      closing ??= db.destroy();
      return closing;
    },
  };
}
