/**
 * The ClickHouse ledger: the `LedgerStore` writes, the `LedgerReader` hops and a bulk load, on
 * the tables of ch-schema.ts.
 *
 * Reads are correct while parts are unmerged: a hop asks for each frontier address's first
 * `limit` rows in hop order (one query, `LIMIT n BY address`), removes duplicates by key, and
 * asks again with a larger limit only for an address whose answer was cut short by duplicates.
 * Hot addresses (more rows than `hotAddressRows`) are read with a top-n of their own, so an
 * address with millions of transfers costs a scan of its key range, with memory bounded by the
 * edge budget (see `hop`).
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
import { ingestLedgerRows, type LedgerIngestOptions } from "./ch-ingest.js";
import { RowBinaryEncoder } from "./ch-row-binary.js";
import { LEDGER_COLUMNS } from "./ch-schema.js";
import type { ClickHouseTarget } from "./ch-target.js";
import { type ClickHouseUtxoLedger, clickHouseUtxoOps } from "./ch-utxo-ledger.js";

/** A ledger row as ClickHouse returns it (JSONEachRow, 64-bit integers unquoted); rows go in as RowBinary. */
type LedgerRow = {
  network: string;
  tx_hash: string;
  log_index: number;
  token_id: string;
  from_address: string;
  to_address: string;
  amount: string;
  occurred_at: number;
  block_number: number | null;
  value_usd: string | null;
};

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
  const hotRows = options.hotAddressRows ?? 2_000;
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
      hop(client, db, "in", network, tokenId, queries, limit, perQuery, hotRows),
    ledgerOutgoing: (network, tokenId, queries, limit) =>
      hop(client, db, "out", network, tokenId, queries, limit, perQuery, hotRows),
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

/** What a hop query returns: ledger rows (`hot` 0), and the frontier's hot addresses (`hot` 1, only `to`/`from` set). */
type HopRow = LedgerRow & { hot: number };

/** The SQL of one direction. */
const DIRECTION = {
  in: {
    table: "ledger_hop_in",
    degree: "ledger_hop_in_degree",
    column: "to_address",
    op: "<",
    order: "DESC",
  },
  out: {
    table: "ledger_hop_out",
    degree: "ledger_hop_out_degree",
    column: "from_address",
    op: ">",
    order: "ASC",
  },
} as const;

/**
 * The hop key of an address as SQL: the same `cityHash64(network, token_id, address)` the
 * materialized views store (ch-schema.ts migration 3), computed by the server from literals.
 */
function hopKey(network: string, tokenId: string, address: string): string {
  return `cityHash64(${sqlString(network)}, ${sqlString(tokenId)}, ${sqlString(address)})`;
}

/**
 * One hop: every frontier address's first `limit` rows in hop order, duplicates removed.
 *
 * One query per hop (per `perQuery` addresses): a `LIMIT n BY address` over every frontier
 * address whose row count (the degree table) is at most `hotRows`, plus the list of the others.
 * The sort of that query holds at most `hotRows` rows per address. A hot address (an exchange's
 * deposit address with millions of rows) then gets a top-n branch of its own, where the server
 * keeps `n` rows however many it scans: memory bounded by the edge budget, not by the address.
 */
async function hop(
  client: ChClient,
  db: string,
  direction: Direction,
  network: string,
  tokenId: string,
  queries: ReadonlyArray<IncomingQuery | OutgoingQuery>,
  limit: number,
  perQuery: number,
  hotRows: number,
): Promise<ReadonlyArray<LedgerTransfer>> {
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new KytError("VALIDATION_ERROR", `limitPerAddress: expected a non-negative integer, got ${limit}`);
  }
  if (limit === 0 || queries.length === 0) return [];
  // One bound per address: the widest (a caller may list an address twice).
  const bounds = new Map<string, number>();
  for (const q of queries) {
    const bound = "before" in q ? q.before : q.after;
    sqlInt(bound);
    const previous = bounds.get(q.address);
    const widest =
      previous === undefined
        ? bound
        : direction === "in"
          ? Math.max(previous, bound)
          : Math.min(previous, bound);
    bounds.set(q.address, widest);
  }
  // Answers per address, given back in frontier order (as the SQL stores do).
  const answers = new Map<string, LedgerTransfer[]>();
  const addresses = [...bounds.keys()];
  for (let i = 0; i < addresses.length; i += perQuery) {
    const chunk = addresses.slice(i, i + perQuery);
    const rows = await client.rows<HopRow>(
      hopQuery(db, direction, network, tokenId, chunk, bounds, limit, hotRows),
    );
    const hot = new Set<string>();
    const grouped = groupByAddress(
      rows.filter((row) => {
        if (Number(row.hot) === 1) hot.add(addressOf(row, direction));
        return Number(row.hot) === 0;
      }),
      direction,
    );
    let short: string[] = [...hot];
    for (const address of chunk) {
      if (hot.has(address)) continue;
      const raw = grouped.get(address) ?? [];
      const unique = sortHop(firstByKey(raw.map(fromRow)), direction);
      if (raw.length >= limit && unique.length < limit) short.push(address);
      else answers.set(address, unique.slice(0, limit));
    }
    // Hot addresses, and addresses whose first `limit` rows held duplicates: top-n branches.
    let fetch = limit;
    while (short.length > 0) {
      const again: string[] = [];
      for (let j = 0; j < short.length; j += perQuery) {
        const part = short.slice(j, j + perQuery);
        const found = groupByAddress(
          await client.rows<LedgerRow>(
            part
              .map((a) => topBranch(db, direction, network, tokenId, a, bounds.get(a) ?? 0, fetch))
              .join("\nUNION ALL\n"),
          ),
          direction,
        );
        for (const address of part) {
          const raw = found.get(address) ?? [];
          const unique = sortHop(firstByKey(raw.map(fromRow)), direction);
          if (raw.length >= fetch && unique.length < limit) again.push(address);
          else answers.set(address, unique.slice(0, limit));
        }
      }
      short = again;
      fetch *= 4;
    }
  }
  return addresses.flatMap((address) => answers.get(address) ?? []);
}

