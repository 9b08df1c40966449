/**
 * The SQLite store's bulk UTXO load (`Store.bulkUtxoWriter`): a load opened `exclusive` (the
 * caller uses the store for nothing else until it ends, as `openkyt import` does) into an empty
 * UTXO ledger with no clusters yet. Written a batch at a time through the importer's port, a
 * Bitcoin import spent most of its CPU in kysely (compiling each multi-row insert, binding
 * arrays of row objects) and in keeping three secondary indexes, keyed by random strings, up to
 * date row by row. Here, as the ETH ledger's direct load (`sqlite-direct-ledger-load.ts`):
 *
 * - the load holds the store's connection from its opening to its end, in one IMMEDIATE
 *   transaction (`sqlite-exclusive-load.ts`, shared with the account ledger's direct load);
 * - the UTXO tables' secondary indexes (the transactions' key `(txid, network)`, a unique index,
 *   and a transaction's block, an address's receipts, an outpoint's spender) are dropped at once
 *   and built again at `finish`, each from one sort on SQLite's sorter threads: inserting rows
 *   into B-trees keyed by random txids cost five times the CPU of appending them; a txid repeated
 *   in the load is left out as it comes (the first wins, as `putUtxoTransactions` does), from a
 *   set of the load's txids kept in memory (about 100 bytes a transaction while the load is open);
 * - each transaction gets the next id (the ledger is empty, so from 1) and its outputs and
 *   inputs are keyed `(tx, vout|vin)` by it (migration 0101): written in that order, they extend
 *   their tables' primary keys at the end, and there is no key index to build for them;
 * - rows are bound straight from each transaction into multi-row INSERTs prepared once
 *   ({@link ROWS_PER_STATEMENT} rows each), values passed as arguments, no row objects;
 * - `finish` writes the load's clusters (the components of the groups it is given, joined in
 *   memory) and their labelled members in the same transaction, then commits: the
 *   transactions and their clusters land together or not at all. It answers which clusters
 *   hold two labelled members or more (`contestable`), so the importer asks about those
 *   instead of every cluster of the file. `abort` rolls everything back, the indexes included.
 *
 * A batch is checked (`utxoTransactionProblem`) before any of it is written, and written in a
 * savepoint: a refused batch leaves none of its rows.
 */

import {
  addressComponents,
  type ClusterMergeOutcome,
  KytError,
  type UtxoBulkOutcome,
  type UtxoBulkWriter,
  type UtxoTransaction,
  utxoTransactionProblem,
} from "@openkyt/core";
import type { Database } from "@openkyt/store-kysely";
import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";
import { openExclusiveLoad } from "./sqlite-exclusive-load.js";
import { refusedBatch, type SqliteBulkLedgerOptions, type StoredIndex } from "./sqlite-ledger-load-steps.js";

/** The UTXO tables and cluster tables (migrations 0030, 0031, 0090). */
const UTXO_TABLES = ["utxo_transactions", "utxo_outputs", "utxo_inputs"] as const;
const CLUSTER_TABLES = ["utxo_clusters", "utxo_cluster_sizes", "utxo_cluster_labels"] as const;

/**
 * Keeps the labelled members of a network's clusters (migration 0090) after the load wrote
 * them: read from the labelled side (each attribution of the network and each sanctions
 * listing probes the clusters' key), so it costs the labels, not the clustered addresses.
 */
const KEEP_LABELLED_MEMBERS = `INSERT INTO main.utxo_cluster_labels (network, cluster_id, address)
  SELECT c.network, c.cluster_id, c.address FROM main.utxo_clusters c
  WHERE c.network = ? AND c.address IN (
    SELECT address FROM main.attributions WHERE network = ?
    UNION SELECT address FROM main.sanctions_listings)
  ON CONFLICT DO NOTHING`;

/**
 * The clusters of a network with at least two labelled members (`UtxoBulkOutcome.contestable`):
 * the cluster tables were empty when the load opened, so every row is the load's.
 */
const CONTESTABLE_CLUSTERS = `SELECT cluster_id FROM main.utxo_cluster_labels WHERE network = ?
  GROUP BY cluster_id HAVING count(*) > 1 ORDER BY cluster_id`;

/** Rows per multi-row insert: fewer calls into SQLite (below SQLite's 32,766 parameters). */
const ROWS_PER_STATEMENT = 64;

const TX_COLUMNS = ["id", "txid", "network", "block", "block_hash", "occurred_at", "position", "coinbase"];
const OUTPUT_COLUMNS = ["tx", "vout", "address", "value", "occurred_at"];
const INPUT_COLUMNS = ["tx", "vin", "prev_txid", "prev_vout", "address", "value", "coinbase"];

