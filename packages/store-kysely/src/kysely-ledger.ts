/**
 * The ledger of the kysely store. A tracing read is one SQL statement per call: with lateral
 * joins (Postgres, `kysely-ledger-frontier.ts`) one fixed statement over the frontier as arrays,
 * its rows as one JSON array, and the tracer's counts in one more; elsewhere (per 200 frontier
 * addresses) a UNION ALL of per-address subqueries, each a derived table with its own ORDER BY
 * and LIMIT, so every address gets its own `limitPerAddress` rows, and no counts. A hub's
 * senders' siblings are one join (kysely-ledger-siblings.ts).
 */
import type { IncomingQuery, LedgerReader, LedgerStore, LedgerTransfer, OutgoingQuery } from "@openkyt/core";
import { type Insertable, type Kysely, type Selectable, sql } from "kysely";
import { changedRows, type KyselyContext, orderText } from "./kysely-context.js";
import { countLateralFrontier, type FrontierAddress, readLateralFrontier } from "./kysely-ledger-frontier.js";
import { senderSiblings } from "./kysely-ledger-siblings.js";
import { runPrecompiled } from "./kysely-precompiled.js";
import type { Database, LedgerTransfersTable } from "./kysely-schema.js";
import { chunksOf, INSERT_CHUNK, num, numOrNull } from "./kysely-values.js";

/** The ledger members of the store port (the ledger reader included). */
export type LedgerOps = LedgerStore & LedgerReader;

/** Frontier addresses per statement. */
export const FRONTIER_CHUNK = 200;

/**
 * Serialises the ledger writers of one schema until the transaction ends, so the `seq` numbers
 * of their rows are handed out in commit order (see migration 0010). The lock is keyed by the
 * schema, so stores in other schemas of the same database do not wait for each other.
 */
