/**
 * The ClickHouse UTXO ledger against SQLite on the same transactions: random chains over few
 * addresses and times (so reads tie), some batches written twice raw (unmerged duplicates in
 * the parts), and a reorg that deletes the upper blocks and writes part of them again. Every
 * read (transactions, received, spent-from, at several times and limits) gives the same answer.
 */
import type { Store, UtxoInput, UtxoTransaction } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { BASE_TIME as T0, txidOf } from "@openkyt/testkit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClickHouseLedger, LocalClickHouse } from "../src/index.js";
import { isMasked, staircase, startLocalClickHouse } from "../src/index.js";
import { CLICKHOUSE_MISSING, dropLedger, freshLedger } from "./ch-test-server.js";

const ADDRESSES = ["a", "b", "c", null] as const;

/** A plan of a chain: per transaction, which unspent outputs it spends and what it pays. */
const chainPlan = fc.record({
  txs: fc.array(
    fc.record({
      spends: fc.array(fc.nat(), { maxLength: 3 }),
      outputs: fc.array(fc.record({ to: fc.constantFrom(...ADDRESSES), value: fc.nat(1_000) }), {
        minLength: 1,
        maxLength: 3,
      }),
    }),
    { minLength: 1, maxLength: 18 },
  ),
  batches: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 6 }),
  twice: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
  reorgAt: fc.option(fc.integer({ min: 100, max: 106 }), { nil: null }),
  rewrite: fc.nat(),
});

type Plan = typeof chainPlan extends fc.Arbitrary<infer P> ? P : never;

/** The transactions of a plan on `network`: three per block, block 100 upward, ten minutes apart. */
function chainOf(plan: Plan, network: string, salt: number): UtxoTransaction[] {
  const unspent: Array<{ txid: string; vout: number; address: string | null; value: number }> = [];
  return plan.txs.map((spec, i) => {
    const txid = txidOf(salt * 1_000 + i + 1);
    const inputs: UtxoInput[] = [];
    for (const pick of spec.spends) {
      if (unspent.length === 0) break;
      const [coin] = unspent.splice(pick % unspent.length, 1);
      if (coin)
        inputs.push({
          prevTxid: coin.txid,
          prevVout: coin.vout,
          address: coin.address,
          value: coin.value,
          coinbase: false,
        });
    }
    const coinbase = inputs.length === 0;
    const block = 100 + Math.floor(i / 3);
    const tx: UtxoTransaction = {
      network,
      txid,
      block,
      blockHash: null,
      occurredAt: T0 + block * 600_000,
      position: i % 3,
      coinbase,
      inputs: coinbase
        ? [{ prevTxid: null, prevVout: null, address: null, value: 0, coinbase: true }]
        : inputs,
      outputs: spec.outputs.map((o, vout) => ({ vout, address: o.to, value: o.value, spentBy: null })),
    };
    for (const o of tx.outputs) unspent.push({ txid, vout: o.vout, address: o.address, value: o.value });
    return tx;
  });
}

/** Writes a plan's chain into both ledgers, batch by batch, some batches twice raw on ClickHouse. */
async function writeBoth(plan: Plan, txs: UtxoTransaction[], sqlite: Store, ch: ClickHouseLedger) {
  let at = 0;
  for (const [b, size] of plan.batches.entries()) {
    const batch = txs.slice(at, at + size);
    at += size;
    if (batch.length === 0) break;
    expect(await ch.putUtxoTransactions(batch)).toBe(await sqlite.putUtxoTransactions(batch));
    if (plan.twice[b]) await ch.appendUtxoTransactions(batch);
  }
  const rest = txs.slice(at);
  expect(await ch.putUtxoTransactions(rest)).toBe(await sqlite.putUtxoTransactions(rest));
}

const byTxid = (a: UtxoTransaction, b: UtxoTransaction) => (a.txid < b.txid ? -1 : a.txid > b.txid ? 1 : 0);

/** Every read of both ledgers, compared. */
async function compareReads(network: string, txs: UtxoTransaction[], sqlite: Store, ch: ClickHouseLedger) {
  const ids = [...txs.map((t) => t.txid), txidOf(999_999)];
  expect([...(await ch.utxoTransactions(network, ids))].sort(byTxid)).toEqual(
    [...(await sqlite.utxoTransactions(network, ids))].sort(byTxid),
  );
  const times = [T0 + 100 * 600_000, T0 + 102 * 600_000, T0 + 104 * 600_000 + 1, T0 + 200 * 600_000];
  for (const limit of [1, 2, 50]) {
    const received = times.flatMap((before) => ["a", "b", "c", "z"].map((address) => ({ address, before })));
    expect(await ch.utxoReceived(network, received, limit)).toEqual(
      await sqlite.utxoReceived(network, received, limit),
    );
    const spent = times.flatMap((t) => ["a", "b", "c"].map((address) => ({ address, after: t - 600_000 })));
    expect(await ch.utxoSpentFrom(network, spent, limit)).toEqual(
      await sqlite.utxoSpentFrom(network, spent, limit),
    );
  }
}

describe("UTXO reorg tombstones", () => {
  it("keep the latest tombstone and every earlier one at a lower height; mask what one of them covers", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ height: fc.nat(20), seq: fc.integer({ min: 1, max: 1_000 }) }), {
          maxLength: 12,
        }),
        fc.option(fc.nat(25), { nil: null }),
        fc.integer({ min: 0, max: 1_001 }),
        (tombstones, block, seq) => {
          const kept = staircase(tombstones);
          expect(isMasked(kept, block, seq)).toBe(
            block !== null && tombstones.some((t) => block >= t.height && seq < t.seq),
          );
          expect(kept.length).toBeLessThanOrEqual(tombstones.length);
        },
      ),
    );
  });
});

describe.skipIf(CLICKHOUSE_MISSING !== null)("ClickHouse UTXO ledger against SQLite", () => {
  let server: LocalClickHouse;
  let ch: ClickHouseLedger;
  beforeAll(async () => {
    server = await startLocalClickHouse();
    ch = await freshLedger(server);
  }, 180_000);
  afterAll(async () => {
    if (ch) await dropLedger(ch);
    await server?.stop();
  });

  it("gives SQLite's answers on random chains with duplicates and a reorg", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(chainPlan, async (plan) => {
        run += 1;
        // One ClickHouse database for every run, a network of its own per run.
        const network = `R${run}`;
        const sqlite = await createSqliteStore({ filename: ":memory:" });
        try {
          const txs = chainOf(plan, network, run);
          await writeBoth(plan, txs, sqlite, ch);
          await compareReads(network, txs, sqlite, ch);
          if (plan.reorgAt !== null) {
            expect(await ch.deleteUtxoBlocksFrom(network, plan.reorgAt)).toBe(
              await sqlite.deleteUtxoBlocksFrom(network, plan.reorgAt),
            );
            await compareReads(network, txs, sqlite, ch);
            // The replacing branch: part of the deleted transactions again.
            const again = txs.filter(
              (t, i) => (t.block ?? 0) >= (plan.reorgAt ?? 0) && (i + plan.rewrite) % 2 === 0,
            );
            expect(await ch.putUtxoTransactions(again)).toBe(await sqlite.putUtxoTransactions(again));
            await compareReads(network, txs, sqlite, ch);
          }
        } finally {
          await sqlite.close();
        }
      }),
      { numRuns: 6 },
    );
  }, 900_000);
});
