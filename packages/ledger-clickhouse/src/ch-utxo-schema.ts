/**
 * The UTXO ledger's tables (Bitcoin, Litecoin) and their migrations, beside the account ledger's
 * (ch-schema.ts). Every row carries `seq`, the write that stored it (microseconds, increasing),
 * and the block height, so that a reorg's delete is a tombstone, not a mutation (see
 * ch-utxo-reorg.ts).
 *
 * - `utxo_tx`: one row per transaction, ReplacingMergeTree(seq) ordered by (network, txid): the
 *   transactions of a hop, and the existence check of a write. Written last in a write, so a
 *   transaction whose header is stored is stored whole.
 * - `utxo_out`: one row per output, ordered by (network, txid, vout): the transaction that
 *   created an outpoint and a transaction's outputs.
 * - `utxo_in`: one row per input, ordered by (network, txid, vin): a transaction's inputs.
 * - `utxo_spend`: the non-coinbase inputs again, ordered by (network, prev_txid, prev_vout): the
 *   input that spent an outpoint. Filled from `utxo_in` by a materialized view.
 * - `utxo_addr_out`: the outputs paying an address, ordered by (network, address, occurred_at):
 *   an address's received outputs. Filled from `utxo_out` by a materialized view.
 * - `utxo_addr_in`: the inputs spending an address's coins, ordered by (network, address,
 *   occurred_at of the spend): an address's coins as they left it. Filled from `utxo_in`.
 * - `utxo_reorg`: the tombstones of reorgs, (network, height, seq): every row of that network at
 *   or above `height` written before `seq` reads as deleted.
 *
 * Sorting keys cannot hold Nullable columns, so a null address is stored as `''` (no address in
 * normal form is empty) and a null `prev_vout` (coinbase input) as -1. Values are Int64 satoshis
 * (the whole supply, 2.1e15, is far inside). Duplicates of a key (a retried write) are removed
 * by reads and, later, by merges: reads are right while parts are unmerged.
 */
import { sqlIdentifier } from "./ch-escape.js";
import type { LedgerMigration } from "./ch-schema.js";

/** Columns of `utxo_tx`, in table order. */
export const UTXO_TX_COLUMNS = [
  "network",
  "txid",
  "block",
  "block_hash",
  "occurred_at",
  "position",
  "coinbase",
  "seq",
] as const;

/** Columns of `utxo_out` (and `utxo_addr_out`), in table order. */
export const UTXO_OUT_COLUMNS = [
  "network",
  "txid",
  "vout",
  "address",
  "value",
  "occurred_at",
  "block",
  "position",
  "seq",
] as const;

/** Columns of `utxo_in` (and `utxo_spend`, `utxo_addr_in`), in table order. */
export const UTXO_IN_COLUMNS = [
  "network",
  "txid",
  "vin",
  "prev_txid",
  "prev_vout",
  "address",
  "value",
  "coinbase",
  "occurred_at",
  "block",
  "seq",
] as const;

const TX_TYPES = `(
  network String,
  txid String,
  block Nullable(Int64),
  block_hash Nullable(String),
  occurred_at Int64,
  position Int64,
  coinbase UInt8,
  seq UInt64
)`;

const OUT_TYPES = `(
  network String,
  txid String,
  vout Int64,
  address String,
  value Int64,
  occurred_at Int64,
  block Nullable(Int64),
  position Int64,
  seq UInt64
)`;

const IN_TYPES = `(
  network String,
  txid String,
  vin Int64,
  prev_txid String,
  prev_vout Int64,
  address String,
  value Int64,
  coinbase UInt8,
  occurred_at Int64,
  block Nullable(Int64),
  seq UInt64
)`;

const REORG_TYPES = "(network String, height Int64, seq UInt64)";

/**
 * The UTXO migrations, numbered apart from the account ledger's (from 101) so that the two
 * lists grow without taking each other's numbers.
 */
