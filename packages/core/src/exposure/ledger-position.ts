/**
 * Where a transfer sits on the chain, and which transfers may carry on the funds of which:
 * the order rule of docs/risk-model.md §1 ("Order of transfers"). Time first; inside one block
 * (both blocks known, same time) the log index when both have one.
 */
import type { Millis } from "../domain/records.js";

/** A transfer's place in the chain's order: its time, block (null: unknown) and log index. */
export interface LedgerPosition {
  readonly occurredAt: Millis;
  readonly block: number | null;
  /** Position inside the block when >= 0 (the EVM log index counts over the whole block). */
  readonly logIndex: number;
}

/** A position that only has a time (a trace start, or a ledger without blocks). */
export function timePosition(occurredAt: Millis): LedgerPosition {
  return { occurredAt, block: null, logIndex: -1 };
}

/**
 * True when funds that arrived by transfer `a` may have left by transfer `b` (`a` is funds
 * that `b` can carry on). `a` must be strictly earlier in time, or — same time, both blocks
 * known — in an earlier block, or in the same block:
 * - both with a log index (>= 0): a lower log index than `b`;
 * - otherwise the position inside the block is not known, and the funds may move on either way.
 * A ledger without block numbers is thus ordered by time alone, strictly.
 * `a` and `b` are never the same transfer in a trace (one arrives at, one leaves an address).
 */
export function mayFund(a: LedgerPosition, b: LedgerPosition): boolean {
  if (a.occurredAt !== b.occurredAt) return a.occurredAt < b.occurredAt;
  if (a.block === null || b.block === null) return false;
  if (a.block !== b.block) return a.block < b.block;
  if (a.logIndex >= 0 && b.logIndex >= 0) return a.logIndex < b.logIndex;
  return true;
}

/** Whether a read must reach transfers at the position's own time (it has a block). */
export function readsSameTime(p: LedgerPosition): boolean {
  return p.block !== null;
}
