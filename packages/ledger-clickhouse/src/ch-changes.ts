/**
 * `ledgerChangesSince` on the change log of migration 6 (`ledger_changes`: per stored row, the
 * server's clock in seconds and its transaction), what a worker's hub cache follows.
 *
 * One statement reads the server's clock and, grouped by stamp and transaction, the rows the log
 * holds from `since` less the overlap on: (second, network, tx_hash, rows stamped). A pair a
 * mark's earlier answers gave with as many rows stamped is left out, so a quiet ledger's
 * catch-up reads no ledger rows, only the overlap's few pairs. A pair whose count grew (the rest
 * of a transaction stored in the same second by a later INSERT block, or a duplicate) is read
 * again. What a mark remembers is the pairs of its own answer's window: at most `limit` + 1 of
 * them, held in a WeakMap of this ledger's marks, so it goes with the mark.
 *
 * A follower that lagged past the change log's retention (ch-changes-upkeep.ts drops old days
 * and records how far, `ledger_changes_horizon`) is answered null rows, never rows with a gap:
 * when its window starts more than {@link HORIZON_CHECK_LAG_S} ago (the upkeep never drops
 * anything that recent), a second statement reads the horizon, after the log (the upkeep records
 * the horizon before it drops, so a drop the first statement saw is recorded by then).
 */
import type { LedgerChanges, LedgerChangesMark, LedgerTransfer } from "@openkyt/core";
import { MIN_CHANGES_RETENTION_DAYS } from "./ch-changes-upkeep.js";
import type { ChClient } from "./ch-client.js";
import { sqlInt, sqlString, sqlStringList } from "./ch-escape.js";
import { fromRow, type LedgerRow, SELECT_COLUMNS } from "./ch-ledger-row.js";

/** Most hashes per row read (query text under the server's 256 KiB max_query_size). */
const HASHES_PER_READ = 1_000;

/**
 * How far back a window may start before its answer checks the horizon, seconds: half the least
 * retention the upkeep accepts, so clock skew between shards and an upkeep running meanwhile
 * cannot have dropped anything inside it.
 */
export const HORIZON_CHECK_LAG_S = (MIN_CHANGES_RETENTION_DAYS * 86_400) / 2;

/** The change log's pairs of one answer: `second\0network\0tx_hash` to rows stamped. */
type Pairs = Map<string, number>;

/** What one ledger's marks remember (see the module comment). */
export type ChangeMemory = WeakMap<LedgerChangesMark, Pairs>;

/** What a read of the change log did, for tests and benchmarks. */
export interface ChangesReadStats {
  /** Pairs of (second, transaction) in the window. */
  readonly pairs: number;
  /** Transactions whose rows were read. */
  readonly fetched: number;
  /** Ledger rows read. */
  readonly rows: number;
}

/**
 * The rows stored since `since` (see the module comment); `memory` is the ledger's own, `onRead`
 * is told what each read did.
 */
export async function changesSince(
  client: ChClient,
  db: string,
  since: LedgerChangesMark | null,
  limit: number,
  overlapMs: number,
  memory: ChangeMemory,
  onRead?: (stats: ChangesReadStats) => void,
): Promise<LedgerChanges> {
  if (since === null) {
    const [clock] = await client.rows<{ at: number | string }>("SELECT toUInt64(now()) AS at");
    return answer(Number(clock?.at) * 1000, [], new Map(), memory);
  }
  const from = Math.floor((since.at - overlapMs) / 1000);
  const cap = limit + 1;
  const [log] = await client.rows<{
    at: number | string;
    s: ReadonlyArray<number | string>;
    net: ReadonlyArray<string>;
    tx: ReadonlyArray<string>;
    n: ReadonlyArray<number | string>;
  }>(
    `SELECT toUInt64(now()) AS at, groupArray(s) AS s, groupArray(network) AS net,
       groupArray(tx_hash) AS tx, groupArray(n) AS n
     FROM (SELECT toUInt32(stored_at) AS s, network, tx_hash, toUInt64(count()) AS n
       FROM ${db}.ledger_changes WHERE stored_at >= toDateTime(${sqlInt(from)})
       GROUP BY s, network, tx_hash LIMIT ${sqlInt(cap)})
     SETTINGS max_rows_to_group_by = ${sqlInt(cap)}, group_by_overflow_mode = 'any'`,
  );
  const at = Number(log?.at) * 1000;
  const seconds = log?.s ?? [];
  if (seconds.length > limit || (await droppedSince(client, db, from, at))) {
    return answer(at, null, new Map(), memory);
  }
  const given = memory.get(since);
  const pairs: Pairs = new Map();
  const wanted = new Map<string, Set<string>>();
  for (const [i, second] of seconds.entries()) {
    const network = log?.net[i] as string;
    const txHash = log?.tx[i] as string;
    const n = Number(log?.n[i]);
    const key = `${second}\u0000${network}\u0000${txHash}`;
    pairs.set(key, n);
    if (given?.get(key) === n) continue;
    const hashes = wanted.get(network);
    if (hashes) hashes.add(txHash);
    else wanted.set(network, new Set([txHash]));
  }
  const rows: LedgerTransfer[] = [];
  let fetched = 0;
  for (const [network, hashSet] of wanted) {
    const hashes = [...hashSet];
    fetched += hashes.length;
    for (let i = 0; i < hashes.length; i += HASHES_PER_READ) {
      const found = await client.rows<LedgerRow>(
        `SELECT ${SELECT_COLUMNS} FROM ${db}.ledger_tx
         WHERE network = ${sqlString(network)} AND tx_hash IN (${sqlStringList(hashes.slice(i, i + HASHES_PER_READ))})
         LIMIT 1 BY tx_hash, log_index`,
      );
      for (const r of found) rows.push(fromRow(r));
    }
  }
  onRead?.({ pairs: pairs.size, fetched, rows: rows.length });
  return answer(at, rows, pairs, memory);
}

/** An answer whose mark remembers `pairs`. */
function answer(
  at: number,
  rows: ReadonlyArray<LedgerTransfer> | null,
  pairs: Pairs,
  memory: ChangeMemory,
): LedgerChanges {
  const next: LedgerChangesMark = Object.freeze({ at });
  memory.set(next, pairs);
  return { at, rows, next };
}

/**
 * Whether the upkeep dropped changes stamped at or after second `from`: read only for a window
 * that starts more than {@link HORIZON_CHECK_LAG_S} before `at` (see the module comment).
 */
async function droppedSince(client: ChClient, db: string, from: number, at: number): Promise<boolean> {
  if (from >= at / 1000 - HORIZON_CHECK_LAG_S) return false;
  const [horizon] = await client.rows<{ h: number | string }>(
    `SELECT toUInt64(max(dropped_before)) AS h FROM ${db}.ledger_changes_horizon`,
  );
  return from < Number(horizon?.h ?? 0);
}
