import { utxoTransactionProblem } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { generateUtxoLedger } from "../src/utxo-ledger-generator.js";

describe("generateUtxoLedger", () => {
  const txs = [...generateUtxoLedger({ transactions: 3_000, perBlock: 100, seed: 5 })];

  it("gives the same transactions for the same seed and others for another", () => {
    const again = [...generateUtxoLedger({ transactions: 3_000, perBlock: 100, seed: 5 })];
    expect(again).toEqual(txs);
    const other = [...generateUtxoLedger({ transactions: 3_000, perBlock: 100, seed: 6 })];
    expect(other[0]?.txid).not.toBe(txs[0]?.txid);
  });

  it("spends only coins created earlier, each once, with their address and value, and never mints", () => {
    expect(txs).toHaveLength(3_000);
    const unspent = new Map<string, { address: string | null; value: number }>();
    for (const tx of txs) {
      expect(utxoTransactionProblem(tx)).toBeNull();
      let brought = 0;
      for (const input of tx.inputs) {
        if (input.coinbase) continue;
        const key = `${input.prevTxid}:${input.prevVout}`;
        const coin = unspent.get(key);
        expect(coin, key).toEqual({ address: input.address, value: input.value });
        unspent.delete(key);
        brought += input.value;
      }
      const paid = tx.outputs.reduce((s, o) => s + o.value, 0);
      if (!tx.coinbase) expect(paid).toBeLessThanOrEqual(brought);
      for (const o of tx.outputs) unspent.set(`${tx.txid}:${o.vout}`, { address: o.address, value: o.value });
    }
  });

  it("starts each block with its coinbase and has the shapes it promises", () => {
    const starts = txs.filter((t) => t.position === 0);
    expect(starts.length).toBeGreaterThan(1);
    expect(starts.every((t) => t.coinbase)).toBe(true);
    const consolidations = txs.filter((t) => t.inputs.length >= 3 && t.outputs.length === 1);
    const withdrawals = txs.filter((t) => t.inputs.length === 1 && t.outputs.length >= 3);
    const payments = txs.filter((t) => !t.coinbase && t.outputs.length === 2);
    expect(consolidations.length).toBeGreaterThan(10);
    expect(withdrawals.length).toBeGreaterThan(100);
    expect(payments.length).toBeGreaterThan(txs.length / 3);
  });
});
