/**
 * The hop-by-hop walk shared by transfer and address exposure: per hop, one resolver call for
 * the new addresses and one ledger call per chunk of the frontier, heaviest weight first,
 * within an edge budget; a weight below the floor is not followed.
 */

import { UNDEFINED_CATEGORY } from "../domain/entity-categories.js";
import type { Proximity } from "../domain/enums.js";
import type { LedgerTransfer } from "../domain/records.js";
import { LedgerColumns } from "../ports/ledger-columns.js";
import type { IncomingQuery, LedgerReader, OutgoingQuery } from "../ports/ledger-reader.js";
import type { EntityResolver, ResolvedEntity } from "./entity-resolver.js";
import type { ExposureTally, TracePath } from "./exposure-tally.js";
import { compareLedgerTransfers } from "./ledger-index.js";
import { type LedgerPosition, mayFund, readsSameTime } from "./ledger-position.js";
import type { TimeSpan } from "./sanctions-as-of.js";
import { TraceChildren, type TxHashOf } from "./trace-children.js";
import { compareNodes, pathOf, type TraceNode, txPathOf } from "./trace-node.js";

/** Most frontier addresses asked of the ledger in one call. */
export const LEDGER_CHUNK_SIZE = 1000;

/** What a walk needs. `roots` are unresolved nodes still to follow. */
export interface FrontierTraceInput {
  readonly ledger: LedgerReader;
  readonly resolver: EntityResolver;
  readonly network: string;
  readonly tokenId: string;
  /** true: follow the outgoing transfers each node may fund; false: the incoming that may fund it. */
  readonly forward: boolean;
  readonly span: TimeSpan;
  readonly maxHops: number;
  readonly edgeBudget: number;
  /** An unresolved node lighter than this is not followed: its weight counts as `undefined`. */
  readonly minPathWeight: number;
  readonly roots: ReadonlyArray<TraceNode>;
  readonly proximityAt: (hop: number) => Proximity;
  readonly tally: ExposureTally;
}

/** What every walk takes from its caller's input as given: the graph, the labels, the token, the window. */
export type TraceSource = Pick<FrontierTraceInput, "ledger" | "resolver" | "network" | "tokenId" | "span">;

/** The {@link TraceSource} members of `input`. */
export function traceSourceOf(input: TraceSource): TraceSource {
  const { ledger, resolver, network, tokenId, span } = input;
  return { ledger, resolver, network, tokenId, span };
}

/** How a walk went. */
export interface FrontierTraceOutcome {
  readonly edgesRead: number;
  readonly hops: number;
  readonly truncated: boolean;
}

/**
 * Walks from `roots` until every weight is attributed or counted as `undefined`.
 *
 * Most nodes a hub-heavy trace meets are lighter than the floor (a hub's rows split its weight
 * thousands of ways): they are never followed, only resolved and, when unresolved, counted as
 * `undefined`. So each hop's children stay columns ({@link TraceChildren}) and only those the
 * walk needs become node objects: the ones it follows, the light ones that resolve to an entity
 * (credited heaviest first, as before), and of the unresolved light ones the heaviest, whose path
 * is the only one that can become the largest; the others are credited at once
 * ({@link ExposureTally.creditRest}). A reader in memory hands the rows over as columns too
 * (`LedgerReader.ledgerIncomingColumns`), so no object is made per row read.
 */
export async function runFrontierTrace(input: FrontierTraceInput): Promise<FrontierTraceOutcome> {
  const columns = SPARE_COLUMNS.pop() ?? new LedgerColumns();
  try {
    return await walk(input, columns);
  } finally {
    columns.reset();
    if (SPARE_COLUMNS.length < MAX_SPARE_COLUMNS) SPARE_COLUMNS.push(columns);
  }
}

/**
 * Column buffers of finished traces, for the next ones: a buffer grows to the largest chunk a
 * trace reads (tens of thousands of rows at a hub), and growing it anew per trace was 3% of the
 * screening profile. Traces that run at the same time each take their own.
 */
const SPARE_COLUMNS: LedgerColumns[] = [];
const MAX_SPARE_COLUMNS = 16;