function addressOf(row: LedgerRow, direction: Direction): string {
  return direction === "in" ? row.to_address : row.from_address;
}

function groupByAddress(rows: ReadonlyArray<LedgerRow>, direction: Direction): Map<string, LedgerRow[]> {
  const grouped = new Map<string, LedgerRow[]>();
  for (const row of rows) {
    const address = addressOf(row, direction);
    const list = grouped.get(address) ?? [];
    list.push(row);
    grouped.set(address, list);
  }
  return grouped;
}

/** The one query of a hop: the `LIMIT n BY` over the frontier's addresses that are not hot, and the hot ones. */
function hopQuery(
  db: string,
  direction: Direction,
  network: string,
  tokenId: string,
  addresses: ReadonlyArray<string>,
  bounds: ReadonlyMap<string, number>,
  limit: number,
  hotRows: number,
): string {
  const { table, degree, column, op, order } = DIRECTION[direction];
  const list = sqlStringList(addresses);
  const keys = addresses.map((a) => hopKey(network, tokenId, a)).join(", ");
  const boundList = addresses.map((a) => `toInt64(${sqlInt(bounds.get(a) ?? 0)})`).join(", ");
  const scope = `network = ${sqlString(network)} AND token_id = ${sqlString(tokenId)}`;
  // Degrees are per hop key: addresses sharing a hash only over-count (the exact top-n path).
  const degrees = `SELECT hop_key FROM ${db}.${degree} WHERE hop_key IN (${keys}) GROUP BY hop_key`;
  const hot = `SELECT address FROM (SELECT arrayJoin([${list}]) AS address)
    WHERE cityHash64(${sqlString(network)}, ${sqlString(tokenId)}, address) GLOBAL IN (${degrees} HAVING sum(rows) > ${sqlInt(hotRows)})`;
  const cold = `${degrees} HAVING sum(rows) <= ${sqlInt(hotRows)}`;
  // The key range comes from the primary key; the strings are checked too, so a shared hash
  // cannot bring another address's rows.
  return `SELECT toUInt8(0) AS hot, ${SELECT_COLUMNS} FROM (
    SELECT ${SELECT_COLUMNS} FROM ${db}.${table}
    WHERE hop_key IN (${keys}) AND hop_key GLOBAL IN (${cold})
      AND ${scope} AND ${column} IN (${list})
      AND occurred_at ${op} transform(${column}, [${list}], [${boundList}], toInt64(0))
    ORDER BY ${column}, occurred_at ${order}, tx_hash ${order}, log_index ${order}
    LIMIT ${sqlInt(limit)} BY ${column})
  UNION ALL
  SELECT toUInt8(1) AS hot, ${sqlString(network)} AS network, '' AS tx_hash, toInt32(0) AS log_index,
    ${sqlString(tokenId)} AS token_id, ${column === "from_address" ? "address" : "''"} AS from_address,
    ${column === "to_address" ? "address" : "''"} AS to_address, '' AS amount, toInt64(0) AS occurred_at,
    CAST(NULL AS Nullable(Int64)) AS block_number, CAST(NULL AS Nullable(String)) AS value_usd
  FROM (${hot})`;
}

/** A top-`fetch` branch in hop order for one address. */
function topBranch(
  db: string,
  direction: Direction,
  network: string,
  tokenId: string,
  address: string,
  bound: number,
  fetch: number,
): string {
  const { table, column, op, order } = DIRECTION[direction];
  return `SELECT * FROM (SELECT ${SELECT_COLUMNS} FROM ${db}.${table}
    WHERE hop_key = ${hopKey(network, tokenId, address)}
      AND network = ${sqlString(network)} AND token_id = ${sqlString(tokenId)}
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
