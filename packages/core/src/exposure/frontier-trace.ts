/**
 * The hop-by-hop walk shared by transfer and address exposure: per hop, one resolver call for
 * the new addresses and one ledger call per chunk of the frontier, heaviest weight first,
 * within an edge budget; a weight below the floor is not followed.
 */

import { UNDEFINED_CATEGORY } from "../domain/entity-categories.js";
import type { Proximity } from "../domain/enums.js";
import type { LedgerTransfer } from "../domain/records.js";
import type {
  IncomingQuery,
  LedgerReader,
  LumpedRows,
  LumpQuery,
  OutgoingQuery,
} from "../ports/ledger-reader.js";
import type { AddressScreen } from "../ports/reference-sources.js";
import type { EntityResolver, ResolvedEntity } from "./entity-resolver.js";
import type { ExposureTally, TracePath } from "./exposure-tally.js";
import { compareLedgerTransfers } from "./ledger-index.js";
import { mayFund, readsSameTime } from "./ledger-position.js";
import { creditResolvedLight } from "./resolved-light.js";
import type { TimeSpan } from "./sanctions-as-of.js";
import {
  carries,
  compareNodes,
  type MergedNodes,
  nodesOf,
  pathOf,
  splitNode,
  splitParts,
  type TraceNode,
  txPathOf,
} from "./trace-node.js";

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
 * `undefined`. So each hop keeps them apart from the nodes it follows (`light`, unsorted): only
 * the followed ones are sorted. The resolved light ones are credited per category by typed
 * sorts (`creditResolvedLight`), the unresolved ones at once ({@link ExposureTally.creditMany}),
 * both with the result of crediting them one by one heaviest first.
 */
export async function runFrontierTrace(input: FrontierTraceInput): Promise<FrontierTraceOutcome> {
  const { tally, proximityAt, maxHops, minPathWeight } = input;
  const known = new Map<string, ResolvedEntity | null>();
  const explain = (n: TraceNode) => () => ({ addresses: pathOf(n), txHashes: txPathOf(n) });
  const unexplained = (n: TraceNode): void =>
    tally.credit(UNDEFINED_CATEGORY, null, n.weight, n.hop, proximityAt(n.hop), explain(n));
  /** Nodes at or above the floor, heaviest first. */
  let frontier = [...input.roots].sort(compareNodes);
  /** Unresolved nodes below the floor, in no order: each is lighter than every node of `frontier`. */
  let light: TraceNode[] = [];
  let edgesRead = 0;
  let truncated = false;
  let hops = frontier.reduce((m, n) => Math.max(m, n.hop), 0);
  while (frontier.length > 0 || light.length > 0) {
    const toFollow: TraceNode[] = [];
    for (const n of frontier) {
      if (n.hop >= maxHops || n.weight < minPathWeight) unexplained(n);
      else toFollow.push(n);
    }
    creditLight(light, tally, proximityAt, explain);
    const children: MergedNodes = new Map();
    const lumpable = lumpableOf(input, toFollow);
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
      const toRead = over === null ? chunk : chunk.filter((n) => !over.has(n));
      const lumps = await readLumps(input, lumpable, toRead, remaining + 1);
      const rows = await readChunk(
        input,
        lumps === null ? toRead : toRead.filter((n) => !lumps.has(n)),
        remaining + 1,
      );
      let left = remaining;
      for (const n of chunk) {
        if (over?.has(n)) {
          unexplained(n);
          truncated = true;
          continue;
        }
        const lump = lumps?.get(n);
        if (lump) {
          const own = lumpedRowsOf(n, lump, remaining + 1);
          if (!own.complete || own.count > left) {
            unexplained(n);
            truncated = true;
            continue;
          }
          left -= own.count;
          edgesRead += own.count;
          if (own.sum > 0 && Number.isFinite(own.sum)) splitParts(n, own.rows, own.sum, false, children);
          else unexplained(n);
          continue;
        }
        const own = rowsOf(n, rows.get(n.address) ?? [], input.forward, remaining + 1);
        if (!own.complete || own.rows.length > left) {
          // Its edges do not fit in what is left: skipped; lighter nodes may still fit.
          unexplained(n);
          truncated = true;
          continue;
        }
        left -= own.rows.length;
        edgesRead += own.rows.length;
        if (!splitNode(n, own.rows, input.forward, children)) unexplained(n);
      }
    }
    const met = nodesOf(children);
    if (met.length === 0) break;
    const ask: string[] = [];
    for (const n of met) {
      if (known.has(n.address)) continue;
      known.set(n.address, null);
      ask.push(n.address);
    }
    if (ask.length > 0) {
      const found = await input.resolver.resolve(input.network, ask, input.span);
      for (const a of ask) known.set(a, found.get(a) ?? null);
    }
    // One pass: the nodes to follow, and the light ones resolved (credited below) or not.
    frontier = [];
    light = [];
    const resolvedLight: TraceNode[] = [];
    for (const n of met) {
      if (!(n.weight < minPathWeight)) frontier.push(n);
      else if (known.get(n.address)) resolvedLight.push(n);
      else light.push(n);
    }
    frontier.sort(compareNodes);
    hops = Math.max(hops, (frontier[0] ?? firstOf([...light, ...resolvedLight])).hop);
    // Resolved nodes are credited heaviest first: the followed ones, then the light ones. The
    // path of a followed one is built only when it becomes its category's largest, by one
    // function for the hop, not two closures per credited node.
    let crediting: TraceNode | null = null;
    let how: ResolvedEntity["cluster"];
    const creditingPath = (): TracePath => {
      const n = crediting as TraceNode;
      return { addresses: pathOf(n), txHashes: txPathOf(n), ...(how ? { cluster: how } : {}) };
    };
    const attribute = (n: TraceNode): boolean => {
      const entity = known.get(n.address);
      if (!entity) return true;
      crediting = n;
      how = entity.cluster;
      tally.credit(entity.category, entity.name, n.weight, n.hop, proximityAt(n.hop), creditingPath);
      return false;
    };
    frontier = frontier.filter(attribute);
    creditResolvedLight(tally, resolvedLight, (n) => known.get(n.address) as ResolvedEntity, proximityAt);
  }
  return { edgesRead, hops, truncated };
}

