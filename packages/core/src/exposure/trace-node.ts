/**
 * A point of a trace: funds of weight `weight` held by `address`, to be followed back to the
 * transfers that may have funded `position` (or forward to those it may have funded), met
 * `hop` hops from the start.
 */
import type { LedgerTransfer, Millis } from "../domain/records.js";
import type { LedgerPosition } from "./ledger-position.js";

/** One frontier entry. Built and merged only inside a trace. */
export interface TraceNode {
  readonly address: string;
  /** The connecting transfer's place (the start's time at the start). */
  readonly position: LedgerPosition;
  /** Hash of the connecting transfer of the largest part (beside `parent`); null at the start. */
  txHash: string | null;
  weight: number;
  readonly hop: number;
  /** The node the funds came through; null at the start. */
  parent: TraceNode | null;
  /** Weight of the single largest part merged into this node (decides its `parent`). */
  largestPart: number;
  /** Forward reads only: transfers at or after this time are ignored (null: no bound). */
  readonly until: Millis | null;
}

/**
 * Children met in one hop, by address: the one node met there or, once a second position is met
 * at that address, its nodes by position: a number (see `fastKey`) or, when a node of another
 * position holds that number or the position has no number, its full text. Most addresses of a
 * hop are met at one position: they cost no map of their own.
 */
export type MergedNodes = Map<string, TraceNode | Map<number | string, TraceNode>>;

/** Log indexes (-1, a native value, and up) and blocks a number key packs: exact below 2^53. */
const LOG_SPAN = 2 ** 21;
const BLOCK_SPAN = 2 ** 32;

/**
 * A number naming a position without building text: its time when it has no block, else its
 * block and log index packed into a negative number (times are not negative); the time of a
 * position with a block is checked on a hit (see `mergeAt`). Null outside the packed range.
 */
function fastKey(r: LedgerPosition): number | null {
  if (r.block === null) return r.occurredAt;
  const { block, logIndex } = r;
  if (!(block >= 0 && block < BLOCK_SPAN && logIndex >= -1 && logIndex < LOG_SPAN - 1)) return null;
  if (!Number.isInteger(block) || !Number.isInteger(logIndex)) return null;
  return -1 - (block * LOG_SPAN + logIndex + 1);
}

/** The whole position as text: the key of last resort, never equal to a number key. */
function fullKey(r: LedgerPosition): string {
  return r.block === null ? `${r.occurredAt}` : `${r.occurredAt}\u0000${r.block}\u0000${r.logIndex}`;
}

/** Whether `node` sits at `r`'s position. */
function atPosition(node: TraceNode, r: LedgerPosition): boolean {
  const p = node.position;
  if (p.occurredAt !== r.occurredAt || p.block !== r.block) return false;
  return r.block === null || p.logIndex === r.logIndex;
}

/** Every node of `merged`, in no particular order. */
export function nodesOf(merged: MergedNodes): TraceNode[] {
  const out: TraceNode[] = [];
  for (const atAddress of merged.values()) {
    if (atAddress instanceof Map) for (const n of atAddress.values()) out.push(n);
    else out.push(atAddress);
  }
  return out;
}

/** A start node of weight 1 at `position`. */
export function rootNode(
  address: string,
  position: LedgerPosition,
  hop: number,
  until: Millis | null = null,
): TraceNode {
  return { address, position, txHash: null, weight: 1, hop, parent: null, largestPart: 1, until };
}

/** Addresses from the start to `node`. */
export function pathOf(node: TraceNode): string[] {
  const out: string[] = [];
  for (let n: TraceNode | null = node; n !== null; n = n.parent) out.push(n.address);
  return out.reverse();
}

/** Hashes of the transfers from the start to `node`, one per hop after the start. */
export function txPathOf(node: TraceNode): string[] {
  const out: string[] = [];
  for (let n: TraceNode | null = node; n !== null; n = n.parent) if (n.txHash !== null) out.push(n.txHash);
  return out.reverse();
}

