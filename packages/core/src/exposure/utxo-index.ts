/**
 * The UTXO ledger in memory: transactions by txid, the input that spent each outpoint, and the
 * outputs paying each address. The in-memory store keeps its UTXO ledger in one; reads are
 * synchronous map lookups (a hop of a trace is one lookup per txid).
 *
 * Transactions are kept as given (the caller hands in private copies) with `spentBy` cleared;
 * reads return fresh objects with `spentBy` filled from the spends held. Spends are held per
 * spent transaction (its outputs' spends by vout), so filling a transaction's outputs is one
 * lookup, not one per output: on a 1M-transaction ledger those per-outpoint lookups (a key
 * string built and hashed, a miss in a table of millions) were about half of a warm trace's CPU
 * outside garbage collection.
 */
import type { Millis } from "../domain/records.js";
import type { SpendingInput, UtxoReceipt, UtxoTransaction } from "../domain/utxo.js";
import type { ReceivedQuery, SentQuery } from "../ports/utxo-ledger.js";

/** A spend: the spending input and when its transaction happened. */
interface Spend extends SpendingInput {
  readonly occurredAt: Millis;
}

/** An output paying an address: its transaction and index. */
interface Paid {
  readonly tx: UtxoTransaction;
  readonly vout: number;
  readonly value: number;
}

/** Key of a transaction. */
function txKey(network: string, txid: string): string {
  return `${network}\u0000${txid}`;
}

/** The spends of one transaction's outputs, indexed by vout (holes: unspent). */
type OutputSpends = Array<Spend | undefined>;

/** Key of an address. */
function addressKey(network: string, address: string): string {
  return `${network}\u0000${address}`;
}

/** Time, block, position, vout ascending (the reverse of the received order). */
function comparePaid(a: Paid, b: Paid): number {
  return (
    a.tx.occurredAt - b.tx.occurredAt ||
    (a.tx.block ?? -1) - (b.tx.block ?? -1) ||
    a.tx.position - b.tx.position ||
    (a.tx.txid < b.tx.txid ? -1 : a.tx.txid > b.tx.txid ? 1 : 0) ||
    a.vout - b.vout
  );
}

/** The spending input of a spend held, as reads give it (a fresh object), or null. */
function spendingInput(spend: Spend | undefined): SpendingInput | null {
  return spend ? { txid: spend.txid, vin: spend.vin } : null;
}

/** A UTXO ledger held in memory. */
export class UtxoIndex {
  private readonly txs = new Map<string, UtxoTransaction>();
  /** Key of a spent transaction ({@link txKey}) to the spends of its outputs. */
  private readonly spends = new Map<string, OutputSpends>();
  /** Address key to the outputs paying it, sorted by {@link comparePaid} when not in `unsorted`. */
  private readonly paid = new Map<string, Paid[]>();
  private readonly unsorted = new Set<string>();

  /** Transactions held. */
  get size(): number {
    return this.txs.size;
  }

  /** True when the transaction is held. */
  has(network: string, txid: string): boolean {
    return this.txs.has(txKey(network, txid));
  }

  /** Adds transactions not yet held (same network, txid); returns the ones added. */
  add(txs: ReadonlyArray<UtxoTransaction>): UtxoTransaction[] {
    const added: UtxoTransaction[] = [];
    for (const given of txs) {
      const key = txKey(given.network, given.txid);
      if (this.txs.has(key)) continue;
      const tx: UtxoTransaction = {
        ...given,
        inputs: given.inputs.map((i) => ({ ...i })),
        outputs: given.outputs.map((o) => ({ ...o, spentBy: null })),
      };
      this.txs.set(key, tx);
      for (const [vin, input] of tx.inputs.entries()) {
        if (input.coinbase || input.prevTxid === null || input.prevVout === null) continue;
        const spentKey = txKey(tx.network, input.prevTxid);
        let spends = this.spends.get(spentKey);
        if (!spends) {
          spends = [];
          this.spends.set(spentKey, spends);
        }
        spends[input.prevVout] ??= { txid: tx.txid, vin, occurredAt: tx.occurredAt };
      }
      for (const output of tx.outputs) {
        if (output.address === null) continue;
        const akey = addressKey(tx.network, output.address);
        let list = this.paid.get(akey);
        if (!list) {
          list = [];
          this.paid.set(akey, list);
        }
        list.push({ tx, vout: output.vout, value: output.value });
        this.unsorted.add(akey);
      }
      added.push(tx);
    }
    return added;
  }

