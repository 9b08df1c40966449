/**
 * Migration 0032: the UTXO ledger's keys (migration 0030) become unique indexes of their own,
 * as migration 0006 did for the account ledger. As primary keys SQLite cannot drop them, so a
 * bulk import had to insert every row into three B-trees keyed by random txids: 24 ms of CPU
 * per 1,000 transactions against 4.6 ms into the same tables without keys (100,000
 * transactions of six rows, in one transaction, 64 rows per statement), and wall time three
 * times the CPU once the keys outgrow the page cache. As unique indexes they are dropped
 * around a bulk load into an empty ledger and built from one sort each
 * (`sqlite-utxo-bulk-load.ts`). Every `ON CONFLICT (txid, network[, vout|vin])` still finds
 * them (SQLite and Postgres match a conflict target to a unique index by its set of columns).
 *
 * Each table is rebuilt: created anew without the primary key, filled from the old one (in
 * rowid order), renamed, its indexes made again. On a large ledger this copies it once.
 */
import { type Kysely, type Migration, sql } from "kysely";

/** A column of a UTXO table: name, type, NOT NULL. */
export type Column = readonly [name: string, type: "text" | "bigint" | "integer", notNull: boolean];
/** A UTXO table as migration 0030 made it: its columns, its key, its secondary index. */
export interface TableSpec {
  readonly name: string;
  readonly columns: ReadonlyArray<Column>;
  readonly key: ReadonlyArray<string>;
  readonly index: readonly [name: string, columns: ReadonlyArray<string>];
}

/** The three tables as migration 0030 made them (migration 0101 rebuilds them back on `down`). */
export const UTXO_KEYED_TABLES: ReadonlyArray<TableSpec> = [
  {
    name: "utxo_transactions",
    columns: [
      ["txid", "text", true],
      ["network", "text", true],
      ["block", "bigint", false],
      ["block_hash", "text", false],
      ["occurred_at", "bigint", true],
      ["position", "integer", true],
      ["coinbase", "integer", true],
    ],
    key: ["txid", "network"],
    index: ["utxo_transactions_block", ["network", "block"]],
  },
  {
    name: "utxo_outputs",
    columns: [
      ["txid", "text", true],
      ["network", "text", true],
      ["vout", "integer", true],
      ["address", "text", false],
      ["value", "bigint", true],
      ["occurred_at", "bigint", true],
      ["block", "bigint", false],
      ["position", "integer", true],
    ],
    key: ["txid", "network", "vout"],
    index: ["utxo_outputs_address", ["address", "network", "occurred_at"]],
  },
  {
    name: "utxo_inputs",
    columns: [
      ["txid", "text", true],
      ["network", "text", true],
      ["vin", "integer", true],
      ["prev_txid", "text", false],
      ["prev_vout", "integer", false],
      ["address", "text", false],
      ["value", "bigint", true],
      ["coinbase", "integer", true],
      ["occurred_at", "bigint", true],
    ],
    key: ["txid", "network", "vin"],
    index: ["utxo_inputs_prevout", ["prev_txid", "network", "prev_vout"]],
  },
];

/** Rebuilds `spec`'s table with its key as a primary key (`primaryKey`) or as a unique index. */
async function rebuild(db: Kysely<unknown>, spec: TableSpec, primaryKey: boolean): Promise<void> {
  const next = `${spec.name}_next`;
  let table = db.schema.createTable(next);
  for (const [name, type, notNull] of spec.columns)
    table = table.addColumn(name, type, (c) => (notNull ? c.notNull() : c));
  if (primaryKey) table = table.addPrimaryKeyConstraint(`${spec.name}_pk`, [...spec.key] as never[]);
  await table.execute();
  const columns = sql.join(spec.columns.map(([c]) => sql.id(c)));
  await sql`insert into ${sql.table(next)} (${columns}) select ${columns} from ${sql.table(spec.name)}`.execute(
    db,
  );
  await db.schema.dropTable(spec.name).execute();
  await db.schema.alterTable(next).renameTo(spec.name).execute();
  if (!primaryKey)
    await db.schema
      .createIndex(`${spec.name}_key`)
      .on(spec.name)
      .columns([...spec.key])
      .unique()
      .execute();
  const [indexName, indexColumns] = spec.index;
  await db.schema
    .createIndex(indexName)
    .on(spec.name)
    .columns([...indexColumns])
    .execute();
}

/** The keys as unique indexes. */
async function up(db: Kysely<unknown>): Promise<void> {
  for (const spec of UTXO_KEYED_TABLES) await rebuild(db, spec, false);
}

/** Back to the primary keys of migration 0030. */
async function down(db: Kysely<unknown>): Promise<void> {
  for (const spec of UTXO_KEYED_TABLES) await rebuild(db, spec, true);
}

/** Migration 0032. */
export const utxoKeysMigration: Migration = { up, down };