/** Heaviest first, then by address and position, so a trace is deterministic. */
export function compareNodes(a: TraceNode, b: TraceNode): number {
  if (a.weight !== b.weight) return b.weight - a.weight;
  if (a.address !== b.address) return a.address < b.address ? -1 : 1;
  const p = a.position;
  const q = b.position;
  if (p.occurredAt !== q.occurredAt) return p.occurredAt - q.occurredAt;
  if (p.block !== q.block) return (p.block ?? -1) - (q.block ?? -1);
  return p.logIndex - q.logIndex;
}

/**
 * Splits `node`'s weight over the transfers that funded it (backward) or that it funded
 * (forward), by amount, merging into `into` children already met at the same address and
 * position. Transfers of no amount and self-transfers carry nothing and are skipped. Returns
 * false when nothing was carried (the trail ends at `node`).
 */
export function splitNode(
  node: TraceNode,
  rows: ReadonlyArray<LedgerTransfer>,
  forward: boolean,
  into: MergedNodes,
): boolean {
  let sum = 0;
  for (const r of rows) if (carries(r)) sum += r.amount;
  if (!(sum > 0 && Number.isFinite(sum))) return false;
  splitParts(node, rows, sum, forward, into);
  return true;
}

/** Whether a row carries weight in a split: an amount above 0, between two addresses. */
export function carries(r: LedgerTransfer): boolean {
  return r.amount > 0 && r.from !== r.to;
}

/**
 * The second half of {@link splitNode}: gives each row of `rows` that carries weight the part
 * `node.weight * (amount / sum)` and merges it into `into`. `sum` is the sum `splitNode` takes
 * (a lumped read gives the rows it presents and the sum over all of them, see
 * `LedgerReader.ledgerIncomingLumped`).
 */
export function splitParts(
  node: TraceNode,
  rows: ReadonlyArray<LedgerTransfer>,
  sum: number,
  forward: boolean,
  into: MergedNodes,
): void {
  for (const r of rows) {
    if (!(r.amount > 0) || r.from === r.to) continue;
    const address = forward ? r.to : r.from;
    const part = node.weight * (r.amount / sum);
    const held = into.get(address);
    if (held === undefined) into.set(address, childOf(node, address, r, part));
    else if (!(held instanceof Map)) {
      if (atPosition(held, r)) mergePart(held, node, r, part);
      else {
        // A second position at this address: its nodes by position from now on.
        const atAddress = new Map<number | string, TraceNode>([
          [fastKey(held.position) ?? fullKey(held.position), held],
        ]);
        into.set(address, atAddress);
        mergeAt(atAddress, node, address, r, part);
      }
    } else mergeAt(held, node, address, r, part);
  }
}

/** A new child of `parent` at `address`, met through `r` with `part` of its weight. */
function childOf(parent: TraceNode, address: string, r: LedgerTransfer, part: number): TraceNode {
  return {
    address,
    position: r.block === null ? { occurredAt: r.occurredAt, block: null, logIndex: -1 } : r,
    txHash: r.txHash,
    weight: part,
    hop: parent.hop + 1,
    parent,
    largestPart: part,
    until: null,
  };
}

/** Adds `part` (from `parent`, through `r`) to `met`; the largest part names its parent. */
function mergePart(met: TraceNode, parent: TraceNode, r: LedgerTransfer, part: number): void {
  met.weight += part;
  if (part > met.largestPart) {
    met.largestPart = part;
    met.parent = parent;
    met.txHash = r.txHash;
  }
}

/**
 * Merges a part into the nodes of one address by position. A position without a block is its
 * time alone (the log index orders nothing then). Keyed by a number for the position: no key
 * text is built per edge, unless another position took the number first (a time that equals a
 * packed block, or the same block and log index at another time: data no chain gives, but met
 * exactly).
 */
function mergeAt(
  atAddress: Map<number | string, TraceNode>,
  parent: TraceNode,
  address: string,
  r: LedgerTransfer,
  part: number,
): void {
  let key: number | string | null = fastKey(r);
  let met = key === null ? undefined : atAddress.get(key);
  if (key === null || (met !== undefined && !atPosition(met, r))) {
    key = fullKey(r);
    met = atAddress.get(key);
  }
  if (!met) atAddress.set(key, childOf(parent, address, r, part));
  else mergePart(met, parent, r, part);
}
