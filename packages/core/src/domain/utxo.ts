/**
 * The UTXO ledger (Bitcoin, Litecoin): transactions with ordered inputs that spend earlier
 * outputs ("outpoints", `txid:vout`) and ordered outputs that later inputs spend. Values are
 * integer counts of the chain's smallest unit (satoshis, litoshis), kept as JavaScript safe
 * integers: 21 million BTC is 2.1e15 satoshis, below 2^53. Never a float amount in BTC.
 *
 * Unlike the account-model ledger (`LedgerTransfer`, one row per from -> to), a UTXO
 * transaction keeps exactly which coins it spent, so tracing follows those coins, not
 * everything an address ever received (docs/risk-model.md, "Bitcoin").
 */
import type { Millis } from "./records.js";

/** A count of the chain's smallest unit (satoshis): a non-negative safe integer. */
export type Sats = number;

/** Satoshis in one coin (BTC, LTC). */
export const SATS_PER_COIN = 100_000_000;

/** An output of a transaction, named by the transaction's id and the output's index. */
export interface Outpoint {
  readonly txid: string;
  readonly vout: number;
}

/** Where an output was spent: the spending transaction and the index of its input. */
export interface SpendingInput {
  readonly txid: string;
  readonly vin: number;
}

/**
 * One input of a transaction, in the transaction's order. A coinbase input spends no outpoint:
 * `coinbase` true, `prevTxid` and `prevVout` null, `address` null and `value` 0 (the block
 * reward and fees appear only in the outputs).
 */
export interface UtxoInput {
  /** The transaction that created the spent output; null for a coinbase input. */
  readonly prevTxid: string | null;
  /** The spent output's index in that transaction; null for a coinbase input. */
  readonly prevVout: number | null;
  /** The spent output's address (normal form); null when its script names none (non-standard). */
  readonly address: string | null;
  /** The spent output's value. */
  readonly value: Sats;
  readonly coinbase: boolean;
}

/** One output of a transaction, by index. */
export interface UtxoOutput {
  readonly vout: number;
  /** The address the output pays (normal form); null for a script that names none (OP_RETURN, bare multisig, non-standard). */
  readonly address: string | null;
  readonly value: Sats;
  /**
   * The input that spent this output, when the ledger holds the spending transaction; null
   * while unspent (or spent by a transaction the ledger does not hold). Stores derive it from
   * the inputs they hold: importers never supply it.
   */
  readonly spentBy: SpendingInput | null;
}

/** A transaction of a UTXO chain. */
export interface UtxoTransaction {
  /** Network code (`BTC`, `LTC`, ...: a network of a UTXO address family). */
  readonly network: string;
  /** The transaction id: 64 lower-case hex characters, in the byte order explorers show. */
  readonly txid: string;
  /** Height of its block; null when the ledger knows no block (an unconfirmed or hand-made row). */
  readonly block: number | null;
  /** Hash of its block (64 lower-case hex), when known: what a follower compares after a reorg. */
  readonly blockHash: string | null;
  /** The block's time (the header's timestamp), epoch ms. */
  readonly occurredAt: Millis;
  /** Index of the transaction inside its block (0 is the coinbase); 0 when no block is known. */
  readonly position: number;
  /** True for a coinbase transaction (its one input is a coinbase input). */
  readonly coinbase: boolean;
  readonly inputs: ReadonlyArray<UtxoInput>;
  readonly outputs: ReadonlyArray<UtxoOutput>;
}

/** An output paying an address, as an address's history lists it (address checks). */
export interface UtxoReceipt {
  readonly network: string;
  readonly txid: string;
  readonly vout: number;
  readonly address: string;
  readonly value: Sats;
  readonly occurredAt: Millis;
  readonly block: number | null;
  readonly position: number;
  /** The input that spent the output, when the ledger holds the spending transaction (else null). */
  readonly spentBy: SpendingInput | null;
}

/** `txid:vout`, the way explorers and Bitcoin Core write an outpoint. */
export function outpointKey(txid: string, vout: number): string {
  return `${txid}:${vout}`;
}

/** A whole number of satoshis from a BTC amount written in decimal (at most 8 decimals), exactly. */
export function satsFromCoinText(text: string): Sats | null {
  const m = /^(\d{1,8})(?:\.(\d{1,8}))?$/.exec(text.trim());
  if (!m) return null;
  const whole = Number(m[1]);
  const frac = Number((m[2] ?? "").padEnd(8, "0"));
  const sats = whole * SATS_PER_COIN + frac;
  return Number.isSafeInteger(sats) ? sats : null;
}

/** The coin amount of `sats` as a number with at most 8 decimals (for the wire's `amount`). */
export function coinsFromSats(sats: Sats): number {
  return sats / SATS_PER_COIN;
}

/** True when `value` is a valid satoshi count (a non-negative safe integer). */
export function isSats(value: unknown): value is Sats {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/**
 * The first reason `tx` cannot be stored, or null: a value that is not {@link isSats}, an
 * output index that is not a distinct non-negative integer, a txid that is not 64 lower-case
 * hex characters, or a non-coinbase input without its outpoint. Stores call it before writing
 * (importers check more: amounts reconcile, prevouts are known).
 */
export function utxoTransactionProblem(tx: UtxoTransaction): string | null {
  if (!TXID.test(tx.txid)) return `txid ${JSON.stringify(tx.txid)} is not 64 lower-case hex characters`;
  const where = `${tx.network} transaction ${tx.txid}`;
  if (tx.block !== null && !(Number.isSafeInteger(tx.block) && tx.block >= 0)) {
    return `${where}: block ${tx.block} is not a non-negative integer`;
  }
  if (!Number.isSafeInteger(tx.position) || tx.position < 0) {
    return `${where}: position ${tx.position} is not a non-negative integer`;
  }
  if (!Number.isFinite(tx.occurredAt)) return `${where}: occurredAt is not a time`;
  for (const [vin, input] of tx.inputs.entries()) {
    if (!isSats(input.value))
      return `${where}: input ${vin} value ${input.value} is not a whole number of satoshis`;
    if (!input.coinbase && (input.prevTxid === null || !TXID.test(input.prevTxid))) {
      return `${where}: input ${vin} names no spent transaction`;
    }
    if (!input.coinbase && !(Number.isSafeInteger(input.prevVout) && (input.prevVout ?? -1) >= 0)) {
      return `${where}: input ${vin} names no spent output index`;
    }
  }
  const seen = new Set<number>();
  for (const output of tx.outputs) {
    if (!Number.isSafeInteger(output.vout) || output.vout < 0 || seen.has(output.vout)) {
      return `${where}: output index ${output.vout} is not a distinct non-negative integer`;
    }
    seen.add(output.vout);
    if (!isSats(output.value)) {
      return `${where}: output ${output.vout} value ${output.value} is not a whole number of satoshis`;
    }
  }
  return null;
}

/** A txid: 64 lower-case hex characters. */
const TXID = /^[0-9a-f]{64}$/;