export const UTXO_MIGRATIONS: ReadonlyArray<LedgerMigration> = [
  {
    version: 101,
    name: "utxo tables: transactions, outputs, inputs, spends, by address, reorg tombstones",
    statements: (db, local) => {
      const t = (name: string) => `${db}.${name}${local}`;
      const outs = UTXO_OUT_COLUMNS.join(", ");
      const ins = UTXO_IN_COLUMNS.join(", ");
      return [
        `CREATE TABLE IF NOT EXISTS ${t("utxo_tx")} ${TX_TYPES}
         ENGINE = ReplacingMergeTree(seq) ORDER BY (network, txid)`,
        `CREATE TABLE IF NOT EXISTS ${t("utxo_out")} ${OUT_TYPES}
         ENGINE = ReplacingMergeTree(seq) ORDER BY (network, txid, vout)`,
        `CREATE TABLE IF NOT EXISTS ${t("utxo_in")} ${IN_TYPES}
         ENGINE = ReplacingMergeTree(seq) ORDER BY (network, txid, vin)`,
        `CREATE TABLE IF NOT EXISTS ${t("utxo_spend")} ${IN_TYPES}
         ENGINE = ReplacingMergeTree(seq) ORDER BY (network, prev_txid, prev_vout, txid, vin)`,
        `CREATE TABLE IF NOT EXISTS ${t("utxo_addr_out")} ${OUT_TYPES}
         ENGINE = ReplacingMergeTree(seq) ORDER BY (network, address, occurred_at, txid, vout)`,
        `CREATE TABLE IF NOT EXISTS ${t("utxo_addr_in")} ${IN_TYPES}
         ENGINE = ReplacingMergeTree(seq) ORDER BY (network, address, occurred_at, txid, vin)`,
        `CREATE TABLE IF NOT EXISTS ${t("utxo_reorg")} ${REORG_TYPES}
         ENGINE = MergeTree() ORDER BY (network, seq)`,
        `CREATE MATERIALIZED VIEW IF NOT EXISTS ${t("utxo_spend_mv")} TO ${t("utxo_spend")}
         AS SELECT ${ins} FROM ${t("utxo_in")} WHERE coinbase = 0`,
        `CREATE MATERIALIZED VIEW IF NOT EXISTS ${t("utxo_addr_in_mv")} TO ${t("utxo_addr_in")}
         AS SELECT ${ins} FROM ${t("utxo_in")} WHERE coinbase = 0 AND address != ''`,
        `CREATE MATERIALIZED VIEW IF NOT EXISTS ${t("utxo_addr_out_mv")} TO ${t("utxo_addr_out")}
         AS SELECT ${outs} FROM ${t("utxo_out")} WHERE address != ''`,
      ];
    },
  },
];

/** The UTXO tables a reorg's cleanup mutates (every table holding rows of transactions). */
export const UTXO_ROW_TABLES = [
  "utxo_tx",
  "utxo_out",
  "utxo_in",
  "utxo_spend",
  "utxo_addr_out",
  "utxo_addr_in",
] as const;

/** The statements creating the UTXO Distributed tables of `db` over cluster `cluster`. */
export function utxoDistributedStatements(db: string, cluster: string): ReadonlyArray<string> {
  const d = sqlIdentifier(db);
  const c = sqlIdentifier(cluster);
  const table = (name: string, types: string, shardBy: string) =>
    `CREATE TABLE IF NOT EXISTS ${d}.${name} ${types}
     ENGINE = Distributed(${c}, ${d}, ${name}_local, ${shardBy})`;
  // A transaction's rows go to one shard (by txid); reads go to every shard.
  return [
    table("utxo_tx", TX_TYPES, "cityHash64(network, txid)"),
    table("utxo_out", OUT_TYPES, "cityHash64(network, txid)"),
    table("utxo_in", IN_TYPES, "cityHash64(network, txid)"),
    table("utxo_spend", IN_TYPES, "cityHash64(network, txid)"),
    table("utxo_addr_out", OUT_TYPES, "cityHash64(network, txid)"),
    table("utxo_addr_in", IN_TYPES, "cityHash64(network, txid)"),
    table("utxo_reorg", REORG_TYPES, "cityHash64(network)"),
  ];
}
