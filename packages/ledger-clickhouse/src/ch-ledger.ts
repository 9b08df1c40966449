/**
 * The ClickHouse ledger: the `LedgerStore` writes, the `LedgerReader` hops and a bulk load, on
 * the tables of ch-schema.ts.
 *
 * Reads are correct while parts are unmerged: a hop asks, per frontier address, for the first
 * `limit` rows in hop order (`ORDER BY ... LIMIT n`, one branch per address in one UNION ALL
 * query), removes duplicates by key, and asks again with a larger limit only for an address
 * whose answer was cut short by duplicates. Each branch is a top-n: the server keeps `n` rows
 * per address however many the address has, so an address with millions of transfers costs a
 * scan of its key range, bounded in memory by the edge budget.
 */
import type {
  IncomingQuery,
  LedgerBulkWriter,
  LedgerReader,
  LedgerStore,
  LedgerTransfer,
  OutgoingQuery,
} from "@openkyt/core";
import { KytError } from "@openkyt/core";
import { type ChClient, openChClient, type RetryPolicy } from "./ch-client.js";
import { sqlIdentifier, sqlInt, sqlString, sqlStringList } from "./ch-escape.js";
import { LEDGER_COLUMNS } from "./ch-schema.js";
import type { ClickHouseTarget } from "./ch-target.js";

/** A ledger row as ClickHouse returns it (JSONEachRow, 64-bit integers unquoted). */
type LedgerRow = {
  network: string;
  tx_hash: string;
  log_index: number;
  token_id: string;
  from_address: string;
  to_address: string;
  amount: number;
  occurred_at: number;
  block_number: number | null;
  value_usd: number | null;
};

/** The ledger in ClickHouse. */
export interface ClickHouseLedger extends LedgerStore, LedgerReader {
  readonly target: ClickHouseTarget;
  /**
   * Inserts rows without asking which are stored already (the import and follow fast path):
   * duplicates are removed by reads and, later, by merges. One INSERT; returns rows sent.
   */
  appendLedgerTransfers(rows: ReadonlyArray<LedgerTransfer>): Promise<number>;
  /** A bulk load with the Store port's semantics (nothing visible before finish, new rows counted). */
  bulkLedgerWriter(): Promise<LedgerBulkWriter>;
  close(): Promise<void>;
}

/** Options of {@link openClickHouseLedger}. */
export interface ClickHouseLedgerOptions {
  readonly retry?: Partial<RetryPolicy>;
  /** Most frontier addresses per query (the query text stays under max_query_size); default 200. */
  readonly addressesPerQuery?: number;
  /** Server settings sent with every request (for example a per-query max_memory_usage). */
  readonly settings?: Readonly<Record<string, string | number>>;
}

/** Most hashes per existence check (query text under the server's 256 KiB max_query_size). */
const HASHES_PER_CHECK = 1_000;

const SELECT_COLUMNS = LEDGER_COLUMNS.join(", ");

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
  // Puts of one process run one at a time, so each counts new rows against the ones before it.
  let putChain: Promise<unknown> = Promise.resolve();

  const put = async (rows: ReadonlyArray<LedgerTransfer>): Promise<number> => {
    const unique = firstByKey(rows);
    if (unique.length === 0) return 0;
    const stored = await storedKeys(client, db, unique);
    const fresh = unique.filter((r) => !stored.has(keyOf(r)));
    await client.insert(`${db}.ledger_tx`, fresh.map(toRow));
    return fresh.length;
  };

  return {
    target,
    putLedgerTransfers(rows) {
      const run = putChain.then(() => put(rows));
      putChain = run.catch(() => undefined);
      return run;
    },
    async appendLedgerTransfers(rows) {
      await client.insert(`${db}.ledger_tx`, rows.map(toRow));
      return rows.length;
    },
    async ledgerByTxHash(network, txHash) {
      const rows = await client.rows<LedgerRow>(
        `SELECT ${SELECT_COLUMNS} FROM ${db}.ledger_tx
         WHERE network = ${sqlString(network)} AND tx_hash = ${sqlString(txHash)}
         ORDER BY log_index LIMIT 1 BY log_index`,
      );
      return rows.map(fromRow);
    },
    ledgerIncoming: (network, tokenId, queries, limit) =>
      hop(client, db, "in", network, tokenId, queries, limit, perQuery),
    ledgerOutgoing: (network, tokenId, queries, limit) =>
      hop(client, db, "out", network, tokenId, queries, limit, perQuery),
    bulkLedgerWriter: () => openBulkLoad(client, db),
    close: () => client.close(),
  };
}

/** The key of a ledger row. */
function keyOf(r: Pick<LedgerTransfer, "network" | "txHash" | "logIndex">): string {
  return `${r.network}\u0000${r.txHash}\u0000${r.logIndex}`;
}

