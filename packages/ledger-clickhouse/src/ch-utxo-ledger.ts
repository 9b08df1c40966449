/**
 * The UTXO ledger in ClickHouse (Bitcoin, Litecoin): the `UtxoLedgerStore` members on the tables
 * of ch-utxo-schema.ts, for tracing, binding, imports and followers.
 *
 * - A write checks its transactions, stores the new ones (outputs, inputs, then the headers:
 *   a transaction whose header is stored is stored whole, so a write cut short is redone whole
 *   by its retry) and counts them. One INSERT per table per call.
 * - A reorg's delete is a tombstone that reads mask (ch-utxo-reorg.ts), then a background
 *   mutation that frees the space.
 * - Reads remove duplicates by key themselves (a retried write, parts not merged yet) and mask
 *   deleted rows in SQL, so the limit of an address read counts live rows. An address read is
 *   one query per 100 addresses, each address a top-n branch of its own: the server keeps `n`
 *   rows however many the address has, so memory is bounded by the edge budget, not by the
 *   address; a branch whose rows held duplicates is asked again with a larger `n`.
 */
import {
  KytError,
  type ReceivedQuery,
  type SentQuery,
  type SpendingInput,
  type UtxoLedgerStore,
  type UtxoReceipt,
  type UtxoTransaction,
  utxoTransactionProblem,
} from "@openkyt/core";
import type { ChClient } from "./ch-client.js";
import { sqlInt, sqlString, sqlStringList } from "./ch-escape.js";
import { liveCondition, staircase, type Tombstone, tombstonesQuery } from "./ch-utxo-reorg.js";
import {
  type InRow,
  inputOf,
  type OutRow,
  outpoint,
  outputOf,
  rowsOfTransaction,
  type TxRow,
  transactionOf,
} from "./ch-utxo-rows.js";
import { UTXO_IN_COLUMNS, UTXO_OUT_COLUMNS, UTXO_ROW_TABLES, UTXO_TX_COLUMNS } from "./ch-utxo-schema.js";

/** Options of {@link clickHouseUtxoOps}. */
export interface ClickHouseUtxoOptions {
  /** Most addresses per address read query (one top-n branch each); default 100. */
  readonly addressesPerQuery?: number;
  /** Most txids per lookup (query text under the server's 256 KiB max_query_size); default 1,000. */
  readonly txidsPerQuery?: number;
}

const TX_SELECT = UTXO_TX_COLUMNS.join(", ");
const OUT_SELECT = UTXO_OUT_COLUMNS.join(", ");
const IN_SELECT = UTXO_IN_COLUMNS.join(", ");

/** The UTXO ledger in ClickHouse: the port's members and a write that skips the existence check. */
export interface ClickHouseUtxoLedger extends UtxoLedgerStore {
  /**
   * Inserts whole transactions without asking which are stored already (a fast path for loads
   * known to be new, and for tests of unmerged duplicates): a transaction written twice is read
   * once. Checked as `putUtxoTransactions` checks; returns how many were sent.
   */
  appendUtxoTransactions(txs: ReadonlyArray<UtxoTransaction>): Promise<number>;
}