/**
 * What lumping needs in this hop, or null when it is off: the screen of addresses that may
 * resolve (the resolver's, taken once per hop) and per address its visits in the hop (a hub
 * followed at several positions: its visits share older rows, whose parts merge into one child
 * and may reach the floor together, so each lumped read is told of all of them).
 */
function lumpableOf(
  input: FrontierTraceInput,
  toFollow: ReadonlyArray<TraceNode>,
): { readonly screen: AddressScreen; readonly visits: ReadonlyMap<string, LumpQuery["visits"]> } | null {
  if (input.forward || !input.ledger.ledgerIncomingLumped || !input.resolver.addressScreen) return null;
  if (!(input.minPathWeight > 0)) return null;
  const screen = input.resolver.addressScreen(input.network);
  if (screen === null) return null;
  const visits = new Map<string, Array<LumpQuery["visits"][number]>>();
  for (const n of toFollow) {
    const visit = { prefixBefore: n.position.occurredAt, before: incomingQuery(n).before, weight: n.weight };
    const list = visits.get(n.address);
    if (list) list.push(visit);
    else visits.set(n.address, [visit]);
  }
  return { screen, visits };
}

/**
 * Lumped reads (`LedgerReader.ledgerIncomingLumped`) of the nodes of `chunk` that may be lumped:
 * backward, with no `until`. Null when lumping is off; a node the
 * reader does not lump is not in the map (it is read as usual).
 */
