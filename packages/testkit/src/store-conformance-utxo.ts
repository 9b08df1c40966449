/**
 * Conformance of the UTXO ledger members: whole transactions in, all or nothing; `spentBy`
 * derived from the inputs held; the address reads' order and limits; reorg deletes.
 */
import type { UtxoTransaction } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { type ConformanceContext, expectKytError } from "./store-conformance.js";
import { BASE_TIME as T0 } from "./store-factories.js";
import { makeUtxoTransaction, randomTxid, spend } from "./utxo-factories.js";

/** `tx` as a store reads it back: `spentBy` of each output replaced by `spent[vout]` (default null). */
function readBack(tx: UtxoTransaction, spent: Record<number, { txid: string; vin: number }> = {}) {
  return { ...tx, outputs: tx.outputs.map((o) => ({ ...o, spentBy: spent[o.vout] ?? null })) };
}

/** A funding chain: coinbase c pays A twice; t1 spends both (A) to B and change to A; t2 spends B to C. */
function chain() {
  const c = makeUtxoTransaction({
    block: 100,
    position: 0,
    occurredAt: T0,
    outputs: [
      ["A", 50_000],
      ["A", 30_000],
    ],
  });
  const t1 = makeUtxoTransaction({
    block: 101,
    occurredAt: T0 + 600_000,
    inputs: [spend(c.txid, 0, "A", 50_000), spend(c.txid, 1, "A", 30_000)],
    outputs: [
      ["B", 60_000],
      ["A", 19_000],
    ],
  });
  const t2 = makeUtxoTransaction({
    block: 102,
    occurredAt: T0 + 1_200_000,
    inputs: [spend(t1.txid, 0, "B", 60_000)],
    outputs: [
      ["C", 59_000],
      [null, 0],
    ],
  });
  return { c, t1, t2 };
}

/** Options of {@link utxoConformance}. */
export interface UtxoConformanceOptions {
  /**
   * False for a UTXO ledger kept apart from the store (ClickHouse): its writes are not part of
   * the store's transactions, so the checks that a rollback undoes them are left out. Default true.
   */
  readonly rollback?: boolean;
}

