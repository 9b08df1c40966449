/**
 * The ClickHouse ledger: the `LedgerStore` writes, the `LedgerReader` hops and a bulk load, on
 * the tables of ch-schema.ts.
 *
 * The hops are in ch-hop-read.ts and their counts in ch-hop-count.ts: both bounded by the edge
 * budget however many rows an address has (ch-hop-window.ts); what a count learns serves the
 * read after it (ch-hop-prefetch.ts).
 */
import type {
  IncomingQuery,
  LedgerBulkWriter,
  LedgerChanges,
  LedgerReader,
  LedgerStore,
  LedgerTransfer,
  OutgoingQuery,
} from "@openkyt/core";
import { DEFAULT_EDGE_BUDGET, KytError } from "@openkyt/core";
import { type ChClient, openChClient, type RetryPolicy } from "./ch-client.js";
import { sqlIdentifier, sqlInt, sqlString, sqlStringList } from "./ch-escape.js";
import { countHop } from "./ch-hop-count.js";
import { HopPrefetch } from "./ch-hop-prefetch.js";
import { hop } from "./ch-hop-read.js";
import { ingestLedgerRows, type LedgerIngestOptions } from "./ch-ingest.js";
import { firstByKey, fromRow, keyOf, type LedgerRow, SELECT_COLUMNS } from "./ch-ledger-row.js";
import { RowBinaryEncoder } from "./ch-row-binary.js";
import { LEDGER_COLUMNS } from "./ch-schema.js";
import type { ClickHouseTarget } from "./ch-target.js";
import { type ClickHouseUtxoLedger, clickHouseUtxoOps } from "./ch-utxo-ledger.js";

/** The ledger in ClickHouse. */
export interface ClickHouseLedger extends LedgerStore, LedgerReader, ClickHouseUtxoLedger {
  readonly target: ClickHouseTarget;
  /**
   * Inserts rows without asking which are stored already (the import and follow fast path):
   * duplicates are removed by reads and, later, by merges. One INSERT; returns rows sent.
   */
  appendLedgerTransfers(rows: ReadonlyArray<LedgerTransfer>): Promise<number>;
  /**
   * The same fast path for a stream of rows of any length (an import, a generated ledger):
   * RowBinary INSERTs of `rowsPerInsert` rows, encoded while earlier ones are stored (see
   * ch-ingest.ts). Returns rows sent once every INSERT is stored.
   */
  ingestLedgerRows(
    rows: Iterable<LedgerTransfer> | AsyncIterable<LedgerTransfer>,
    options?: LedgerIngestOptions,
  ): Promise<number>;
  /** A bulk load with the Store port's semantics (nothing visible before finish, new rows counted). */
  bulkLedgerWriter(): Promise<LedgerBulkWriter>;
  /**
   * The rows stored lately, as `Store.ledgerChangesSince` (what a worker's hub cache follows):
   * the transactions the change log of migration 6 stamped at or after `since` less
   * `changesOverlapMs`, by the server's clock, and their rows.
   */
  ledgerChangesSince(since: number | null, limit: number): Promise<LedgerChanges>;
  close(): Promise<void>;
}

/** Options of {@link openClickHouseLedger}. */
export interface ClickHouseLedgerOptions {
  readonly retry?: Partial<RetryPolicy>;
  /** Most frontier addresses per query (the query text stays under max_query_size); default 200. */
  readonly addressesPerQuery?: number;
  /**
   * An address with more rows than this (in one direction) is read with a top-n branch of its
   * own instead of inside the hop's `LIMIT n BY` sort; default 2,000.
   */
  readonly hotAddressRows?: number;
  /**
   * The hop counts stop at this (`ledgerIncomingCounts` answers at most it): a tracer skips a
   * hub whose count reaches the rows it may read, so this needs to be above its edge budget;
   * default the default edge budget + 1. Counting a hub costs about this many rows. 0: no
   * counts (the tracer then reads every address, hubs included, each read bounded as well).
   */
  readonly countCap?: number;
  /**
   * Whether a hop's counts fetch the rows of its small addresses and what they learn serves the
   * read that follows (ch-hop-prefetch.ts); default true. Without counts there is nothing to keep.
   */
  readonly prefetch?: boolean;
  /** Server settings sent with every request (for example a per-query max_memory_usage). */
  readonly settings?: Readonly<Record<string, string | number>>;
  /**
   * How far back from the last read's start `ledgerChangesSince` reads the change log, ms
   * (default 30,000): longer than a stored block may take, from its stamp, to be visible in
   * every table it fills (its views written one after the other), plus a second (the stamps
   * are whole seconds) and the clock skew between shards.
   */
  readonly changesOverlapMs?: number;
}

/** Most hashes per existence check (query text under the server's 256 KiB max_query_size). */
const HASHES_PER_CHECK = 1_000;

/** Default of {@link ClickHouseLedgerOptions.changesOverlapMs}. */
export const CHANGES_OVERLAP_MS = 30_000;

