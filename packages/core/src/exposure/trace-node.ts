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

/** Children met in one hop, by address, then by position (a time, or time, block and log index). */
export type MergedNodes = Map<string, Map<number | string, TraceNode>>;

/** Every node of `merged`, in no particular order. */
export function nodesOf(merged: MergedNodes): TraceNode[] {
  const out: TraceNode[] = [];
  for (const atAddress of merged.values()) for (const n of atAddress.values()) out.push(n);
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
  for (const r of rows) if (r.amount > 0 && r.from !== r.to) sum += r.amount;
  if (!(sum > 0 && Number.isFinite(sum))) return false;
  for (const r of rows) {
    if (!(r.amount > 0) || r.from === r.to) continue;
    const address = forward ? r.to : r.from;
    const part = node.weight * (r.amount / sum);
    // A position without a block is its time alone (the log index orders nothing then). Keyed by
    // the held address string, then the time as a number: no key text is built per edge.
    const key = r.block === null ? r.occurredAt : `${r.occurredAt}\u0000${r.block}\u0000${r.logIndex}`;
    let atAddress = into.get(address);
    if (!atAddress) {
      atAddress = new Map();
      into.set(address, atAddress);
    }
    const met = atAddress.get(key);
    if (!met) {
      atAddress.set(key, {
        address,
        position: r.block === null ? { occurredAt: r.occurredAt, block: null, logIndex: -1 } : r,
        txHash: r.txHash,
        weight: part,
        hop: node.hop + 1,
        parent: node,
        largestPart: part,
        until: null,
      });
    } else {
      met.weight += part;
      if (part > met.largestPart) {
        met.largestPart = part;
        met.parent = node;
        met.txHash = r.txHash;
      }
    }
  }
  return true;
}