async function walk(input: FrontierTraceInput, columns: LedgerColumns): Promise<FrontierTraceOutcome> {
  const { tally, proximityAt, maxHops, minPathWeight, ledger } = input;
  const known = new Map<string, ResolvedEntity | null>();
  const explain = (n: TraceNode) => () => ({ addresses: pathOf(n), txHashes: txPathOf(n) });
  const unexplained = (n: TraceNode): void =>
    tally.credit(UNDEFINED_CATEGORY, null, n.weight, n.hop, proximityAt(n.hop), explain(n));
  const txHashOf: TxHashOf = (h) => (typeof h === "string" ? h : txHashAt(ledger, h));
  const children = new TraceChildren();
  const order: number[] = [];
  /** Nodes at or above the floor, heaviest first. */
  let frontier = [...input.roots].sort(compareNodes);
  /** The unresolved children of the last hop below the floor: each lighter than every node of `frontier`. */
  let light: LightChildren | null = null;
  let edgesRead = 0;
  let truncated = false;
  let hops = frontier.reduce((m, n) => Math.max(m, n.hop), 0);
  while (frontier.length > 0 || light !== null) {
    const toFollow: TraceNode[] = [];
    for (const n of frontier) {
      if (n.hop >= maxHops || n.weight < minPathWeight) unexplained(n);
      else toFollow.push(n);
    }
    if (light !== null) creditLight(light, tally, proximityAt, explain);
    children.clear();
    let pending = toFollow;
    while (pending.length > 0) {
      const remaining = input.edgeBudget - edgesRead;
      if (remaining <= 0) {
        for (const n of pending) unexplained(n);
        truncated = true;
        break;
      }
      const [chunk, rest] = takeChunk(pending);
      pending = rest;
      // A node with more rows than the budget has left cannot be followed: when the reader
      // counts, its rows are not read (at a hub of a large ledger, ten thousand rows a visit).
      const over = await overLimit(input, chunk, remaining + 1);
      const queried = over === null ? chunk : chunk.filter((n) => !over.has(n));
      const rowsOf = await readChunk(input, queried, remaining + 1, columns);
      let left = remaining;
      let q = 0;
      for (const n of chunk) {
        if (over?.has(n)) {
          unexplained(n);
          truncated = true;
          continue;
        }
        const own = rowsOf(n, q++, order);
        if (!own.complete || own.count > left) {
          // Its edges do not fit in what is left: skipped; lighter nodes may still fit.
          unexplained(n);
          truncated = true;
          continue;
        }
        left -= own.count;
        edgesRead += own.count;
        if (!children.split(n, columns, order, own.count)) unexplained(n);
      }
    }
    if (children.size === 0) break;
    hops = Math.max(hops, children.hop);
    frontier = [];
    const lightAt: number[] = [];
    const ask: string[] = [];
    for (let i = 0; i < children.size; i++) {
      if (children.weight(i) < minPathWeight) lightAt.push(i);
      else frontier.push(children.node(i, txHashOf));
      const a = children.address(i);
      if (known.has(a)) continue;
      known.set(a, null);
      ask.push(a);
    }
    frontier.sort(compareNodes);
    if (ask.length > 0) {
      const found = await input.resolver.resolve(input.network, ask, input.span);
      for (const a of ask) known.set(a, found.get(a) ?? null);
    }
    // Resolved nodes are credited heaviest first: the followed ones, then the light ones. Of the
    // unresolved light ones only the heaviest becomes a node.
    const resolvedLight: TraceNode[] = [];
    let first = -1;
    let rest = 0;
    let largestRest = 0;
    for (const i of lightAt) {
      if (known.get(children.address(i))) {
        resolvedLight.push(children.node(i, txHashOf));
        continue;
      }
      let other = i;
      if (first < 0 || children.compare(i, first) < 0) [first, other] = [i, first];
      if (other < 0) continue;
      const w = children.weight(other);
      rest += w;
      if (w > largestRest) largestRest = w;
    }
    light = first < 0 ? null : { first: children.node(first, txHashOf), rest, largestRest };
    const attribute = (n: TraceNode): boolean => {
      const entity = known.get(n.address);
      if (!entity) return true;
      const path = explain(n);
      const how = entity.cluster;
      tally.credit(entity.category, entity.name, n.weight, n.hop, proximityAt(n.hop), () => ({
        ...path(),
        ...(how ? { cluster: how } : {}),
      }));
      return false;
    };
    frontier = frontier.filter(attribute);
    for (const n of resolvedLight.sort(compareNodes)) attribute(n);
  }
  return { edgesRead, hops, truncated };
}

/** The unresolved children of a hop below the floor: the heaviest, and the others' total and largest weight. */
interface LightChildren {
  readonly first: TraceNode;
  readonly rest: number;
  readonly largestRest: number;
}