/** Opens the ledger on migrated tables (see migrateClickHouseLedger). */
export function openClickHouseLedger(
  target: ClickHouseTarget,
  options: ClickHouseLedgerOptions = {},
): ClickHouseLedger {
  const db = sqlIdentifier(target.database);
  const client = openChClient(target, {
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
  });
  const perQuery = options.addressesPerQuery ?? 200;
  const hotRows = options.hotAddressRows ?? 2_000;
  const countCap = options.countCap ?? DEFAULT_EDGE_BUDGET + 1;
  const prefetch = countCap > 0 && options.prefetch !== false ? new HopPrefetch() : null;
  const overlapMs = options.changesOverlapMs ?? CHANGES_OVERLAP_MS;
  // Puts of one process run one at a time, so each counts new rows against the ones before it.
  let putChain: Promise<unknown> = Promise.resolve();

  const put = async (rows: ReadonlyArray<LedgerTransfer>): Promise<number> => {
    const unique = firstByKey(rows);
    if (unique.length === 0) return 0;
    const stored = await storedKeys(client, db, unique);
    const fresh = unique.filter((r) => !stored.has(keyOf(r)));
    await appendRows(fresh);
    return fresh.length;
  };
  // One INSERT of RowBinary (the format the server parses cheapest), retried as a whole.
  const appendRows = async (rows: ReadonlyArray<LedgerTransfer>): Promise<void> => {
    if (rows.length === 0) return;
    const encoder = new RowBinaryEncoder();
    const body: Buffer[] = [];
    for (const row of rows) {
      const chunk = encoder.push(row);
      if (chunk) body.push(chunk);
    }
    body.push(encoder.flush());
    await client.insertBody(`${db}.ledger_tx`, LEDGER_COLUMNS, "RowBinary", body);
  };

  return {
    target,
    // The UTXO ledger (Bitcoin, Litecoin) on its own tables: ch-utxo-ledger.ts.
    ...clickHouseUtxoOps(client, db),
    putLedgerTransfers(rows) {
      const run = putChain.then(() => put(rows));
      putChain = run.catch(() => undefined);
      return run;
    },
    async appendLedgerTransfers(rows) {
      await appendRows(rows);
      return rows.length;
    },
    ingestLedgerRows: (rows, ingestOptions) =>
      ingestLedgerRows(client, `${db}.ledger_tx`, rows, ingestOptions),
    async ledgerByTxHash(network, txHash) {
      const rows = await client.rows<LedgerRow>(
        `SELECT ${SELECT_COLUMNS} FROM ${db}.ledger_tx
         WHERE network = ${sqlString(network)} AND tx_hash = ${sqlString(txHash)}
         ORDER BY log_index LIMIT 1 BY log_index`,
      );
      return rows.map(fromRow);
    },
    ledgerIncoming: (network, tokenId, queries, limit) =>
      hop(client, db, "in", network, tokenId, queries, limit, perQuery, hotRows, prefetch),
    ledgerOutgoing: (network, tokenId, queries, limit) =>
      hop(client, db, "out", network, tokenId, queries, limit, perQuery, hotRows, prefetch),
    ...(countCap > 0
      ? {
          ledgerIncomingCounts: (network: string, tokenId: string, queries: ReadonlyArray<IncomingQuery>) =>
            countHop(client, db, "in", network, tokenId, queries, countCap, perQuery, hotRows, prefetch),
          ledgerOutgoingCounts: (network: string, tokenId: string, queries: ReadonlyArray<OutgoingQuery>) =>
            countHop(client, db, "out", network, tokenId, queries, countCap, perQuery, hotRows, prefetch),
        }
      : {}),
    bulkLedgerWriter: () => openBulkLoad(client, db),
    ledgerChangesSince: (since, limit) => changesSince(client, db, since, limit, overlapMs),
    close: () => client.close(),
  };
}

/**
 * The rows of the transactions stamped in the change log from `since` less `overlapMs` on (each
 * row once), or null rows past `limit` transactions; `at`: the server's clock first (whole
 * seconds, in ms). A stamp is taken as the server pushes a block to its views, after the rows
 * are in `ledger_tx`; the overlap covers the rest (see `changesOverlapMs`).
 */
