/**
 * Migration 0101: the UTXO ledger in narrow form. Since migration 0030 every output and input
 * was keyed by `(txid, network, vout|vin)` as text and repeated its transaction's time (outputs
 * also its block and position), so a bulk import built two more key indexes over random 64-
 * character txids and bound about 40 values a transaction (docs/benchmarks.md, "Bitcoin bulk
 * import: where its CPU goes, and the floor"). Now:
 *
 * - `utxo_transactions` gets an integer `id` (SQLite: the rowid itself, so a scan's positions do
 *   not move; Postgres: an identity), keeps `(txid, network)` as a unique index
 *   (`utxo_transactions_key`, droppable around a bulk load) and `(network, block)`;
 * - `utxo_outputs` is keyed `(tx, vout)` by that id, with the output's own columns and the
 *   transaction's time, for the receipts index `(address, occurred_at)`; an address's receipts
 *   join the transaction row (one key lookup) for the network, block and position;
 * - `utxo_inputs` is keyed `(tx, vin)`, with `(prev_txid, prev_vout)` for an outpoint's
 *   spender: the network and time of the spending input are its transaction row's.
 *
 * On SQLite the outputs and inputs are WITHOUT ROWID tables: rows written in key order (a load
 * appends transactions in id order) extend their primary key at its end, with no key index to
 * build. The network of an output or input is its transaction's: a txid on both BTC and LTC
 * gives two transaction rows with different ids, and a spender is matched on its transaction's
 * network (`kysely-utxo.ts`).
 *
 * `up` copies every row (transactions in rowid order, keeping the rowid as id); `down` rebuilds
 * the form of migration 0032 from them. On a large ledger each copies it once.
 */
import { type Kysely, type Migration, PostgresAdapter, sql } from "kysely";
import { UTXO_KEYED_TABLES } from "./kysely-migration-0032-utxo-keys.js";

/** True on Postgres (an identity column, no WITHOUT ROWID). */
function onPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The narrow tables' indexes, made after their rows are copied. */
const NARROW_INDEXES: ReadonlyArray<
  readonly [name: string, table: string, columns: string[], unique: boolean]
> = [
  ["utxo_transactions_key", "utxo_transactions", ["txid", "network"], true],
  ["utxo_transactions_block", "utxo_transactions", ["network", "block"], false],
  ["utxo_outputs_address", "utxo_outputs", ["address", "occurred_at"], false],
  ["utxo_inputs_prevout", "utxo_inputs", ["prev_txid", "prev_vout"], false],
];

async function createIndexes(db: Kysely<unknown>, table: string): Promise<void> {
  for (const [name, on, columns, unique] of NARROW_INDEXES) {
    if (on !== table) continue;
    const index = db.schema.createIndex(name).on(on).columns(columns);
    await (unique ? index.unique() : index).execute();
  }
}