/** The droppable (secondary) indexes of `tables`; primary keys have no SQL and are left out. */
function secondaryIndexes(sqlite: BetterSqlite3.Database, tables: ReadonlyArray<string>): StoredIndex[] {
  const rows = sqlite
    .prepare(
      `SELECT name, sql FROM main.sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${tables.map(() => "?").join(", ")}) ORDER BY tbl_name, name`,
    )
    .all(...tables) as Array<{ name: string; sql: string }>;
  return rows.map((r) => ({ ...r, unique: /^\s*CREATE\s+UNIQUE\b/i.test(r.sql) }));
}

/** True when none of `tables` holds a row. */
function allEmpty(sqlite: BetterSqlite3.Database, tables: ReadonlyArray<string>): boolean {
  return tables.every((t) => sqlite.prepare(`SELECT 1 FROM main.${t} LIMIT 1`).get() === undefined);
}

/**
 * Rows of one table bound into multi-row inserts: `put` copies a row's values into the pending
 * statement's parameters; `flush` runs what is pending. The whole statement runs when full.
 */
class RowBinder {
  private readonly many: BetterSqlite3.Statement;
  private readonly one: BetterSqlite3.Statement;
  private readonly params: unknown[];
  private readonly width: number;
  private pending = 0;
  constructor(sqlite: BetterSqlite3.Database, table: string, columns: ReadonlyArray<string>, suffix = "") {
    this.width = columns.length;
    const row = `(${columns.map(() => "?").join(", ")})`;
    const head = `INSERT INTO main.${table} (${columns.join(", ")}) VALUES `;
    this.many = sqlite.prepare(`${head}${Array(ROWS_PER_STATEMENT).fill(row).join(", ")}${suffix}`);
    this.one = sqlite.prepare(`${head}${row}${suffix}`);
    this.params = new Array(this.width * ROWS_PER_STATEMENT);
  }
  /** The parameters of the next row, to fill from `at`; call `added()` after. */
  slot(): { params: unknown[]; at: number } {
    return { params: this.params, at: this.pending * this.width };
  }
  /** Counts the row just filled; runs the statement when full. Answers the rows it inserted. */
  added(): number {
    this.pending++;
    if (this.pending < ROWS_PER_STATEMENT) return 0;
    this.pending = 0;
    return this.many.run(...this.params).changes;
  }
  /** Forgets the rows pending (their batch was refused). */
  reset(): void {
    this.pending = 0;
  }
  /** Runs the rows pending one by one; answers how many were inserted. */
  flush(): number {
    let changes = 0;
    for (let r = 0; r < this.pending; r++) {
      const from = r * this.width;
      changes += this.one.run(...this.params.slice(from, from + this.width)).changes;
    }
    this.pending = 0;
    return changes;
  }
}

/**
 * Opens a direct UTXO load when the UTXO ledger and its clusters are empty; answers null
 * otherwise (the caller writes a batch at a time instead), having held nothing.
 */