/** The UTXO ledger members over `client`'s database `db` (an identifier checked by the caller). */
export function clickHouseUtxoOps(
  client: ChClient,
  db: string,
  options: ClickHouseUtxoOptions = {},
): ClickHouseUtxoLedger {
  const perQuery = options.addressesPerQuery ?? 100;
  const perLookup = options.txidsPerQuery ?? 1_000;
  const sharded = client.target.cluster !== null;
  // Writes of one process run one at a time (each counts new transactions against the ones
  // before it) and take increasing `seq`s.
  let writeChain: Promise<unknown> = Promise.resolve();
  let lastSeq = 0;
  const nextSeq = (floor: number): number => {
    lastSeq = Math.max(Date.now() * 1_000, lastSeq + 1, floor);
    return lastSeq;
  };
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = writeChain.then(fn);
    writeChain = run.catch(() => undefined);
    return run;
  };

  const tombstones = async (network: string): Promise<Tombstone[]> =>
    staircase(
      (await client.rows<Tombstone>(tombstonesQuery(db, network))).map((t) => ({
        height: Number(t.height),
        seq: Number(t.seq),
      })),
    );

  /** The live txids of `network` among `txids` that have a stored header. */
  async function storedTxids(
    network: string,
    txids: ReadonlyArray<string>,
    live: string,
  ): Promise<Set<string>> {
    const stored = new Set<string>();
    for (let i = 0; i < txids.length; i += perLookup) {
      const found = await client.rows<{ txid: string }>(
        `SELECT DISTINCT txid FROM ${db}.utxo_tx
         WHERE network = ${sqlString(network)} AND txid IN (${sqlStringList(txids.slice(i, i + perLookup))}) AND ${live}`,
      );
      for (const r of found) stored.add(r.txid);
    }
    return stored;
  }

  /**
   * The input spending each output of `txids` (key `txid:vout`): of two live spenders (a ledger
   * of one chain has none) the first stored, then the smallest (txid, vin).
   */
  async function spendsOf(
    network: string,
    txids: ReadonlyArray<string>,
    live: string,
  ): Promise<Map<string, SpendingInput>> {
    const best = new Map<string, InRow>();
    const unique = [...new Set(txids)];
    for (let i = 0; i < unique.length; i += perLookup) {
      const rows = await client.rows<InRow>(
        `SELECT ${IN_SELECT} FROM ${db}.utxo_spend
         WHERE network = ${sqlString(network)} AND prev_txid IN (${sqlStringList(unique.slice(i, i + perLookup))}) AND ${live}`,
      );
      for (const row of rows) {
        const key = outpoint(row.prev_txid, Number(row.prev_vout));
        const held = best.get(key);
        if (!held || compareSpendRows(row, held) < 0) best.set(key, row);
      }
    }
    const out = new Map<string, SpendingInput>();
    for (const [key, row] of best) out.set(key, { txid: row.txid, vin: Number(row.vin) });
    return out;
  }

  async function transactions(network: string, txids: ReadonlyArray<string>): Promise<UtxoTransaction[]> {
    const ids = [...new Set(txids)];
    if (ids.length === 0) return [];
    const live = liveCondition(await tombstones(network));
    const net = sqlString(network);
    const out: UtxoTransaction[] = [];
    for (let i = 0; i < ids.length; i += perLookup) {
      const chunk = sqlStringList(ids.slice(i, i + perLookup));
      const headers = new Map<string, TxRow>();
      for (const row of await client.rows<TxRow>(
        `SELECT ${TX_SELECT} FROM ${db}.utxo_tx WHERE network = ${net} AND txid IN (${chunk}) AND ${live}`,
      )) {
        const held = headers.get(row.txid);
        if (!held || Number(row.seq) > Number(held.seq)) headers.set(row.txid, row);
      }
      if (headers.size === 0) continue;
      const found = sqlStringList([...headers.keys()]);
      const outputs = new Map<string, Map<number, OutRow>>();
      for (const row of await client.rows<OutRow>(
        `SELECT ${OUT_SELECT} FROM ${db}.utxo_out WHERE network = ${net} AND txid IN (${found}) AND ${live}`,
      )) {
        const byVout = outputs.get(row.txid) ?? new Map<number, OutRow>();
        byVout.set(Number(row.vout), row);
        outputs.set(row.txid, byVout);
      }
      const inputs = new Map<string, Map<number, InRow>>();
      for (const row of await client.rows<InRow>(
        `SELECT ${IN_SELECT} FROM ${db}.utxo_in WHERE network = ${net} AND txid IN (${found}) AND ${live}`,
      )) {
        const byVin = inputs.get(row.txid) ?? new Map<number, InRow>();
        byVin.set(Number(row.vin), row);
        inputs.set(row.txid, byVin);
      }
      const spends = await spendsOf(network, [...headers.keys()], live);
      for (const [txid, header] of headers) {
        const ins = [...(inputs.get(txid)?.entries() ?? [])]
          .sort((a, b) => a[0] - b[0])
          .map(([, r]) => inputOf(r));
        const outs = [...(outputs.get(txid)?.entries() ?? [])]
          .sort((a, b) => a[0] - b[0])
          .map(([vout, r]) => ({ ...outputOf(r), spentBy: spends.get(outpoint(txid, vout)) ?? null }));
        out.push(transactionOf(header, ins, outs));
      }
    }
    return out;
  }

  /**
   * Per query, its first `limit` rows as `branch` gives them (a top-`fetch` subquery), with
   * duplicates removed by `keyOf`, kept by `keep`, in `order`; a query whose `fetch` rows were
   * cut short by duplicates or dropped rows is asked again with a larger `fetch`.
   */
  async function perQueryRows<Q, R extends { q: number }>(
    queries: ReadonlyArray<Q>,
    limit: number,
    branch: (q: Q, fetch: number) => string,
    settle: (rows: R[], chunk: ReadonlyArray<number>) => Promise<Map<number, R[]>>,
    keyOf: (row: R) => string,
    order: (a: R, b: R) => number,
  ): Promise<R[][]> {
    const answers: R[][] = queries.map(() => []);
    let pending = queries.map((_, i) => i);
    let fetch = limit;
    while (pending.length > 0) {
      const again: number[] = [];
      for (let i = 0; i < pending.length; i += perQuery) {
        const chunk = pending.slice(i, i + perQuery);
        const sql = chunk
          .map((qi) => `SELECT toUInt32(${sqlInt(qi)}) AS q, * FROM (${branch(queries[qi] as Q, fetch)})`)
          .join("\nUNION ALL\n");
        const raw = await client.rows<R>(sql);
        const rawCount = new Map<number, number>();
        for (const row of raw) rawCount.set(Number(row.q), (rawCount.get(Number(row.q)) ?? 0) + 1);
        const kept = await settle(raw, chunk);
        for (const qi of chunk) {
          const seen = new Set<string>();
          const unique = (kept.get(qi) ?? []).sort(order).filter((row) => {
            const key = keyOf(row);
            if (seen.has(key)) return false;
            seen.add(key);
            return true;
          });
          if ((rawCount.get(qi) ?? 0) >= fetch && unique.length < limit) again.push(qi);
          else answers[qi] = unique.slice(0, limit);
        }
      }
      pending = again;
      fetch *= 4;
    }
    return answers;
  }

  async function received(
    network: string,
    queries: ReadonlyArray<ReceivedQuery>,
    limit: number,
  ): Promise<UtxoReceipt[]> {
    checkLimit(limit);
    if (limit === 0 || queries.length === 0) return [];
    const live = liveCondition(await tombstones(network));
    const net = sqlString(network);
    type Row = OutRow & { q: number };
    const answers = await perQueryRows<ReceivedQuery, Row>(
      queries,
      limit,
      (q, fetch) =>
        `SELECT ${OUT_SELECT} FROM ${db}.utxo_addr_out
         WHERE network = ${net} AND address = ${sqlString(q.address)} AND occurred_at < ${sqlInt(q.before)} AND ${live}
         ORDER BY occurred_at DESC, ifNull(block, -1) DESC, position DESC, txid DESC, vout DESC
         LIMIT ${sqlInt(fetch)}`,
      async (rows) => groupByQuery(rows),
      (r) => outpoint(r.txid, Number(r.vout)),
      receivedOrder,
    );
    const spends = await spendsOf(
      network,
      answers.flatMap((rows) => rows.map((r) => r.txid)),
      live,
    );
    return answers.flatMap((rows, qi) =>
      rows.map((r) => ({
        network,
        txid: r.txid,
        vout: Number(r.vout),
        address: queries[qi]?.address ?? r.address,
        value: Number(r.value),
        occurredAt: Number(r.occurred_at),
        block: r.block === null ? null : Number(r.block),
        position: Number(r.position),
        spentBy: spends.get(outpoint(r.txid, Number(r.vout))) ?? null,
      })),
    );
  }

  async function spentFrom(
    network: string,
    queries: ReadonlyArray<SentQuery>,
    limit: number,
  ): Promise<UtxoReceipt[]> {
    checkLimit(limit);
    if (limit === 0 || queries.length === 0) return [];
    const live = liveCondition(await tombstones(network));
    const net = sqlString(network);
    type Row = InRow & { q: number; output?: OutRow };
    const answers = await perQueryRows<SentQuery, Row>(
      queries,
      limit,
      (q, fetch) =>
        `SELECT ${IN_SELECT} FROM ${db}.utxo_addr_in
         WHERE network = ${net} AND address = ${sqlString(q.address)} AND occurred_at > ${sqlInt(q.after)} AND ${live}
         ORDER BY occurred_at, txid, vin
         LIMIT ${sqlInt(fetch)}`,
      // The spent outputs, live and paying the query's address (what SQL's join on the outputs keeps).
      async (rows) => {
        const outputs = await outputsAt(
          network,
          rows.map((r) => r.prev_txid),
          live,
        );
        const kept = rows.flatMap((r) => {
          const output = outputs.get(outpoint(r.prev_txid, Number(r.prev_vout)));
          const address = queries[Number(r.q)]?.address;
          return output && output.address === address ? [{ ...r, output }] : [];
        });
        return groupByQuery(kept);
      },
      (r) => `${outpoint(r.prev_txid, Number(r.prev_vout))}>${r.txid}:${r.vin}`,
      spentOrder,
    );
    return answers.flatMap((rows) =>
      rows.flatMap((r) => {
        const o = r.output;
        if (!o) return [];
        return [
          {
            network,
            txid: o.txid,
            vout: Number(o.vout),
            address: o.address,
            value: Number(o.value),
            occurredAt: Number(o.occurred_at),
            block: o.block === null ? null : Number(o.block),
            position: Number(o.position),
            spentBy: { txid: r.txid, vin: Number(r.vin) },
          },
        ];
      }),
    );
  }

  /** The live outputs of `txids` by outpoint. */
  async function outputsAt(
    network: string,
    txids: ReadonlyArray<string>,
    live: string,
  ): Promise<Map<string, OutRow>> {
    const out = new Map<string, OutRow>();
    const unique = [...new Set(txids)];
    for (let i = 0; i < unique.length; i += perLookup) {
      const rows = await client.rows<OutRow>(
        `SELECT ${OUT_SELECT} FROM ${db}.utxo_out
         WHERE network = ${sqlString(network)} AND txid IN (${sqlStringList(unique.slice(i, i + perLookup))}) AND ${live}`,
      );
      for (const row of rows) out.set(outpoint(row.txid, Number(row.vout)), row);
    }
    return out;
  }

  /** Writes the rows of `txs` under one new `seq`: outputs, inputs, then the headers. */
  async function insertRows(txs: ReadonlyArray<UtxoTransaction>, floor: number): Promise<void> {
    const seq = nextSeq(floor);
    const rows = txs.map((tx) => rowsOfTransaction(tx, seq));
    // Headers last: a transaction is "stored" (for the next write's check) once all its rows are.
    await client.insert(
      `${db}.utxo_out`,
      rows.flatMap((r) => r.outputs),
    );
    await client.insert(
      `${db}.utxo_in`,
      rows.flatMap((r) => r.inputs),
    );
    await client.insert(
      `${db}.utxo_tx`,
      rows.map((r) => r.tx),
    );
  }

  /** The highest tombstone seq of the networks of `txs`, plus one (a write must sort after it). */
  async function floorOf(networks: Iterable<string>): Promise<number> {
    let floor = 0;
    for (const network of networks) {
      for (const t of await tombstones(network)) floor = Math.max(floor, t.seq + 1);
    }
    return floor;
  }

  function check(txs: ReadonlyArray<UtxoTransaction>): void {
    for (const tx of txs) {
      const problem = utxoTransactionProblem(tx);
      if (problem !== null) throw new KytError("VALIDATION_ERROR", problem);
    }
  }

  async function append(txs: ReadonlyArray<UtxoTransaction>): Promise<number> {
    check(txs);
    if (txs.length === 0) return 0;
    await insertRows(txs, await floorOf(new Set(txs.map((tx) => tx.network))));
    return txs.length;
  }

  async function put(txs: ReadonlyArray<UtxoTransaction>): Promise<number> {
    check(txs);
    const seen = new Set<string>();
    const unique = txs.filter((tx) => {
      const key = `${tx.network}\u0000${tx.txid}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (unique.length === 0) return 0;
    const byNetwork = new Map<string, UtxoTransaction[]>();
    for (const tx of unique) byNetwork.set(tx.network, [...(byNetwork.get(tx.network) ?? []), tx]);
    const fresh: UtxoTransaction[] = [];
    let floor = 0;
    for (const [network, list] of byNetwork) {
      const marks = await tombstones(network);
      for (const t of marks) floor = Math.max(floor, t.seq + 1);
      const stored = await storedTxids(
        network,
        list.map((tx) => tx.txid),
        liveCondition(marks),
      );
      for (const tx of list) if (!stored.has(tx.txid)) fresh.push(tx);
    }
    if (fresh.length === 0) return 0;
    await insertRows(fresh, floor);
    return fresh.length;
  }

  async function deleteFrom(network: string, height: number): Promise<number> {
    if (!Number.isSafeInteger(height) || height < 0) {
      throw new KytError("VALIDATION_ERROR", `height: expected a non-negative integer, got ${height}`);
    }
    const net = sqlString(network);
    const marks = await tombstones(network);
    const [counted] = await client.rows<{ n: number; top: number }>(
      `SELECT uniqExact(txid) AS n FROM ${db}.utxo_tx
       WHERE network = ${net} AND ifNull(block, -1) >= ${sqlInt(height)} AND ${liveCondition(marks)}`,
    );
    const n = Number(counted?.n ?? 0);
    if (n === 0) return 0;
    const [top] = await client.rows<{ top: number }>(
      `SELECT max(seq) AS top FROM ${db}.utxo_tx WHERE network = ${net}`,
    );
    const seq = nextSeq(Number(top?.top ?? 0) + 1);
    await client.insert(`${db}.utxo_reorg`, [{ network, height, seq }]);
    // Frees the space in the background; reads already mask the rows (see ch-utxo-reorg.ts).
    // A sharded ledger's Distributed tables take no mutation: its shards keep the masked rows.
    if (!sharded) {
      for (const table of UTXO_ROW_TABLES) {
        await client.command(
          `ALTER TABLE ${db}.${table} DELETE
           WHERE network = ${net} AND ifNull(block, -1) >= ${sqlInt(height)} AND seq < ${sqlInt(seq)}`,
        );
      }
    }
    return n;
  }

  return {
    utxoTransactions: (network, txids) => transactions(network, txids),
    utxoReceived: (network, queries, limit) => received(network, queries, limit),
    utxoSpentFrom: (network, queries, limit) => spentFrom(network, queries, limit),
    putUtxoTransactions: (txs) => serial(() => put(txs)),
    appendUtxoTransactions: (txs) => serial(() => append(txs)),
    deleteUtxoBlocksFrom: (network, height) => serial(() => deleteFrom(network, height)),
  };
}

function checkLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new KytError("VALIDATION_ERROR", `limitPerAddress: expected a non-negative integer, got ${limit}`);
  }
}

function groupByQuery<R extends { q: number }>(rows: ReadonlyArray<R>): Map<number, R[]> {
  const grouped = new Map<number, R[]>();
  for (const row of rows) {
    const q = Number(row.q);
    const list = grouped.get(q) ?? [];
    list.push(row);
    grouped.set(q, list);
  }
  return grouped;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Received order: latest first by time, block, position, txid, vout. */
function receivedOrder(a: OutRow, b: OutRow): number {
  return (
    Number(b.occurred_at) - Number(a.occurred_at) ||
    (b.block === null ? -1 : Number(b.block)) - (a.block === null ? -1 : Number(a.block)) ||
    Number(b.position) - Number(a.position) ||
    compareText(b.txid, a.txid) ||
    Number(b.vout) - Number(a.vout)
  );
}

/** Spent order: earliest spend first, by the spending input's time, txid, vin. */
function spentOrder(a: InRow, b: InRow): number {
  return (
    Number(a.occurred_at) - Number(b.occurred_at) ||
    compareText(a.txid, b.txid) ||
    Number(a.vin) - Number(b.vin)
  );
}

/** Of two spenders of one outpoint, the first stored, then the smallest (txid, vin). */
function compareSpendRows(a: InRow, b: InRow): number {
  return Number(a.seq) - Number(b.seq) || compareText(a.txid, b.txid) || Number(a.vin) - Number(b.vin);
}
