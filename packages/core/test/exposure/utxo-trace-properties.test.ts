/**
 * The UTXO tracer against a small model on random transaction graphs. The model is written
 * independently of the tracer: FIFO by laying out every satoshi of a transaction one by one,
 * haircut as the value-weighted mean of the inputs' compositions, recursively, with no limits.
 * With no limits in the way (hops, budget, weight floor) the tracer's shares must equal it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { UtxoTransaction } from "../../src/domain/utxo.js";
import { traceUtxoTransferExposure } from "../../src/exposure/utxo-exposure.js";
import type { UtxoTaintRule } from "../../src/exposure/utxo-taint-rules.js";
import { resolverOf } from "./trace-fixtures.js";
import { battr, btx, coin, held, utxoLedgerOf } from "./utxo-fixtures.js";

const ADDRESSES = ["a0", "a1", "a2", "a3", "a4", "a5"];
const CATEGORIES = ["exchange", "mixer", "stolen_funds"];

/** A composition: category to fraction. */
type Mix = Map<string, number>;

function add(into: Mix, from: Mix, weight: number): void {
  for (const [k, v] of from) into.set(k, (into.get(k) ?? 0) + v * weight);
}

/** A random DAG of transactions: each spends some earlier unspent coins (or mints), fees >= 0. */
const world = fc
  .record({
    steps: fc.array(
      fc.record({
        mint: fc.boolean(),
        picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
        outputs: fc.array(
          fc.record({ address: fc.constantFrom(...ADDRESSES), share: fc.integer({ min: 1, max: 5 }) }),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        fee: fc.integer({ min: 0, max: 3 }),
        unseen: fc.boolean(),
      }),
      { minLength: 2, maxLength: 14 },
    ),
    labels: fc.dictionary(fc.constantFrom(...ADDRESSES), fc.constantFrom(...CATEGORIES), { maxKeys: 3 }),
    rule: fc.constantFrom<UtxoTaintRule>("haircut", "fifo"),
    forward: fc.boolean(),
    pick: fc.nat(),
  })
  .map(({ steps, labels, rule, forward, pick }) => {
    const txs: UtxoTransaction[] = [];
    const unspent: Array<{ tx: string; vout: number; address: string; value: number }> = [];
    for (const [k, step] of steps.entries()) {
      const name = `t${k}`;
      let inputs: Array<{ tx: string; vout: number; address: string; value: number }> = [];
      if (!step.mint && unspent.length > 0) {
        const chosen = new Set(step.picks.map((p) => p % unspent.length));
        inputs = [...chosen].sort((a, b) => a - b).map((i) => unspent[i]!);
        for (const i of [...chosen].sort((a, b) => b - a)) unspent.splice(i, 1);
      }
      // A coin the ledger did not see made: its trail ends (undefined).
      if (step.unseen && inputs.length > 0) inputs.push({ tx: `u${k}`, vout: 0, address: "a5", value: 3 });
      const total = inputs.length === 0 ? 20 : inputs.reduce((s, i) => s + i.value, 0);
      const spendable = Math.max(0, total - (inputs.length === 0 ? 0 : Math.min(step.fee, total - 1)));
      const weights = step.outputs.reduce((s, o) => s + o.share, 0);
      let left = spendable;
      const outputs = step.outputs.map((o, i) => {
        const v = i === step.outputs.length - 1 ? left : Math.floor((spendable * o.share) / weights);
        left -= v;
        return [o.address, v] as const;
      });
      const tx = btx(
        name,
        k + 1,
        inputs.length === 0 ? "coinbase" : inputs.map((i) => coin(i.tx, i.vout, i.address, i.value)),
        outputs,
      );
      txs.push(tx);
      for (const [vout, [address, value]] of outputs.entries()) {
        if (value > 0) unspent.push({ tx: name, vout, address, value });
      }
    }
    const candidates = txs.filter((t) =>
      t.outputs.some((o) => o.value > 0 && (!forward || !t.coinbase || true)),
    );
    const target = candidates[pick % candidates.length]!;
    const paid = target.outputs.filter((o) => o.value > 0);
    const address = paid[pick % paid.length]!.address!;
    return { txs, labels, rule, forward, target, address };
  });

/** The model: where the coins of `tx` paying `address` came from (went to), with no limits. */
function model(
  txs: ReadonlyArray<UtxoTransaction>,
  labels: Record<string, string>,
  rule: UtxoTaintRule,
  forward: boolean,
  target: UtxoTransaction,
  address: string,
): Mix {
  const byId = new Map(txs.map((t) => [t.txid, t]));
  const spender = new Map<string, { tx: UtxoTransaction; vin: number }>();
  for (const t of txs)
    for (const [vin, i] of t.inputs.entries())
      if (!i.coinbase) spender.set(`${i.prevTxid}:${i.prevVout}`, { tx: t, vin });
  const terminal = (a: string | null): Mix | null =>
    a !== null && labels[a] ? new Map([[labels[a]!, 1]]) : null;

  /** Per satoshi of `tx`'s inputs (backward) the composition of the coin it belongs to. */
  function backOutput(tx: UtxoTransaction, vout: number): Mix {
    if (tx.coinbase) return new Map([["mining", 1]]);
    const mixes = tx.inputs.map((i) => backCoin(i.prevTxid!, i.prevVout!, i.address));
    const out: Mix = new Map();
    const o = tx.outputs[vout]!;
    if (rule === "haircut") {
      const sum = tx.inputs.reduce((s, i) => s + i.value, 0);
      for (const [k, i] of tx.inputs.entries()) add(out, mixes[k]!, i.value / sum);
      return out;
    }
    const sats: Mix[] = tx.inputs.flatMap((i, k) => Array.from({ length: i.value }, () => mixes[k]!));
    const start = tx.outputs.slice(0, vout).reduce((s, x) => s + x.value, 0);
    for (let s = start; s < start + o.value; s++) add(out, sats[s]!, 1 / o.value);
    return out;
  }
  function backCoin(txid: string, vout: number, addr: string | null): Mix {
    const t = terminal(addr);
    if (t) return t;
    const tx = byId.get(txid);
    return tx ? backOutput(tx, vout) : new Map([["undefined", 1]]);
  }

  /** Where a coin went. */
  function fwdCoin(txid: string, vout: number, addr: string | null, first: boolean): Mix {
    const t = first ? null : terminal(addr);
    if (t) return t;
    const s = spender.get(`${txid}:${vout}`);
    if (!s) return new Map([["undefined", 1]]);
    const { tx, vin } = s;
    const out: Mix = new Map();
    const outSum = tx.outputs.reduce((a, o) => a + o.value, 0);
    if (rule === "haircut") {
      for (const o of tx.outputs)
        if (o.value > 0) add(out, fwdCoin(tx.txid, o.vout, o.address, false), o.value / outSum);
      return out;
    }
    const owner: Array<number | null> = tx.outputs.flatMap((o) =>
      Array.from({ length: o.value }, () => o.vout),
    );
    const start = tx.inputs.slice(0, vin).reduce((a, i) => a + i.value, 0);
    const value = tx.inputs[vin]!.value;
    for (let k = start; k < start + value; k++) {
      const v = owner[k];
      if (v === undefined || v === null) add(out, new Map([["undefined", 1]]), 1 / value);
      else add(out, fwdCoin(tx.txid, v, tx.outputs[v]!.address, false), 1 / value);
    }
    return out;
  }

  const bound = target.outputs.filter((o) => o.address === address && o.value > 0);
  const total = bound.reduce((s, o) => s + o.value, 0);
  const out: Mix = new Map();
  for (const o of bound) {
    add(
      out,
      forward ? fwdCoin(target.txid, o.vout, o.address, true) : backOutput(target, o.vout),
      o.value / total,
    );
  }
  return out;
}

describe("UTXO tracer against the model", () => {
  it("gives the model's shares for haircut and FIFO, backward and forward", async () => {
    await fc.assert(
      fc.asyncProperty(world, async ({ txs, labels, rule, forward, target, address }) => {
        const attributions = Object.entries(labels).map(([a, c]) => battr(a, c));
        const ledger = utxoLedgerOf(txs);
        const e = await traceUtxoTransferExposure({
          ledger,
          resolver: resolverOf(attributions),
          network: "BTC",
          direction: forward ? "outgoing" : "incoming",
          tx: held(ledger.index, target),
          address,
          value: null,
          span: { from: 0, to: 100 },
          rule,
          maxHops: 1000,
          edgeBudget: 1_000_000,
          minPathWeight: 0,
        });
        const sum = e.shares.reduce((s, x) => s + x.share, 0);
        expect(sum).toBeCloseTo(1, 9);
        for (const s of e.shares) expect(s.share).toBeGreaterThan(0);
        // A direct interaction (every input, or the counterparty, labelled) is the model's too.
        const expected = model(txs, labels, rule, forward, target, address);
        if (forward && labels[address]) {
          expect(e.direct?.category).toBe(labels[address]);
          return;
        }
        const got = new Map(e.shares.map((s) => [s.category, s.share]));
        for (const [category, share] of expected) {
          if (share > 1e-12) expect(got.get(category) ?? 0, category).toBeCloseTo(share, 9);
        }
        for (const [category, share] of got)
          expect(expected.get(category) ?? 0, category).toBeCloseTo(share, 9);
      }),
      { numRuns: 300 },
    );
  });
});
