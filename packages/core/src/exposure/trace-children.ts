/**
 * The children one hop of a trace meets, held as columns: a node's weight split over the rows
 * that funded it (or that it funded), parts that reach one address at one position merged. Most
 * children of a hub-heavy hop are lighter than the weight floor and end as `undefined` without
 * being followed, so a child becomes a `TraceNode` object only when the walk needs one
 * ({@link TraceChildren.node}); the others stay a few numbers in arrays.
 */
import type { LedgerColumns } from "../ports/ledger-columns.js";
import type { LedgerPosition } from "./ledger-position.js";
import type { TraceNode } from "./trace-node.js";

/** Turns a hash column entry into the transaction hash (see `LedgerColumns.hash`). */
export type TxHashOf = (hash: string | number) => string;

/** Children of one hop, by address and position; cleared for the next hop. */
export class TraceChildren {
  /** Children held. */
  size = 0;
  /** The hop every child is met at. */
  hop = 0;
  readonly #address: string[] = [];
  readonly #occurredAt: number[] = [];
  /** NaN: no block. */
  readonly #block: number[] = [];
  /** -1 when there is no block (the log index orders nothing then). */
  readonly #logIndex: number[] = [];
  readonly #hash: Array<string | number> = [];
  readonly #weight: number[] = [];
  readonly #largestPart: number[] = [];
  readonly #parent: TraceNode[] = [];
  /** The next child at the same address (another position), or -1. */
  readonly #next: number[] = [];
  /** Per address its first child. */
  readonly #first = new Map<string, number>();

  /** Forgets every child. */
  clear(): void {
    this.size = 0;
    this.#address.length = 0;
    this.#occurredAt.length = 0;
    this.#block.length = 0;
    this.#logIndex.length = 0;
    this.#hash.length = 0;
    this.#weight.length = 0;
    this.#largestPart.length = 0;
    this.#parent.length = 0;
    this.#next.length = 0;
    this.#first.clear();
  }

  /**
   * Splits `node`'s weight over the rows `order[0..count)` of `rows` (positions in it, in ledger
   * order) by amount, merging each part into the child already met at the same address and
   * position (the same time when the row has no block; the same time, block and log index when
   * it has). Rows of no amount and self-transfers carry nothing and are skipped. Returns false
   * when nothing was carried (the trail ends at `node`). The parts are the products and sums of
   * the row-object split it replaces, in the same order, so every weight is the same to the bit.
   */
  split(node: TraceNode, rows: LedgerColumns, order: ArrayLike<number>, count: number): boolean {
    const { amount, occurredAt, block, logIndex, peer, hash } = rows;
    const self = node.address;
    let sum = 0;
    for (let k = 0; k < count; k++) {
      const r = order[k] as number;
      const a = amount[r] as number;
      if (a > 0 && peer[r] !== self) sum += a;
    }
    if (!(sum > 0 && Number.isFinite(sum))) return false;
    const hop = node.hop + 1;
    this.hop = hop;
    for (let k = 0; k < count; k++) {
      const r = order[k] as number;
      const a = amount[r] as number;
      const address = peer[r] as string;
      if (!(a > 0) || address === self) continue;
      const part = node.weight * (a / sum);
      const t = occurredAt[r] as number;
      const b = block[r] as number;
      const noBlock = Number.isNaN(b);
      const l = noBlock ? -1 : (logIndex[r] as number);
      let i = this.#first.get(address) ?? -1;
      let last = -1;
      while (i >= 0) {
        if (
          this.#occurredAt[i] === t &&
          (noBlock ? Number.isNaN(this.#block[i]) : this.#block[i] === b && this.#logIndex[i] === l)
        )
          break;
        last = i;
        i = this.#next[i] as number;
      }
      if (i < 0) {
        i = this.size++;
        this.#address.push(address);
        this.#occurredAt.push(t);
        this.#block.push(b);
        this.#logIndex.push(l);
        this.#hash.push(hash[r] as string | number);
        this.#weight.push(part);
        this.#largestPart.push(part);
        this.#parent.push(node);
        this.#next.push(-1);
        if (last < 0) this.#first.set(address, i);
        else this.#next[last] = i;
      } else {
        this.#weight[i] = (this.#weight[i] as number) + part;
        if (part > (this.#largestPart[i] as number)) {
          this.#largestPart[i] = part;
          this.#parent[i] = node;
          this.#hash[i] = hash[r] as string | number;
        }
      }
    }
    return true;
  }

  /** Child `i`'s address. */
  address(i: number): string {
    return this.#address[i] as string;
  }

  /** Child `i`'s merged weight. */
  weight(i: number): number {
    return this.#weight[i] as number;
  }

  /** Child `i` as a node (a new object each call). */
  node(i: number, txHashOf: TxHashOf): TraceNode {
    const weight = this.#weight[i] as number;
    return {
      address: this.#address[i] as string,
      position: this.#position(i),
      txHash: txHashOf(this.#hash[i] as string | number),
      weight,
      hop: this.hop,
      parent: this.#parent[i] as TraceNode,
      largestPart: this.#largestPart[i] as number,
      until: null,
    };
  }

  /** `compareNodes` of two children: heaviest first, then by address and position. */
  compare(i: number, j: number): number {
    const wi = this.#weight[i] as number;
    const wj = this.#weight[j] as number;
    if (wi !== wj) return wj - wi;
    const ai = this.#address[i] as string;
    const aj = this.#address[j] as string;
    if (ai !== aj) return ai < aj ? -1 : 1;
    const p = this.#position(i);
    const q = this.#position(j);
    if (p.occurredAt !== q.occurredAt) return p.occurredAt - q.occurredAt;
    if (p.block !== q.block) return (p.block ?? -1) - (q.block ?? -1);
    return p.logIndex - q.logIndex;
  }

  #position(i: number): LedgerPosition {
    const b = this.#block[i] as number;
    return Number.isNaN(b)
      ? { occurredAt: this.#occurredAt[i] as number, block: null, logIndex: -1 }
      : { occurredAt: this.#occurredAt[i] as number, block: b, logIndex: this.#logIndex[i] as number };
  }
}
