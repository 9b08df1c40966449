/**
 * The rows of one ledger read as columns: what a reader in memory hands a tracer instead of one
 * `LedgerTransfer` object per row (a hub-heavy trace reads thousands of rows and keeps a handful;
 * the objects were most of its garbage). One buffer, reused read after read by its owner.
 */
import type { Millis } from "../domain/records.js";

/** Growable columns of read rows, grouped by query. */
export class LedgerColumns {
  /** Rows held. */
  size = 0;
  /** Query q's rows are `starts[q]` to `starts[q + 1] - 1`, in the reader's order. */
  readonly starts: number[] = [0];
  occurredAt = new Float64Array(256);
  amount = new Float64Array(256);
  /** NaN: no block. */
  block = new Float64Array(256);
  logIndex = new Float64Array(256);
  /** The other address: the sender of an incoming row, the recipient of an outgoing one. */
  readonly peer: string[] = [];
  /**
   * The row's transaction hash, or a number the reader turns into it (`LedgerColumnReader.txHashAt`)
   * when decoding it costs something: a trace needs the hash of few rows.
   */
  readonly hash: Array<string | number> = [];

  /** Empties the buffer for the next read. */
  reset(): void {
    this.size = 0;
    this.starts.length = 1;
    this.peer.length = 0;
    this.hash.length = 0;
  }

  /** Appends a row to the current query's. */
  push(
    occurredAt: Millis,
    amount: number,
    block: number,
    logIndex: number,
    peer: string,
    hash: string | number,
  ): void {
    const i = this.size;
    if (i === this.amount.length) this.#grow();
    this.occurredAt[i] = occurredAt;
    this.amount[i] = amount;
    this.block[i] = block;
    this.logIndex[i] = logIndex;
    this.peer.push(peer);
    this.hash.push(hash);
    this.size = i + 1;
  }

  /** Ends the current query: the next rows pushed are the next query's. */
  endQuery(): void {
    this.starts.push(this.size);
  }

  #grow(): void {
    const n = this.amount.length * 2;
    const f = (a: Float64Array) => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    this.occurredAt = f(this.occurredAt);
    this.amount = f(this.amount);
    this.block = f(this.block);
    this.logIndex = f(this.logIndex);
  }
}