/**
 * Credits the unresolved children below the floor as `undefined`, as crediting each heaviest
 * first would: the tally keeps the path of the first largest contribution, which is the first
 * child of the sorted order, so only its node and path are made.
 */
function creditLight(
  light: LightChildren,
  tally: ExposureTally,
  proximityAt: (hop: number) => Proximity,
  explain: (n: TraceNode) => () => TracePath,
): void {
  const { first } = light;
  const proximity = proximityAt(first.hop);
  tally.credit(UNDEFINED_CATEGORY, null, first.weight, first.hop, proximity, explain(first));
  tally.creditRest(UNDEFINED_CATEGORY, light.rest, light.largestRest, first.hop, proximity);
}

/** The hash of a column read's row by the reader's number for it. */
function txHashAt(ledger: LedgerReader, ref: number): string {
  if (!ledger.ledgerTxHashAt) {
    throw new Error("a column read gave a row number for a hash, but its reader has no ledgerTxHashAt");
  }
  return ledger.ledgerTxHashAt(ref);
}

/** The next chunk: heaviest first, each address at most once (later ones wait their turn). */
function takeChunk(pending: ReadonlyArray<TraceNode>): [TraceNode[], TraceNode[]] {
  const chunk: TraceNode[] = [];
  const rest: TraceNode[] = [];
  const seen = new Set<string>();
  for (const n of pending) {
    if (chunk.length < LEDGER_CHUNK_SIZE && !seen.has(n.address)) {
      seen.add(n.address);
      chunk.push(n);
    } else rest.push(n);
  }
  return [chunk, rest];
}

/** A forward node's read may reach rows past its `until`: its count says nothing then. */
const countable = (n: TraceNode): boolean => n.until === null;

/**
 * The nodes of `chunk` the ledger holds at least `limit` rows for (a read would return `limit`
 * rows, so `rowsOf` would find them incomplete), by the reader's counts; null when the reader
 * does not count. Nodes with an `until` are never in it.
 */
async function overLimit(
  input: FrontierTraceInput,
  chunk: ReadonlyArray<TraceNode>,
  limit: number,
): Promise<Set<TraceNode> | null> {
  const { ledger } = input;
  const asked = chunk.filter(countable);
  if (asked.length === 0) return null;
  let counts: ReadonlyArray<number>;
  if (input.forward) {
    if (!ledger.ledgerOutgoingCounts) return null;
    counts = await ledger.ledgerOutgoingCounts(input.network, input.tokenId, asked.map(outgoingQuery));
  } else {
    if (!ledger.ledgerIncomingCounts) return null;
    counts = await ledger.ledgerIncomingCounts(input.network, input.tokenId, asked.map(incomingQuery));
  }
  const over = new Set<TraceNode>();
  for (const [i, n] of asked.entries()) if ((counts[i] as number) >= limit) over.add(n);
  return over;
}

/** The read of a forward node: a node with a block also reads its own time (see `readChunk`). */
function outgoingQuery(n: TraceNode): OutgoingQuery {
  return {
    address: n.address,
    after: readsSameTime(n.position) ? n.position.occurredAt - 1 : n.position.occurredAt,
  };
}

/** The read of a backward node. */
function incomingQuery(n: TraceNode): IncomingQuery {
  return {
    address: n.address,
    before: readsSameTime(n.position) ? n.position.occurredAt + 1 : n.position.occurredAt,
  };
}

/** A node's rows: their positions in the read's columns, in ledger order, are `order[0..count)`. */
interface OwnRows {
  readonly count: number;
  /** Whether they are all its rows (fewer than the limit came back, or a forward read passed its `until`). */
  readonly complete: boolean;
}

/** The rows of the k-th node of a read chunk, written into `order` (valid until the next read). */
type RowsOf = (n: TraceNode, k: number, order: number[]) => OwnRows;

/**
 * One ledger call for a chunk, into `columns`. A node with a block also needs the transfers of
 * its own time (the same block may fund it), so its read reaches one millisecond further; only
 * the rows the order rule allows are kept (`mayFund`, docs/risk-model.md §1), so a reader that
 * returns a little too much cannot skew the split. A reader in memory writes the columns itself
 * (no row object); any other reader's rows are copied in, in ledger order.
 */