  /** Removes one transaction with its spends and outputs; returns it, or null when not held. */
  remove(network: string, txid: string): UtxoTransaction | null {
    const key = txKey(network, txid);
    const tx = this.txs.get(key);
    if (!tx) return null;
    this.txs.delete(key);
    for (const input of tx.inputs) {
      if (input.coinbase || input.prevTxid === null || input.prevVout === null) continue;
      const spentKey = txKey(network, input.prevTxid);
      const spends = this.spends.get(spentKey);
      if (spends?.[input.prevVout]?.txid !== txid) continue;
      // `delete`, and the keys counted, not `every`: a vout can be as large as 2^32 - 1.
      delete spends[input.prevVout];
      if (Object.keys(spends).length === 0) this.spends.delete(spentKey);
    }
    for (const output of tx.outputs) {
      if (output.address === null) continue;
      const akey = addressKey(network, output.address);
      const list = this.paid.get(akey);
      if (!list) continue;
      const kept = list.filter((p) => p.tx !== tx);
      if (kept.length === 0) this.paid.delete(akey);
      else this.paid.set(akey, kept);
    }
    return tx;
  }

  /** The transactions of `network` in blocks at or above `height`, latest first (what a reorg removes). */
  blocksFrom(network: string, height: number): UtxoTransaction[] {
    const out: UtxoTransaction[] = [];
    for (const tx of this.txs.values()) {
      if (tx.network === network && tx.block !== null && tx.block >= height) out.push(tx);
    }
    return out.sort((a, b) => (b.block ?? 0) - (a.block ?? 0) || b.position - a.position);
  }

  /** The held transactions among `txids`, with `spentBy` filled (see the port). */
  transactions(network: string, txids: ReadonlyArray<string>): UtxoTransaction[] {
    const out: UtxoTransaction[] = [];
    for (const txid of new Set(txids)) {
      const key = txKey(network, txid);
      const tx = this.txs.get(key);
      if (tx) out.push(this.withSpends(tx, key));
    }
    return out;
  }

  /** Outputs paying each address before its time, latest first, at most `limit` each. */
  received(network: string, queries: ReadonlyArray<ReceivedQuery>, limit: number): UtxoReceipt[] {
    const out: UtxoReceipt[] = [];
    if (limit <= 0) return out;
    for (const q of queries) {
      const list = this.sortedPaid(network, q.address);
      // The list is sorted by time first: start below the first output at or after `before`
      // (a binary search, not a walk past every later output of a busy address).
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (list[mid]!.tx.occurredAt < q.before) lo = mid + 1;
        else hi = mid;
      }
      let taken = 0;
      for (let i = lo - 1; i >= 0 && taken < limit; i--) {
        const p = list[i]!;
        out.push(this.receiptOf(p, q.address));
        taken++;
      }
    }
    return out;
  }

  /** Outputs paying each address spent after its time, earliest spend first, at most `limit` each. */
  spentFrom(network: string, queries: ReadonlyArray<SentQuery>, limit: number): UtxoReceipt[] {
    const out: UtxoReceipt[] = [];
    if (limit <= 0) return out;
    for (const q of queries) {
      const spent: Array<{ paid: Paid; spend: Spend }> = [];
      for (const p of this.paid.get(addressKey(network, q.address)) ?? []) {
        const spend = this.spends.get(txKey(network, p.tx.txid))?.[p.vout];
        if (spend && spend.occurredAt > q.after) spent.push({ paid: p, spend });
      }
      spent.sort(
        (a, b) =>
          a.spend.occurredAt - b.spend.occurredAt ||
          (a.spend.txid < b.spend.txid ? -1 : a.spend.txid > b.spend.txid ? 1 : 0) ||
          a.spend.vin - b.spend.vin,
      );
      for (const { paid } of spent.slice(0, limit)) out.push(this.receiptOf(paid, q.address));
    }
    return out;
  }

  /** A fresh copy of `tx` (held under `key`) with every output's `spentBy` filled. */
  private withSpends(tx: UtxoTransaction, key: string): UtxoTransaction {
    const spends = this.spends.get(key);
    return {
      ...tx,
      inputs: tx.inputs.map((i) => ({ ...i })),
      outputs: tx.outputs.map((o) => ({ ...o, spentBy: spendingInput(spends?.[o.vout]) })),
    };
  }

  /** The input that spent an outpoint, or null. */
  private spentBy(network: string, txid: string, vout: number): SpendingInput | null {
    return spendingInput(this.spends.get(txKey(network, txid))?.[vout]);
  }

  /** The receipt of an output paying `address`. */
  private receiptOf(p: Paid, address: string): UtxoReceipt {
    return {
      network: p.tx.network,
      txid: p.tx.txid,
      vout: p.vout,
      address,
      value: p.value,
      occurredAt: p.tx.occurredAt,
      block: p.tx.block,
      position: p.tx.position,
      spentBy: this.spentBy(p.tx.network, p.tx.txid, p.vout),
    };
  }

  /** The outputs paying an address, sorted. */
  private sortedPaid(network: string, address: string): ReadonlyArray<Paid> {
    const key = addressKey(network, address);
    const list = this.paid.get(key);
    if (!list) return [];
    if (this.unsorted.delete(key)) list.sort(comparePaid);
    return list;
  }
}
