/**
 * CoinJoin detection: a transaction whose inputs belong to several owners by design, so the
 * common-input heuristic must not join its input addresses. The rules (docs/risk-model.md,
 * "Bitcoin"), each about the equal-valued outputs the mix creates:
 * - Whirlpool (Samourai): exactly 5 inputs and 5 outputs, every output of one pool
 *   denomination (0.001, 0.01, 0.05 or 0.5 BTC);
 * - Wasabi: at least 10 outputs of one value, and at least as many inputs as those outputs
 *   (Wasabi 1 mixes about 0.1 BTC among dozens of participants; Wasabi 2 makes many equal
 *   standard denominations);
 * - JoinMarket: n >= 3 outputs of one value, n to 2n outputs in all (each taker and maker gets
 *   an equal output and at most one change output), and at least n inputs.
 * A coinbase is never a CoinJoin. Checked in that order; the first that matches names the kind.
 */
import type { UtxoTransaction } from "./utxo.js";

/** CoinJoin implementations the rules recognise. */
export const COINJOIN_KINDS = Object.freeze(["whirlpool", "wasabi", "joinmarket"] as const);

/** A kind of {@link COINJOIN_KINDS}. */
export type CoinJoinKind = (typeof COINJOIN_KINDS)[number];

/** Whirlpool's pool denominations, in satoshis. */
export const WHIRLPOOL_DENOMINATIONS: ReadonlyArray<number> = Object.freeze([
  100_000, 1_000_000, 5_000_000, 50_000_000,
]);

/** The most outputs sharing one value, and that value (0 outputs for none). */
function largestEqualGroup(tx: UtxoTransaction): { count: number; value: number } {
  const counts = new Map<number, number>();
  let best = { count: 0, value: 0 };
  for (const o of tx.outputs) {
    if (o.value <= 0) continue;
    const c = (counts.get(o.value) ?? 0) + 1;
    counts.set(o.value, c);
    if (c > best.count || (c === best.count && o.value > best.value)) best = { count: c, value: o.value };
  }
  return best;
}

/** The CoinJoin kind `tx` looks like, or null. */
export function coinJoinKind(tx: UtxoTransaction): CoinJoinKind | null {
  if (tx.coinbase) return null;
  const ins = tx.inputs.length;
  const outs = tx.outputs.length;
  const equal = largestEqualGroup(tx);
  if (ins === 5 && outs === 5 && equal.count === 5 && WHIRLPOOL_DENOMINATIONS.includes(equal.value)) {
    return "whirlpool";
  }
  if (equal.count >= 10 && ins >= equal.count) return "wasabi";
  if (equal.count >= 3 && outs <= 2 * equal.count && ins >= equal.count) return "joinmarket";
  return null;
}
