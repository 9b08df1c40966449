/**
 * The kysely store: the Store port over any kysely dialect whose SQL both SQLite and Postgres
 * speak. What differs between backends is the `StoreDialect` a backend passes, never a check of
 * which database this is.
 */
import type { Store, StoreOps } from "@openkyt/core";
import type { Kysely } from "kysely";
import { kyselyAlertOps } from "./kysely-alerts.js";
import { kyselyBacktestOps } from "./kysely-backtests.js";
import { kyselyCaseworkOps } from "./kysely-casework.js";
import { kyselyChainFollowOps } from "./kysely-chain-follow.js";
import { kyselyClusterOps } from "./kysely-clusters.js";
import type { KyselyContext } from "./kysely-context.js";
import type { StoreDialect } from "./kysely-dialect.js";
import { groupCommitter } from "./kysely-group-commit.js";
import { kyselyJobOps } from "./kysely-jobs.js";
import { kyselyKeyModelOps } from "./kysely-keys-models.js";
import { kyselyLedgerOps } from "./kysely-ledger.js";
import { kyselyLedgerScan } from "./kysely-ledger-scan.js";
import { kyselyManualCheckOps } from "./kysely-manual-checks.js";
import { kyselyOperationsOps } from "./kysely-operations.js";
import { kyselyReferenceOps } from "./kysely-reference.js";
import { kyselyReplayOps } from "./kysely-replay.js";
import { kyselyRewindScan } from "./kysely-rewinds.js";
import { kyselyRiskOps } from "./kysely-risks.js";
import type { Database } from "./kysely-schema.js";
import { kyselySecretOps } from "./kysely-secrets.js";
import { kyselyTransferOps } from "./kysely-transfers.js";
import { kyselyUserOps } from "./kysely-users.js";
import { kyselyUtxoOps } from "./kysely-utxo.js";
import { kyselyWebhookOps } from "./kysely-webhooks.js";

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
    ...kyselyUtxoOps(ctx),
    ...kyselyClusterOps(ctx),
    ...kyselyReferenceOps(ctx),
    ...kyselyWebhookOps(ctx),
    ...kyselySecretOps(ctx),
    ...kyselyUserOps(ctx),
    ...kyselyCaseworkOps(ctx),
    ...kyselyChainFollowOps(ctx),
    ...kyselyBacktestOps(ctx),
    ...kyselyOperationsOps(ctx),
  };
}

/**
 * Creates a store over a migrated database (see `migrateToLatest`). `transaction(fn)` runs `fn`
 * in `db.transaction()` with a view of the store bound to that transaction (its reads lock their
 * rows when `rowLocks` is set); `close()` destroys `db` once.
 */
export function createKyselyStore(db: Kysely<Database>, dialect: StoreDialect): Store {
  const settings = { dialect };
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
  const grouped = dialect.groupCommit ? groupCommitter(db) : null;
  return {
    ...kyselyOps(root),
    ...kyselyReplayOps(root),
    capabilities: Object.freeze({ ...dialect.capabilities }),
    scanLedger: kyselyLedgerScan(db, dialect.ledgerOrder),
    scanRewinds: kyselyRewindScan(db),
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
