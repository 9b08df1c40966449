/**
 * A point of a trace: funds of weight `weight` held by `address`, to be followed back to the
 * transfers that may have funded `position` (or forward to those it may have funded), met
 * `hop` hops from the start.
 */
import type { Millis } from "../domain/records.js";
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