/** Narrow form: copies the rows, drops the wide tables. */
async function up(db: Kysely<unknown>): Promise<void> {
  const pg = onPostgres(db);
  const withoutRowid = pg ? sql`` : sql`without rowid`;
  await db.schema
    .createTable("utxo_transactions_next")
    .addColumn("id", pg ? "bigint" : "integer", (c) =>
      pg ? c.generatedByDefaultAsIdentity().primaryKey() : c.primaryKey(),
    )
    .addColumn("txid", "text", (c) => c.notNull())
    .addColumn("network", "text", (c) => c.notNull())
    .addColumn("block", "bigint")
    .addColumn("block_hash", "text")
    .addColumn("occurred_at", "bigint", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("coinbase", "integer", (c) => c.notNull())
    .execute();
  const txColumns = sql`txid, network, block, block_hash, occurred_at, position, coinbase`;
  // SQLite: the rowid stays the transaction's position (`scanUtxoTransactions`, the rewind log).
  await (pg
    ? sql`insert into utxo_transactions_next (${txColumns}) select ${txColumns} from utxo_transactions`
    : sql`insert into utxo_transactions_next (id, ${txColumns}) select rowid, ${txColumns} from utxo_transactions order by rowid`
  ).execute(db);
  await db.schema.dropTable("utxo_transactions").execute();
  await db.schema.alterTable("utxo_transactions_next").renameTo("utxo_transactions").execute();
  await createIndexes(db, "utxo_transactions");

  await db.schema
    .createTable("utxo_outputs_next")
    .addColumn("tx", "bigint", (c) => c.notNull())
    .addColumn("vout", "integer", (c) => c.notNull())
    .addColumn("address", "text")
    .addColumn("value", "bigint", (c) => c.notNull())
    .addColumn("occurred_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("utxo_outputs_pk", ["tx", "vout"])
    .modifyEnd(withoutRowid)
    .execute();
  await sql`insert into utxo_outputs_next (tx, vout, address, value, occurred_at)
    select t.id, o.vout, o.address, o.value, o.occurred_at
    from utxo_outputs o join utxo_transactions t on t.txid = o.txid and t.network = o.network
    order by t.id, o.vout`.execute(db);
  await db.schema.dropTable("utxo_outputs").execute();
  await db.schema.alterTable("utxo_outputs_next").renameTo("utxo_outputs").execute();
  await createIndexes(db, "utxo_outputs");

  await db.schema
    .createTable("utxo_inputs_next")
    .addColumn("tx", "bigint", (c) => c.notNull())
    .addColumn("vin", "integer", (c) => c.notNull())
    .addColumn("prev_txid", "text")
    .addColumn("prev_vout", "integer")
    .addColumn("address", "text")
    .addColumn("value", "bigint", (c) => c.notNull())
    .addColumn("coinbase", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("utxo_inputs_pk", ["tx", "vin"])
    .modifyEnd(withoutRowid)
    .execute();
  await sql`insert into utxo_inputs_next (tx, vin, prev_txid, prev_vout, address, value, coinbase)
    select t.id, i.vin, i.prev_txid, i.prev_vout, i.address, i.value, i.coinbase
    from utxo_inputs i join utxo_transactions t on t.txid = i.txid and t.network = i.network
    order by t.id, i.vin`.execute(db);
  await db.schema.dropTable("utxo_inputs").execute();
  await db.schema.alterTable("utxo_inputs_next").renameTo("utxo_inputs").execute();
  await createIndexes(db, "utxo_inputs");
}

/** The form of migration 0032 (keys by txid as unique indexes), filled from the narrow rows. */
async function down(db: Kysely<unknown>): Promise<void> {
  // Each wide table's rows, read from the narrow ones (the transaction's columns by its id).
  const fill: Record<string, ReturnType<typeof sql>> = {
    utxo_outputs: sql`select t.txid, t.network, o.vout, o.address, o.value, o.occurred_at, t.block, t.position
      from utxo_outputs o join utxo_transactions t on t.id = o.tx order by t.id, o.vout`,
    utxo_inputs: sql`select t.txid, t.network, i.vin, i.prev_txid, i.prev_vout, i.address, i.value, i.coinbase, t.occurred_at
      from utxo_inputs i join utxo_transactions t on t.id = i.tx order by t.id, i.vin`,
    utxo_transactions: sql`select txid, network, block, block_hash, occurred_at, position, coinbase
      from utxo_transactions order by id`,
  };
  // The children first: they read the narrow transaction rows.
  const order = ["utxo_outputs", "utxo_inputs", "utxo_transactions"];
  for (const name of order) {
    const spec = UTXO_KEYED_TABLES.find((t) => t.name === name);
    const rows = fill[name];
    if (!spec || !rows) throw new Error(`migration 0101: no wide form of ${name}`);
    const next = `${name}_next`;
    let table = db.schema.createTable(next);
    for (const [column, type, notNull] of spec.columns)
      table = table.addColumn(column, type, (c) => (notNull ? c.notNull() : c));
    await table.execute();
    const columns = sql.join(spec.columns.map(([c]) => sql.id(c)));
    await sql`insert into ${sql.table(next)} (${columns}) ${rows}`.execute(db);
    await db.schema.dropTable(name).execute();
    await db.schema.alterTable(next).renameTo(name).execute();
    await db.schema
      .createIndex(`${name}_key`)
      .on(name)
      .columns([...spec.key])
      .unique()
      .execute();
    const [indexName, indexColumns] = spec.index;
    await db.schema
      .createIndex(indexName)
      .on(name)
      .columns([...indexColumns])
      .execute();
  }
}

/** Migration 0101. */
export const utxoNarrowMigration: Migration = { up, down };