export async function lockLedgerSequence(tx: Kysely<Database>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${LEDGER_LOCK_CLASS}, hashtext(current_schema()))`.execute(tx);
}

/** First key of the ledger writers' advisory lock (an arbitrary constant: "OKL" in ASCII). */
const LEDGER_LOCK_CLASS = 0x4f4b4c;

/** A ledger transfer as a row. */
function toRow(t: LedgerTransfer): Insertable<LedgerTransfersTable> {
  return {
    network: t.network,
    tx_hash: t.txHash,
    log_index: t.logIndex,
    token_id: t.tokenId,
    from_address: t.from,
    to_address: t.to,
    amount: t.amount,
    occurred_at: t.occurredAt,
    block: t.block,
    value_usd: t.valueUsd,
  };
}

/** A row as a ledger transfer. */
export function ledgerTransferFromRow(r: Selectable<LedgerTransfersTable>): LedgerTransfer {
  return {
    network: r.network,
    txHash: r.tx_hash,
    logIndex: num(r.log_index),
    tokenId: r.token_id,
    from: r.from_address,
    to: r.to_address,
    amount: num(r.amount),
    occurredAt: num(r.occurred_at),
    block: numOrNull(r.block),
    valueUsd: numOrNull(r.value_usd),
  };
}

/** Most hashes in one `ledgerByTxHashes` statement (SQLite binds at most 32,766 values). */
const HASH_CHUNK = 500;

/** Most rows of an address that come with its count, for the read that follows. */
export const PREFETCH_ROWS = 64;

/** How long prefetched rows wait for their read, ms; older ones are read again. */
const PREFETCH_MS = 1000;

/** Most addresses held at once (a count whose read never came is dropped with the rest past it). */
const PREFETCH_ADDRESSES = 20_000;

/**
 * Rows that came with a hop's counts. The tracer counts a hop, then reads the addresses it can
 * use with the same queries: the count statement sends the rows of every address that has at
 * most {@link PREFETCH_ROWS}, all of them, so the read takes those (cut to its limit, exact)
 * without a round trip and asks the server only for the rest. On a ledger without hubs every
 * address is small and a hop costs one statement, as it did before the counts. Each entry is
 * taken once and lives {@link PREFETCH_MS}: a read served from it sees the ledger as of its count.
 */
class HopPrefetch {
  readonly #held = new Map<string, { rows: LedgerTransfer[]; until: number }>();

  /** Holds the rows of `frontier` that came with its counts. */
  put(
    incoming: boolean,
    network: string,
    tokenId: string,
    frontier: ReadonlyArray<FrontierAddress>,
    rows: ReadonlyArray<LedgerTransfer[] | null>,
  ): void {
    if (this.#held.size + frontier.length > PREFETCH_ADDRESSES) this.#held.clear();
    const until = Date.now() + PREFETCH_MS;
    for (const [i, q] of frontier.entries()) {
      const own = rows[i];
      if (own) this.#held.set(prefetchKey(incoming, network, tokenId, q), { rows: own, until });
    }
  }

  /** The rows held for `q` (all of its rows, in no order), removed; null when none are. */
  take(incoming: boolean, network: string, tokenId: string, q: FrontierAddress): LedgerTransfer[] | null {
    const key = prefetchKey(incoming, network, tokenId, q);
    const held = this.#held.get(key);
    if (!held) return null;
    this.#held.delete(key);
    return held.until >= Date.now() ? held.rows : null;
  }
}

/** The key of one frontier query. */
function prefetchKey(incoming: boolean, network: string, tokenId: string, q: FrontierAddress): string {
  return `${incoming ? "in" : "out"}\u0000${network}\u0000${tokenId}\u0000${q.address}\u0000${q.at}`;
}

/** Counts a hop, holding the rows of its small addresses for the read that follows. */
async function countHop(
  ctx: KyselyContext,
  prefetch: HopPrefetch,
  network: string,
  tokenId: string,
  incoming: boolean,
  frontier: ReadonlyArray<FrontierAddress>,
): Promise<number[]> {
  const { counts, rows } = await countLateralFrontier(
    ctx.db,
    ctx.dialect,
    network,
    tokenId,
    incoming,
    frontier,
    PREFETCH_ROWS,
  );
  prefetch.put(incoming, network, tokenId, frontier, rows);
  return counts;
}

/** Reads one hop: per frontier address, in frontier order, its rows in the port's order. */
async function readHop(
  ctx: KyselyContext,
  prefetch: HopPrefetch,
  network: string,
  tokenId: string,
  direction: "incoming" | "outgoing",
  frontier: ReadonlyArray<FrontierAddress>,
  limit: number,
): Promise<LedgerTransfer[]> {
  if (limit <= 0 || frontier.length === 0) return [];
  const incoming = direction === "incoming";
  const out: LedgerTransfer[] = [];
  const chunks = ctx.dialect.lateralJoins ? [frontier] : chunksOf(frontier, FRONTIER_CHUNK);
  for (const chunk of chunks) {
    const groups = ctx.dialect.lateralJoins
      ? await readLateral(ctx, prefetch, network, tokenId, incoming, chunk, limit)
      : await readUnionFrontier(ctx, network, tokenId, incoming, chunk, limit);
    // Neither statement promises an order: each group is ordered here (and a prefetched group,
    // which holds all of its address's rows, cut to the limit).
    for (const group of groups) {
      group.sort(compareForward);
      if (incoming) group.reverse();
      for (const t of group.length > limit ? group.slice(0, limit) : group) out.push(t);
    }
  }
  return out;
}

/** A lateral hop: the addresses whose rows came with the counts from those, the rest in one statement. */
async function readLateral(
  ctx: KyselyContext,
  prefetch: HopPrefetch,
  network: string,
  tokenId: string,
  incoming: boolean,
  frontier: ReadonlyArray<FrontierAddress>,
  limit: number,
): Promise<LedgerTransfer[][]> {
  const groups = frontier.map((q) => prefetch.take(incoming, network, tokenId, q));
  const missing = frontier.filter((_, i) => groups[i] === null);
  if (missing.length === 0) return groups as LedgerTransfer[][];
  const read = await readLateralFrontier(ctx.db, ctx.dialect, network, tokenId, incoming, missing, limit);
  let next = 0;
  return groups.map((g) => g ?? read[next++] ?? []);
}

/** A chunk of the frontier as a UNION ALL of one limited subquery per address; rows per address. */
async function readUnionFrontier(
  ctx: KyselyContext,
  network: string,
  tokenId: string,
  incoming: boolean,
  chunk: ReadonlyArray<FrontierAddress>,
  limit: number,
): Promise<LedgerTransfer[][]> {
  const { db } = ctx;
  const order = incoming ? "desc" : "asc";
  const parts = chunk.map((q, i) => {
    const rows = db
      .selectFrom("ledger_transfers")
      .selectAll()
      .where("network", "=", network)
      .where("token_id", "=", tokenId)
      .where(incoming ? "to_address" : "from_address", "=", q.address)
      .where("occurred_at", incoming ? "<" : ">", q.at)
      .orderBy("occurred_at", order)
      .orderBy(orderText(ctx, "tx_hash"), order)
      .orderBy("log_index", order)
      .limit(limit);
    return db
      .selectFrom(rows.as(`q${i}`))
      .selectAll()
      .select(sql<number>`${sql.lit(i)}`.as("query_index"));
  });
  const [first, ...rest] = parts;
  if (!first) return [];
  const rows = await rest.reduce((all, part) => all.unionAll(part), first).execute();
  const groups: LedgerTransfer[][] = chunk.map(() => []);
  for (const row of rows) groups[num(row.query_index)]?.push(ledgerTransferFromRow(row));
  return groups;
}

/** Time, then transaction hash, then log index, ascending. */
function compareForward(a: LedgerTransfer, b: LedgerTransfer): number {
  if (a.occurredAt !== b.occurredAt) return a.occurredAt - b.occurredAt;
  if (a.txHash !== b.txHash) return a.txHash < b.txHash ? -1 : 1;
  return a.logIndex - b.logIndex;
}

/** Creates the ledger members over `ctx`. */
export function kyselyLedgerOps(ctx: KyselyContext): LedgerOps {
  const { db } = ctx;
  const prefetch = new HopPrefetch();
  const incomingOf = (queries: ReadonlyArray<IncomingQuery>) =>
    queries.map((q) => ({ address: q.address, at: q.before }));
  const outgoingOf = (queries: ReadonlyArray<OutgoingQuery>) =>
    queries.map((q) => ({ address: q.address, at: q.after }));
  // Counting a hop is one statement only with lateral joins; elsewhere the tracer reads instead.
  const counts: Pick<LedgerReader, "ledgerIncomingCounts" | "ledgerOutgoingCounts"> = ctx.dialect.lateralJoins
    ? {
        ledgerIncomingCounts: (network, tokenId, queries) =>
          countHop(ctx, prefetch, network, tokenId, true, incomingOf(queries)),
        ledgerOutgoingCounts: (network, tokenId, queries) =>
          countHop(ctx, prefetch, network, tokenId, false, outgoingOf(queries)),
      }
    : {};
  return {
    ...counts,
    ledgerSenderSiblings: senderSiblings(db, ctx.dialect, ledgerTransferFromRow),
    ledgerIncoming: (network, tokenId, queries, limit) =>
      readHop(ctx, prefetch, network, tokenId, "incoming", incomingOf(queries), limit),
    ledgerOutgoing: (network, tokenId, queries, limit) =>
      readHop(ctx, prefetch, network, tokenId, "outgoing", outgoingOf(queries), limit),
    async putLedgerTransfers(rows) {
      if (rows.length === 0) return 0;
      return ctx.atomic(async (tx) => {
        if (ctx.dialect.ledgerOrder === "seq") await lockLedgerSequence(tx);
        let added = 0;
        for (const chunk of chunksOf(rows.map(toRow), INSERT_CHUNK)) {
          const result = await tx
            .insertInto("ledger_transfers")
            .values(chunk)
            .onConflict((oc) => oc.columns(["network", "tx_hash", "log_index"]).doNothing())
            .executeTakeFirstOrThrow();
          added += changedRows(result);
        }
        return added;
      });
    },
    async ledgerByTxHash(network, txHash) {
      // Every bind asks it (a registration's transaction, until it is mined): compiled once.
      const { rows } = await runPrecompiled(
        db,
        "ledger.byTxHash",
        () =>
          db
            .selectFrom("ledger_transfers")
            .selectAll()
            .where("network", "=", network)
            .where("tx_hash", "=", txHash)
            .orderBy("log_index", "asc"),
        [network, txHash],
      );
      return rows.map(ledgerTransferFromRow);
    },
    async ledgerByTxHashes(network, txHashes) {
      const out: LedgerTransfer[] = [];
      for (const chunk of chunksOf([...new Set(txHashes)], HASH_CHUNK)) {
        const rows = await db
          .selectFrom("ledger_transfers")
          .selectAll()
          .where("network", "=", network)
          .where("tx_hash", "in", chunk)
          .orderBy("tx_hash", "asc")
          .orderBy("log_index", "asc")
          .execute();
        for (const r of rows) out.push(ledgerTransferFromRow(r));
      }
      return out;
    },
  };
}