async function readLumps(
  input: FrontierTraceInput,
  lumpable: ReturnType<typeof lumpableOf>,
  chunk: ReadonlyArray<TraceNode>,
  limit: number,
): Promise<Map<TraceNode, LumpedRows> | null> {
  const read = input.ledger.ledgerIncomingLumped;
  if (lumpable === null || !read) return null;
  const asked = chunk.filter((n) => n.until === null);
  if (asked.length === 0) return null;
  const queries = asked.map(
    (n): LumpQuery => ({
      address: n.address,
      prefixBefore: n.position.occurredAt,
      before: incomingQuery(n).before,
      weight: n.weight,
      floor: input.minPathWeight,
      visits: lumpable.visits.get(n.address) ?? [],
    }),
  );
  const answers = await read.call(input.ledger, input.network, input.tokenId, queries, lumpable.screen);
  const out = new Map<TraceNode, LumpedRows>();
  for (const [i, n] of asked.entries()) {
    const a = answers[i];
    // A lump larger than a read could return is left to the read (it finds the node incomplete).
    if (a && a.prefixCount + a.tail.length < limit) out.set(n, a);
  }
  return out;
}

/**
 * A lumped node's rows as `rowsOf` and `splitNode` would take them: the presented prefix rows
 * and the tail rows the order rule allows, in ledger order; the window's row count (every row
 * read, presented or not); and the split's sum, the prefix's sum continued over the tail in
 * ledger order, as `splitNode` adds it.
 */
function lumpedRowsOf(
  n: TraceNode,
  lump: LumpedRows,
  limit: number,
): { rows: LedgerTransfer[]; count: number; sum: number; complete: boolean } {
  const tail = lump.tail.filter((r) => mayFund(r, n.position)).sort(compareLedgerTransfers);
  let sum = lump.prefixSum;
  for (const r of tail) if (carries(r)) sum += r.amount;
  return {
    rows: [...lump.presented, ...tail],
    count: lump.prefixCount + tail.length,
    sum,
    complete: lump.prefixCount + lump.tail.length < limit,
  };
}

/** The node of `nodes` a sort by {@link compareNodes} puts first (nodes is not empty). */
function firstOf(nodes: ReadonlyArray<TraceNode>): TraceNode {
  let first = nodes[0] as TraceNode;
  for (const n of nodes) if (compareNodes(n, first) < 0) first = n;
  return first;
}

/**
 * Credits unresolved nodes below the floor as `undefined`, as crediting each heaviest first
 * would: the tally keeps the path of the first largest contribution, which is the first node
 * of the sorted order, so only its path is built.
 */
function creditLight(
  light: ReadonlyArray<TraceNode>,
  tally: ExposureTally,
  proximityAt: (hop: number) => Proximity,
  explain: (n: TraceNode) => () => TracePath,
): void {
  if (light.length === 0) return;
  const first = firstOf(light);
  tally.credit(UNDEFINED_CATEGORY, null, first.weight, first.hop, proximityAt(first.hop), explain(first));
  tally.creditMany(
    UNDEFINED_CATEGORY,
    light.filter((n) => n !== first),
    proximityAt,
  );
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

/**
 * One ledger call for a chunk; rows grouped by the frontier address they belong to. A node with
 * a block also needs the transfers of its own time (the same block may fund it), so its read
 * reaches one millisecond further; `rowsOf` keeps only the rows the order rule allows.
 */
async function readChunk(
  input: FrontierTraceInput,
  chunk: ReadonlyArray<TraceNode>,
  limit: number,
): Promise<Map<string, LedgerTransfer[]>> {
  if (chunk.length === 0) return new Map();
  const rows = input.forward
    ? await input.ledger.ledgerOutgoing(input.network, input.tokenId, chunk.map(outgoingQuery), limit)
    : await input.ledger.ledgerIncoming(input.network, input.tokenId, chunk.map(incomingQuery), limit);
  const out = new Map<string, LedgerTransfer[]>();
  for (const r of rows) {
    const key = input.forward ? r.from : r.to;
    const list = out.get(key);
    if (list) list.push(r);
    else out.set(key, [r]);
  }
  return out;
}

/**
 * The rows of one node in ledger order, and whether they are all its rows (fewer than `limit`
 * came back, or a forward read passed the node's `until`). Rows the order rule does not allow
 * (`mayFund`, docs/risk-model.md §1) are dropped, so a reader that returns a little too much
 * cannot skew the split.
 */
function rowsOf(
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
