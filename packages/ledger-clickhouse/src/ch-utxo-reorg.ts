/**
 * How a reorg's delete works on the ClickHouse UTXO ledger: a tombstone, not a mutation.
 *
 * ClickHouse deletes rows only by mutations (`ALTER TABLE ... DELETE`), which 18.16 runs in the
 * background: reads right after the statement still see the rows, for as long as the parts
 * take to rewrite. A follower that undoes blocks and then reads (or writes the new branch) must
 * not. So a delete inserts a tombstone `(network, height, seq)` into `utxo_reorg` (one small
 * INSERT, visible to the next read), and every read masks the rows it covers: a row of that
 * network at or above `height` whose `seq` (the write that stored it) is below the tombstone's.
 * Rows written after the tombstone (the replacing branch, the same txid again) have a larger
 * `seq` and read as live. Rows without a block (unconfirmed) are never covered, as on SQL.
 *
 * The mutation still runs afterwards, in the background, to free the space; reads do not wait
 * for it and do not depend on it.
 *
 * Tombstones only pile up with reorgs (a handful a month on Bitcoin); a read loads those of its
 * network and keeps the ones not covered by a later, lower one (the staircase), so the mask is a
 * few terms.
 */
import { sqlInt, sqlString } from "./ch-escape.js";

/** One reorg: rows at or above `height` written before `seq` are deleted. */
export interface Tombstone {
  readonly height: number;
  readonly seq: number;
}

/**
 * The tombstones that matter: a tombstone is covered by a later one (larger seq) at the same
 * height or lower, which deletes everything it deletes. Returned latest first.
 */
export function staircase(tombstones: ReadonlyArray<Tombstone>): Tombstone[] {
  const bySeq = [...tombstones].sort((a, b) => b.seq - a.seq);
  const kept: Tombstone[] = [];
  let lowest = Number.POSITIVE_INFINITY;
  for (const t of bySeq) {
    if (t.height < lowest) {
      kept.push(t);
      lowest = t.height;
    }
  }
  return kept;
}

/** True when a row of block `block` written by `seq` is deleted by one of `tombstones`. */
export function isMasked(tombstones: ReadonlyArray<Tombstone>, block: number | null, seq: number): boolean {
  if (block === null) return false;
  return tombstones.some((t) => block >= t.height && seq < t.seq);
}

/**
 * The SQL condition keeping the live rows of a table with `block` and `seq` columns (`alias.`
 * prefixed when given): `1` when there is no tombstone.
 */
export function liveCondition(tombstones: ReadonlyArray<Tombstone>, alias = ""): string {
  if (tombstones.length === 0) return "1";
  const p = alias === "" ? "" : `${alias}.`;
  const dead = tombstones
    .map((t) => `(ifNull(${p}block, -1) >= ${sqlInt(t.height)} AND ${p}seq < ${sqlInt(t.seq)})`)
    .join(" OR ");
  return `NOT (${dead})`;
}

/** The query of a network's tombstones. */
export function tombstonesQuery(db: string, network: string): string {
  return `SELECT height, seq FROM ${db}.utxo_reorg WHERE network = ${sqlString(network)}`;
}