async function changesSince(
  client: ChClient,
  db: string,
  since: number | null,
  limit: number,
  overlapMs: number,
): Promise<LedgerChanges> {
  const [clock] = await client.rows<{ at: number | string }>("SELECT toUInt64(now()) AS at");
  const at = Number(clock?.at) * 1000;
  if (since === null) return { at, rows: [] };
  const from = Math.floor((since - overlapMs) / 1000);
  const changed = await client.rows<{ network: string; tx_hash: string }>(
    `SELECT DISTINCT network, tx_hash FROM ${db}.ledger_changes
     WHERE stored_at >= toDateTime(${sqlInt(from)}) LIMIT ${sqlInt(limit + 1)}`,
  );
  if (changed.length > limit) return { at, rows: null };
  const byNetwork = new Map<string, string[]>();
  for (const c of changed) {
    const hashes = byNetwork.get(c.network);
    if (hashes) hashes.push(c.tx_hash);
    else byNetwork.set(c.network, [c.tx_hash]);
  }
  const rows: LedgerTransfer[] = [];
  for (const [network, hashes] of byNetwork) {
    for (let i = 0; i < hashes.length; i += HASHES_PER_CHECK) {
      const found = await client.rows<LedgerRow>(
        `SELECT ${SELECT_COLUMNS} FROM ${db}.ledger_tx
         WHERE network = ${sqlString(network)} AND tx_hash IN (${sqlStringList(hashes.slice(i, i + HASHES_PER_CHECK))})
         LIMIT 1 BY tx_hash, log_index`,
      );
      for (const r of found) rows.push(fromRow(r));
    }
  }
  return { at, rows };
}
/** The keys of `rows` already in the ledger. */
async function storedKeys(
  client: ChClient,
  db: string,
  rows: ReadonlyArray<LedgerTransfer>,
): Promise<Set<string>> {
  const byNetwork = new Map<string, Set<string>>();
  for (const row of rows) {
    const hashes = byNetwork.get(row.network) ?? new Set<string>();
    hashes.add(row.txHash);
    byNetwork.set(row.network, hashes);
  }
  const stored = new Set<string>();
  for (const [network, hashSet] of byNetwork) {
    const hashes = [...hashSet];
    for (let i = 0; i < hashes.length; i += HASHES_PER_CHECK) {
      const found = await client.rows<{ tx_hash: string; log_index: number }>(
        `SELECT DISTINCT tx_hash, log_index FROM ${db}.ledger_tx
         WHERE network = ${sqlString(network)} AND tx_hash IN (${sqlStringList(hashes.slice(i, i + HASHES_PER_CHECK))})`,
      );
      for (const r of found) stored.add(keyOf({ network, txHash: r.tx_hash, logIndex: Number(r.log_index) }));
    }
  }
  return stored;
}
/**
 * A bulk load: rows go to a staging table of their own (numbered in write order); `finish()`
 * moves the first row of each key not stored yet into the ledger in one INSERT ... SELECT and
 * drops the staging table, `abort()` drops it. Readers see nothing of the load before finish.
 */
async function openBulkLoad(client: ChClient, db: string): Promise<LedgerBulkWriter> {
  const stage = `${db}.ledger_load_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 10)}`;
  await client.command(
    `CREATE TABLE ${stage} (seq UInt64, ${LEDGER_COLUMNS.map((c) => `${c} ${columnType(c)}`).join(", ")})
     ENGINE = MergeTree() ORDER BY (network, tx_hash, log_index, seq)`,
  );
  let seq = 0;
  let state: "open" | "spent" = "open";
  const spent = () => new KytError("VALIDATION_ERROR", "this bulk ledger load has ended (finish or abort)");
  const fresh = `FROM ${stage}
    WHERE (network, tx_hash, log_index) GLOBAL NOT IN
      (SELECT network, tx_hash, log_index FROM ${db}.ledger_tx WHERE tx_hash GLOBAL IN (SELECT tx_hash FROM ${stage}))`;
  return {
    async write(rows) {
      if (state !== "open") throw spent();
      const encoder = new RowBinaryEncoder();
      const body: Buffer[] = [];
      for (const row of rows) {
        const chunk = encoder.push(row, seq);
        seq += 1;
        if (chunk) body.push(chunk);
      }
      body.push(encoder.flush());
      if (rows.length > 0) await client.insertBody(stage, [...LEDGER_COLUMNS, "seq"], "RowBinary", body);
    },
    async finish() {
      if (state !== "open") throw spent();
      state = "spent";
      try {
        const [counted] = await client.rows<{ n: number }>(
          `SELECT count() AS n FROM (SELECT network, tx_hash, log_index ${fresh} GROUP BY network, tx_hash, log_index)`,
        );
        await client.command(
          `INSERT INTO ${db}.ledger_tx (${LEDGER_COLUMNS.join(", ")})
           SELECT ${LEDGER_COLUMNS.join(", ")} ${fresh}
           ORDER BY network, tx_hash, log_index, seq LIMIT 1 BY network, tx_hash, log_index`,
        );
        return Number(counted?.n ?? 0);
      } finally {
        await client.command(`DROP TABLE IF EXISTS ${stage}`);
      }
    },
    async abort() {
      if (state === "spent") return;
      state = "spent";
      await client.command(`DROP TABLE IF EXISTS ${stage}`);
    },
  };
}

function columnType(column: (typeof LEDGER_COLUMNS)[number]): string {
  switch (column) {
    case "log_index":
      return "Int32";
    case "amount":
      return "String";
    case "occurred_at":
      return "Int64";
    case "block_number":
      return "Nullable(Int64)";
    case "value_usd":
      return "Nullable(String)";
    default:
      return "String";
  }
}