export async function openDirectUtxoLoad(
  db: Kysely<Database>,
  sqlite: BetterSqlite3.Database,
  options: SqliteBulkLedgerOptions,
): Promise<UtxoBulkWriter | null> {
  const tables = [...UTXO_TABLES, ...CLUSTER_TABLES];
  let indexes: StoredIndex[] = [];
  const load = await openExclusiveLoad(
    db,
    sqlite,
    options,
    "bulk UTXO load",
    () => allEmpty(sqlite, tables),
    () => {
      indexes = secondaryIndexes(sqlite, tables);
      for (const index of indexes) sqlite.exec(`DROP INDEX main."${index.name}"`);
    },
  );
  if (load === null) return null;

  const txRows = new RowBinder(sqlite, "utxo_transactions", TX_COLUMNS);
  const outputRows = new RowBinder(sqlite, "utxo_outputs", OUTPUT_COLUMNS);
  const inputRows = new RowBinder(sqlite, "utxo_inputs", INPUT_COLUMNS);

  const putChildren = (tx: UtxoTransaction, id: number) => {
    const occurredAt = tx.occurredAt;
    for (const o of tx.outputs) {
      const { params: p, at } = outputRows.slot();
      p[at] = id;
      p[at + 1] = o.vout;
      p[at + 2] = o.address;
      p[at + 3] = o.value;
      p[at + 4] = occurredAt;
      outputRows.added();
    }
    const inputs = tx.inputs;
    for (let vin = 0; vin < inputs.length; vin++) {
      const i = inputs[vin] as (typeof inputs)[number];
      const { params: p, at } = inputRows.slot();
      p[at] = id;
      p[at + 1] = vin;
      p[at + 2] = i.prevTxid;
      p[at + 3] = i.prevVout;
      p[at + 4] = i.address;
      p[at + 5] = i.value;
      p[at + 6] = i.coinbase ? 1 : 0;
      inputRows.added();
    }
  };

  /** The id of the last transaction written (the ledger was empty: ids from 1). */
  let lastId = 0;

  /** The transactions of the batch being written that were new. */
  let fresh: UtxoTransaction[] = [];
  /** The txids written so far, per network: a txid repeated in the load is left out (the first wins). */
  const seen = new Map<string, Set<string>>();
  const putTx = (tx: UtxoTransaction): boolean => {
    let txids = seen.get(tx.network);
    if (!txids) {
      txids = new Set();
      seen.set(tx.network, txids);
    }
    if (txids.has(tx.txid)) return false;
    txids.add(tx.txid);
    // Taken before its rows are bound: a refused batch forgets it again.
    fresh.push(tx);
    const id = ++lastId;
    const { params: p, at } = txRows.slot();
    p[at] = id;
    p[at + 1] = tx.txid;
    p[at + 2] = tx.network;
    p[at + 3] = tx.block;
    p[at + 4] = tx.blockHash;
    p[at + 5] = tx.occurredAt;
    p[at + 6] = tx.position;
    p[at + 7] = tx.coinbase ? 1 : 0;
    txRows.added();
    putChildren(tx, id);
    return true;
  };

  const batch = sqlite.transaction((txs: ReadonlyArray<UtxoTransaction>): void => {
    for (const tx of txs) putTx(tx);
    txRows.flush();
    outputRows.flush();
    inputRows.flush();
  });

  /** Writes the clusters of `groups` (per network) into the empty cluster tables. */
  const writeClusters = (
    groups: ReadonlyMap<string, ReadonlyArray<ReadonlyArray<string>>>,
  ): { merged: Map<string, ClusterMergeOutcome>; contestable: Map<string, string[]> } => {
    const outcomes = new Map<string, ClusterMergeOutcome>();
    const contestable = new Map<string, string[]>();
    const members = new RowBinder(sqlite, "utxo_clusters", ["address", "network", "cluster_id"]);
    const sizes = new RowBinder(sqlite, "utxo_cluster_sizes", ["cluster_id", "network", "size"]);
    for (const [network, list] of groups) {
      const parts = addressComponents(list).filter((c) => c.length > 1);
      const rows: Array<[string, string]> = [];
      let unions = 0;
      const ids: string[] = [];
      for (const part of parts) {
        // As `mergeAddressClusters` names a cluster of new addresses: by its first address.
        const id = part[0] as string;
        ids.push(id);
        unions += part.length - 1;
        for (const address of part) rows.push([address, id]);
        const { params: p, at } = sizes.slot();
        p[at] = id;
        p[at + 1] = network;
        p[at + 2] = part.length;
        sizes.added();
      }
      // In key order: the key index grows at its end.
      rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      for (const [address, id] of rows) {
        const { params: p, at } = members.slot();
        p[at] = address;
        p[at + 1] = network;
        p[at + 2] = id;
        members.added();
      }
      members.flush();
      sizes.flush();
      sqlite.prepare(KEEP_LABELLED_MEMBERS).run(network, network);
      outcomes.set(network, { unions, clusterIds: ids.sort() });
      contestable.set(network, sqlite.prepare(CONTESTABLE_CLUSTERS).pluck().all(network) as string[]);
    }
    return { merged: outcomes, contestable };
  };

  let added = 0;
  const ensureOpen = () => {
    if (load.ended) throw new KytError("STORE_ERROR", "the bulk UTXO load has ended");
  };
  const end = () => load.end();
  return {
    async write(txs) {
      ensureOpen();
      if (txs.length === 0) return;
      for (const tx of txs) {
        const problem = utxoTransactionProblem(tx);
        if (problem !== null) throw new KytError("VALIDATION_ERROR", problem);
      }
      fresh = [];
      const idBefore = lastId;
      try {
        // Inside the load's transaction this is a savepoint: a refused batch leaves none of its rows.
        batch(txs);
      } catch (error) {
        for (const rows of [txRows, outputRows, inputRows]) rows.reset();
        // Its new txids were taken as written: they are not, so a later copy may be.
        for (const tx of fresh) seen.get(tx.network)?.delete(tx.txid);
        lastId = idBefore;
        throw refusedBatch(error);
      }
      added += fresh.length;
    },
    async finish(clusters): Promise<UtxoBulkOutcome> {
      ensureOpen();
      let outcome: UtxoBulkOutcome;
      try {
        const written = clusters ? writeClusters(clusters) : null;
        for (const index of indexes) sqlite.exec(index.sql);
        sqlite.exec("COMMIT");
        outcome =
          written === null
            ? { added, clusters: new Map<string, ClusterMergeOutcome>() }
            : { added, clusters: written.merged, contestable: written.contestable };
      } catch (error) {
        await end().catch(() => {});
        throw new KytError("STORE_ERROR", "the bulk UTXO load failed", { cause: error });
      }
      await end();
      return outcome;
    },
    abort: end,
  };
}