/** Registers the UTXO ledger tests. */
export function utxoConformance(ctx: ConformanceContext, options: UtxoConformanceOptions = {}): void {
  const rollback = options.rollback ?? true;
  describe("utxo ledger", () => {
    it("stores whole transactions idempotently and derives spentBy from the inputs held", async () => {
      const { c, t1, t2 } = chain();
      const store = ctx.store();
      expect(await store.putUtxoTransactions([c, t1, c])).toBe(2);
      expect(await store.putUtxoTransactions([c, t2])).toBe(1);
      expect(await store.putUtxoTransactions([])).toBe(0);
      const read = await store.utxoTransactions("BTC", [t2.txid, c.txid, t1.txid, randomTxid(), c.txid]);
      const byId = new Map(read.map((tx) => [tx.txid, tx]));
      expect(read).toHaveLength(3);
      expect(byId.get(c.txid)).toEqual(
        readBack(c, { 0: { txid: t1.txid, vin: 0 }, 1: { txid: t1.txid, vin: 1 } }),
      );
      expect(byId.get(t1.txid)).toEqual(readBack(t1, { 0: { txid: t2.txid, vin: 0 } }));
      expect(byId.get(t2.txid)).toEqual(readBack(t2));
      expect(await store.utxoTransactions("LTC", [c.txid])).toEqual([]);
      expect(await store.utxoTransactions("BTC", [])).toEqual([]);
    });

    it("keeps satoshi values exact up to the whole supply, block hashes and null addresses", async () => {
      const whole = 2_100_000_000_000_000;
      const tx = makeUtxoTransaction({
        block: null,
        blockHash: null,
        position: 0,
        outputs: [
          ["A", whole],
          [null, 1],
          ["B", 0],
        ],
      });
      const hashed = makeUtxoTransaction({ blockHash: "ab".repeat(32), outputs: [["C", 123_456_789]] });
      await ctx.store().putUtxoTransactions([tx, hashed]);
      const read = await ctx.store().utxoTransactions("BTC", [tx.txid, hashed.txid]);
      expect(read.find((r) => r.txid === tx.txid)).toEqual(readBack(tx));
      expect(read.find((r) => r.txid === hashed.txid)).toEqual(readBack(hashed));
    });

    it("writes all of a batch or none of it", async () => {
      const { c, t1 } = chain();
      const bad = makeUtxoTransaction({ outputs: [["X", 1.5]] });
      await expectKytError(ctx.store().putUtxoTransactions([c, t1, bad]), "VALIDATION_ERROR");
      const negative = makeUtxoTransaction({ inputs: [spend(c.txid, 0, "A", -1)], outputs: [["X", 1]] });
      await expectKytError(ctx.store().putUtxoTransactions([c, negative]), "VALIDATION_ERROR");
      await expectKytError(
        ctx.store().putUtxoTransactions([{ ...c, txid: "0xnot-a-txid" }]),
        "VALIDATION_ERROR",
      );
      expect(await ctx.store().utxoTransactions("BTC", [c.txid, t1.txid])).toEqual([]);
      if (!rollback) return;
      // Inside a store transaction that fails, the UTXO rows written so far go too.
      await expect(
        ctx.store().transaction(async (tx) => {
          await tx.putUtxoTransactions([c, t1]);
          throw new Error("abort");
        }),
      ).rejects.toThrow("abort");
      expect(await ctx.store().utxoTransactions("BTC", [c.txid, t1.txid])).toEqual([]);
      expect(await ctx.store().utxoReceived("BTC", [{ address: "A", before: T0 + 10_000_000 }], 10)).toEqual(
        [],
      );
    });

    it("inserts large batches", async () => {
      const txs = Array.from({ length: 1234 }, (_, i) =>
        makeUtxoTransaction({
          occurredAt: T0 + i,
          outputs: [
            ["big", i + 1],
            [`other${i}`, 7],
            [null, 0],
          ],
        }),
      );
      expect(await ctx.store().putUtxoTransactions(txs)).toBe(1234);
      const latest = await ctx.store().utxoReceived("BTC", [{ address: "big", before: T0 + 5000 }], 2);
      expect(latest.map((r) => r.value)).toEqual([1234, 1233]);
      const read = await ctx.store().utxoTransactions(
        "BTC",
        txs.map((t) => t.txid),
      );
      expect(read).toHaveLength(1234);
    });

    it("lists an address's receipts strictly before a time, latest first, limited per address", async () => {
      const { c, t1, t2 } = chain();
      await ctx.store().putUtxoTransactions([t2, t1, c]);
      const received = (address: string, before: number, limit: number) =>
        ctx.store().utxoReceived("BTC", [{ address, before }], limit);
      const receipt = (tx: UtxoTransaction, vout: number, spentBy: { txid: string; vin: number } | null) => ({
        network: "BTC",
        txid: tx.txid,
        vout,
        address: tx.outputs[vout]?.address,
        value: tx.outputs[vout]?.value,
        occurredAt: tx.occurredAt,
        block: tx.block,
        position: tx.position,
        spentBy,
      });
      expect(await received("A", T0 + 10_000_000, 10)).toEqual([
        receipt(t1, 1, null),
        receipt(c, 1, { txid: t1.txid, vin: 1 }),
        receipt(c, 0, { txid: t1.txid, vin: 0 }),
      ]);
      expect(await received("A", T0 + 600_000, 10)).toHaveLength(2);
      expect(await received("A", T0 + 10_000_000, 1)).toEqual([receipt(t1, 1, null)]);
      expect(await received("A", T0, 10)).toEqual([]);
      const both = await ctx.store().utxoReceived(
        "BTC",
        [
          { address: "C", before: T0 + 10_000_000 },
          { address: "B", before: T0 + 10_000_000 },
          { address: "nobody", before: T0 + 10_000_000 },
        ],
        5,
      );
      expect(both).toEqual([receipt(t2, 0, null), receipt(t1, 0, { txid: t2.txid, vin: 0 })]);
      expect(await ctx.store().utxoReceived("LTC", [{ address: "A", before: T0 + 10_000_000 }], 5)).toEqual(
        [],
      );
    });

    it("lists an address's coins spent strictly after a time, earliest spend first", async () => {
      const { c, t1, t2 } = chain();
      await ctx.store().putUtxoTransactions([c, t1, t2]);
      const spentFrom = (address: string, after: number, limit: number) =>
        ctx.store().utxoSpentFrom("BTC", [{ address, after }], limit);
      const fromA = await spentFrom("A", T0, 10);
      expect(fromA.map((r) => [r.txid, r.vout, r.spentBy])).toEqual([
        [c.txid, 0, { txid: t1.txid, vin: 0 }],
        [c.txid, 1, { txid: t1.txid, vin: 1 }],
      ]);
      expect(fromA[0]).toMatchObject({ address: "A", value: 50_000, occurredAt: T0, block: 100 });
      expect(await spentFrom("A", T0, 1)).toHaveLength(1);
      expect(await spentFrom("A", T0 + 600_000, 10)).toEqual([]);
      expect((await spentFrom("B", T0 + 600_000, 10)).map((r) => r.spentBy)).toEqual([
        { txid: t2.txid, vin: 0 },
      ]);
      expect(await spentFrom("C", T0, 10)).toEqual([]);
    });

    it("keeps one txid on two networks apart: its outputs, their spenders, receipts and reorgs", async () => {
      // The same txid on BTC and on LTC, each spent on its own network (a different output).
      const btc = makeUtxoTransaction({
        block: 100,
        occurredAt: T0,
        outputs: [
          ["A", 10],
          ["A", 20],
        ],
      });
      const ltc = makeUtxoTransaction({
        network: "LTC",
        txid: btc.txid,
        block: 900,
        occurredAt: T0 + 1,
        outputs: [
          ["A", 30],
          ["A", 40],
        ],
      });
      const spendBtc = makeUtxoTransaction({
        block: 101,
        occurredAt: T0 + 600_000,
        inputs: [spend(btc.txid, 0, "A", 10)],
        outputs: [["B", 9]],
      });
      const spendLtc = makeUtxoTransaction({
        network: "LTC",
        block: 901,
        occurredAt: T0 + 700_000,
        inputs: [spend(btc.txid, 1, "A", 40)],
        outputs: [["B", 39]],
      });
      expect(await ctx.store().putUtxoTransactions([btc, ltc, spendBtc, spendLtc, ltc])).toBe(4);
      expect(await ctx.store().utxoTransactions("BTC", [btc.txid])).toEqual([
        readBack(btc, { 0: { txid: spendBtc.txid, vin: 0 } }),
      ]);
      expect(await ctx.store().utxoTransactions("LTC", [btc.txid])).toEqual([
        readBack(ltc, { 1: { txid: spendLtc.txid, vin: 0 } }),
      ]);
      const received = async (network: string) =>
        (await ctx.store().utxoReceived(network, [{ address: "A", before: T0 + 10_000_000 }], 10)).map(
          (r) => [r.network, r.vout, r.value, r.spentBy?.txid ?? null],
        );
      expect(await received("BTC")).toEqual([
        ["BTC", 1, 20, null],
        ["BTC", 0, 10, spendBtc.txid],
      ]);
      expect(await received("LTC")).toEqual([
        ["LTC", 1, 40, spendLtc.txid],
        ["LTC", 0, 30, null],
      ]);
      const spentFrom = async (network: string) =>
        (await ctx.store().utxoSpentFrom(network, [{ address: "A", after: 0 }], 10)).map((r) => [
          r.network,
          r.vout,
          r.spentBy?.txid,
        ]);
      expect(await spentFrom("BTC")).toEqual([["BTC", 0, spendBtc.txid]]);
      expect(await spentFrom("LTC")).toEqual([["LTC", 1, spendLtc.txid]]);
      // A reorg of LTC leaves the BTC transaction of the same txid whole.
      expect(await ctx.store().deleteUtxoBlocksFrom("LTC", 900)).toBe(2);
      expect(await ctx.store().utxoTransactions("LTC", [btc.txid])).toEqual([]);
      expect(await ctx.store().utxoTransactions("BTC", [btc.txid])).toEqual([
        readBack(btc, { 0: { txid: spendBtc.txid, vin: 0 } }),
      ]);
    });

    it("deletes the blocks a reorg replaced, so the coins they spent read as unspent", async () => {
      const { c, t1, t2 } = chain();
      const unconfirmed = makeUtxoTransaction({ block: null, outputs: [["D", 5]] });
      const litecoin = makeUtxoTransaction({ network: "LTC", block: 500, outputs: [["L", 5]] });
      await ctx.store().putUtxoTransactions([c, t1, t2, unconfirmed, litecoin]);
      expect(await ctx.store().deleteUtxoBlocksFrom("BTC", 101)).toBe(2);
      expect(await ctx.store().deleteUtxoBlocksFrom("BTC", 101)).toBe(0);
      const left = await ctx.store().utxoTransactions("BTC", [c.txid, t1.txid, t2.txid, unconfirmed.txid]);
      expect(left.map((t) => t.txid).sort()).toEqual([c.txid, unconfirmed.txid].sort());
      expect(left.find((t) => t.txid === c.txid)).toEqual(readBack(c));
      expect(await ctx.store().utxoReceived("BTC", [{ address: "B", before: T0 + 10_000_000 }], 5)).toEqual(
        [],
      );
      expect(await ctx.store().utxoSpentFrom("BTC", [{ address: "A", after: 0 }], 5)).toEqual([]);
      expect(await ctx.store().utxoTransactions("LTC", [litecoin.txid])).toHaveLength(1);
      // The replacing chain goes in as new.
      expect(await ctx.store().putUtxoTransactions([t1])).toBe(1);
      expect((await ctx.store().utxoTransactions("BTC", [c.txid]))[0]?.outputs[0]?.spentBy).toEqual({
        txid: t1.txid,
        vin: 0,
      });
      if (!rollback) return;
      // A failed transaction undoes a delete.
      await expect(
        ctx.store().transaction(async (tx) => {
          expect(await tx.deleteUtxoBlocksFrom("BTC", 0)).toBe(2);
          throw new Error("abort");
        }),
      ).rejects.toThrow("abort");
      expect(await ctx.store().utxoTransactions("BTC", [c.txid, t1.txid])).toHaveLength(2);
    });
  });
}