/** The first row of each key, in order. */
function firstByKey(rows: ReadonlyArray<LedgerTransfer>): LedgerTransfer[] {
  const seen = new Set<string>();
  const out: LedgerTransfer[] = [];
  for (const row of rows) {
    const key = keyOf(row);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(row);
  }
  return out;
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

type Direction = "in" | "out";

/** One hop: every frontier address's first `limit` rows in hop order, duplicates removed. */
async function hop(
  client: ChClient,
  db: string,
  direction: Direction,
  network: string,
  tokenId: string,
  queries: ReadonlyArray<IncomingQuery | OutgoingQuery>,
  limit: number,
  perQuery: number,
): Promise<ReadonlyArray<LedgerTransfer>> {
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new KytError("VALIDATION_ERROR", `limitPerAddress: expected a non-negative integer, got ${limit}`);
  }
  if (limit === 0 || queries.length === 0) return [];
  // One bound per address: the widest (a caller may list an address twice).
  const bounds = new Map<string, number>();
  for (const q of queries) {
    const bound = "before" in q ? q.before : q.after;
    const previous = bounds.get(q.address);
    const widest =
      previous === undefined
        ? bound
        : direction === "in"
          ? Math.max(previous, bound)
          : Math.min(previous, bound);
    bounds.set(q.address, widest);
  }
  const result: LedgerTransfer[] = [];
  let pending = [...bounds.keys()];
  let fetch = limit;
  while (pending.length > 0) {
    const short: string[] = [];
    for (let i = 0; i < pending.length; i += perQuery) {
      const addresses = pending.slice(i, i + perQuery);
      const rows = await client.rows<LedgerRow>(
        addresses
          .map((a) => hopBranch(db, direction, network, tokenId, a, bounds.get(a) ?? 0, fetch))
          .join("\nUNION ALL\n"),
      );
      const grouped = new Map<string, LedgerRow[]>();
      for (const row of rows) {
        const address = direction === "in" ? row.to_address : row.from_address;
        const list = grouped.get(address) ?? [];
        list.push(row);
        grouped.set(address, list);
      }
      for (const address of addresses) {
        const raw = grouped.get(address) ?? [];
        const unique = sortHop(firstByKey(raw.map(fromRow)), direction);
        if (raw.length >= fetch && unique.length < limit) short.push(address);
        else result.push(...unique.slice(0, limit));
      }
    }
    pending = short;
    fetch *= 4;
  }
  return result;
}

/** The branch of a hop query for one address: a top-`fetch` in hop order. */
function hopBranch(
  db: string,
  direction: Direction,
  network: string,
  tokenId: string,
  address: string,
  bound: number,
  fetch: number,
): string {
  const [table, column, op, order] =
    direction === "in"
      ? ["ledger_in", "to_address", "<", "DESC"]
      : ["ledger_out", "from_address", ">", "ASC"];
  return `SELECT * FROM (SELECT ${SELECT_COLUMNS} FROM ${db}.${table}
    WHERE network = ${sqlString(network)} AND token_id = ${sqlString(tokenId)}
      AND ${column} = ${sqlString(address)} AND occurred_at ${op} ${sqlInt(bound)}
    ORDER BY occurred_at ${order}, tx_hash ${order}, log_index ${order} LIMIT ${sqlInt(fetch)})`;
}

/** Hop order: incoming latest first, outgoing earliest first (ties by tx hash, then log index). */
function sortHop(rows: LedgerTransfer[], direction: Direction): LedgerTransfer[] {
  const sign = direction === "in" ? -1 : 1;
  return rows.sort(
    (a, b) =>
      sign *
      (a.occurredAt - b.occurredAt ||
        (a.txHash < b.txHash ? -1 : a.txHash > b.txHash ? 1 : 0) ||
        a.logIndex - b.logIndex),
  );
}

/** A ledger transfer as an inserted row. */
function toRow(r: LedgerTransfer): LedgerRow {
  return {
    network: r.network,
    tx_hash: r.txHash,
    log_index: r.logIndex,
    token_id: r.tokenId,
    from_address: r.from,
    to_address: r.to,
    amount: r.amount,
    occurred_at: r.occurredAt,
    block_number: r.block,
    value_usd: r.valueUsd,
  };
}

/** A returned row as a ledger transfer. */
function fromRow(r: LedgerRow): LedgerTransfer {
  return {
    network: r.network,
    txHash: r.tx_hash,
    logIndex: Number(r.log_index),
    tokenId: r.token_id,
    from: r.from_address,
    to: r.to_address,
    amount: Number(r.amount),
    occurredAt: Number(r.occurred_at),
    block: r.block_number === null ? null : Number(r.block_number),
    valueUsd: r.value_usd === null ? null : Number(r.value_usd),
  };
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
      const start = seq;
      seq += rows.length;
      await client.insert(
        stage,
        rows.map((r, i) => ({ seq: start + i, ...toRow(r) })),
      );
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
      return "Float64";
    case "occurred_at":
      return "Int64";
    case "block_number":
      return "Nullable(Int64)";
    case "value_usd":
      return "Nullable(Float64)";
    default:
      return "String";
  }
}
