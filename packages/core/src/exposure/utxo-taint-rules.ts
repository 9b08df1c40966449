/**
 * How taint moves through one UTXO transaction (docs/risk-model.md, "Bitcoin"):
 * - `haircut` (the default): the inputs are pooled, and every output carries the pool's
 *   composition pro rata: an output's value comes from each input in proportion to that input's
 *   value, and an input's value goes to each output in proportion to that output's value;
 * - `fifo` (Anderson et al. 2018, BlockSci): inputs and outputs are laid end to end in their
 *   order, satoshi by satoshi; an output's value comes from the inputs whose range it overlaps,
 *   and an input's value goes to the outputs its range overlaps (the part past the last output
 *   is the fee).
 * Both are pure functions of the transaction; fractions are of the traced coin's value.
 */
import type { UtxoTransaction } from "../domain/utxo.js";

/** The rules, as a table (the default first). */
export const UTXO_TAINT_RULES = Object.freeze(["haircut", "fifo"] as const);

/** A rule of {@link UTXO_TAINT_RULES}. */
export type UtxoTaintRule = (typeof UTXO_TAINT_RULES)[number];

/** The default rule. */
export const DEFAULT_UTXO_TAINT_RULE: UtxoTaintRule = "haircut";

/** True when `value` names a rule. */
export function isUtxoTaintRule(value: unknown): value is UtxoTaintRule {
  return (UTXO_TAINT_RULES as ReadonlyArray<unknown>).includes(value);
}

/** A part of a traced coin: the index of an input (backward) or an output (forward), and its fraction. */
export interface TaintPart {
  /** Index into `tx.inputs` (backward) or `tx.outputs` (forward). */
  readonly index: number;
  /** Fraction of the traced coin's value, in (0, 1]. */
  readonly fraction: number;
}

/**
 * Where the output at `outputIndex` of `tx` came from: fractions over the inputs, summing to 1
 * (less under `fifo` when the outputs exceed the inputs, which only a coinbase does). Empty
 * when the output or every input is worth nothing.
 */
export function backwardParts(tx: UtxoTransaction, outputIndex: number, rule: UtxoTaintRule): TaintPart[] {
  const output = tx.outputs[outputIndex];
  if (!output || output.value <= 0) return [];
  if (rule === "haircut") return proRata(tx.inputs.map((i) => i.value));
  let start = 0;
  for (let k = 0; k < outputIndex; k++) start += tx.outputs[k]!.value;
  return overlaps(
    tx.inputs.map((i) => i.value),
    start,
    start + output.value,
  );
}

/**
 * Where the input at `inputIndex` of `tx` went: fractions over the outputs, summing to 1 under
 * `haircut` (the fee is not an output: outputs share the pool) and to at most 1 under `fifo`
 * (the part of the input that paid the fee goes nowhere). Empty when the input or every output
 * is worth nothing.
 */
export function forwardParts(tx: UtxoTransaction, inputIndex: number, rule: UtxoTaintRule): TaintPart[] {
  const input = tx.inputs[inputIndex];
  if (!input || input.value <= 0) return [];
  if (rule === "haircut") return proRata(tx.outputs.map((o) => o.value));
  let start = 0;
  for (let k = 0; k < inputIndex; k++) start += tx.inputs[k]!.value;
  return overlaps(
    tx.outputs.map((o) => o.value),
    start,
    start + input.value,
  );
}

/** Each positive value's share of their sum. */
function proRata(values: ReadonlyArray<number>): TaintPart[] {
  let sum = 0;
  for (const v of values) if (v > 0) sum += v;
  if (!(sum > 0)) return [];
  const out: TaintPart[] = [];
  for (const [index, v] of values.entries()) if (v > 0) out.push({ index, fraction: v / sum });
  return out;
}

/** Values laid end to end: each one's overlap with [from, to), as a fraction of `to - from`. */
function overlaps(values: ReadonlyArray<number>, from: number, to: number): TaintPart[] {
  const out: TaintPart[] = [];
  const width = to - from;
  let start = 0;
  for (const [index, v] of values.entries()) {
    const end = start + v;
    const overlap = Math.min(end, to) - Math.max(start, from);
    if (overlap > 0) out.push({ index, fraction: overlap / width });
    start = end;
    if (start >= to) break;
  }
  return out;
}