async function readChunk(
  input: FrontierTraceInput,
  chunk: ReadonlyArray<TraceNode>,
  limit: number,
  columns: LedgerColumns,
): Promise<RowsOf> {
  const { ledger, forward, network, tokenId } = input;
  if (forward && ledger.ledgerOutgoingColumns) {
    await ledger.ledgerOutgoingColumns(network, tokenId, chunk.map(outgoingQuery), limit, columns);
    return (n, k, order) => columnRows(n, columns, k, true, limit, order);
  }
  if (!forward && ledger.ledgerIncomingColumns) {
    await ledger.ledgerIncomingColumns(network, tokenId, chunk.map(incomingQuery), limit, columns);
    return (n, k, order) => columnRows(n, columns, k, false, limit, order);
  }
  columns.reset();
  if (chunk.length === 0) return () => ({ count: 0, complete: true });
  const rows = forward
    ? await ledger.ledgerOutgoing(network, tokenId, chunk.map(outgoingQuery), limit)
    : await ledger.ledgerIncoming(network, tokenId, chunk.map(incomingQuery), limit);
  const byAddress = new Map<string, LedgerTransfer[]>();
  for (const r of rows) {
    const key = forward ? r.from : r.to;
    const list = byAddress.get(key);
    if (list) list.push(r);
    else byAddress.set(key, [r]);
  }
  const complete: boolean[] = [];
  for (const n of chunk) {
    const own = objectRows(n, byAddress.get(n.address) ?? [], forward, limit);
    for (const r of own.rows) {
      columns.push(
        r.occurredAt,
        r.amount,
        r.block ?? Number.NaN,
        r.logIndex,
        forward ? r.to : r.from,
        r.txHash,
      );
    }
    columns.endQuery();
    complete.push(own.complete);
  }
  return (_n, k, order) => {
    const start = columns.starts[k] as number;
    const count = (columns.starts[k + 1] as number) - start;
    order.length = 0;
    for (let i = 0; i < count; i++) order.push(start + i);
    return { count, complete: complete[k] as boolean };
  };
}

/**
 * The k-th query's rows of a column read, the order rule applied, in ledger order (an incoming
 * read gives the latest first, so it is walked backwards): what {@link objectRows} gives.
 */
function columnRows(
  n: TraceNode,
  columns: LedgerColumns,
  k: number,
  forward: boolean,
  limit: number,
  order: number[],
): OwnRows {
  const start = columns.starts[k] as number;
  const end = columns.starts[k + 1] as number;
  let complete = end - start < limit;
  const { occurredAt, block, logIndex } = columns;
  const p = n.position;
  const until = n.until;
  order.length = 0;
  for (let s = 0; s < end - start; s++) {
    const r = forward ? start + s : end - 1 - s;
    const t = occurredAt[r] as number;
    const b = block[r] as number;
    if (!mayFundAt(forward, p, t, Number.isNaN(b) ? null : b, logIndex[r] as number)) continue;
    if (until !== null && !(t < until)) {
      complete = true;
      continue;
    }
    order.push(r);
  }
  return { count: order.length, complete };
}

/** `mayFund` between node position `p` and a row given by its fields (forward: p funds the row). */
function mayFundAt(
  forward: boolean,
  p: LedgerPosition,
  t: number,
  block: number | null,
  logIndex: number,
): boolean {
  if (p.occurredAt !== t) return forward ? p.occurredAt < t : t < p.occurredAt;
  if (p.block === null || block === null) return false;
  if (p.block !== block) return forward ? p.block < block : block < p.block;
  if (p.logIndex >= 0 && logIndex >= 0) return forward ? p.logIndex < logIndex : logIndex < p.logIndex;
  return true;
}

/**
 * The rows of one node in ledger order, and whether they are all its rows (fewer than `limit`
 * came back, or a forward read passed the node's `until`). Rows the order rule does not allow
 * (`mayFund`, docs/risk-model.md §1) are dropped.
 */
function objectRows(
  n: TraceNode,
  rows: ReadonlyArray<LedgerTransfer>,
  forward: boolean,
  limit: number,
): { rows: LedgerTransfer[]; complete: boolean } {
  let complete = rows.length < limit;
  const inWindow = rows.filter((r) => (forward ? mayFund(n.position, r) : mayFund(r, n.position)));
  if (n.until === null) return { rows: inWindow.sort(compareLedgerTransfers), complete };
  const until = n.until;
  const bounded = inWindow.filter((r) => r.occurredAt < until);
  if (bounded.length < inWindow.length) complete = true;
  return { rows: bounded.sort(compareLedgerTransfers), complete };
}
