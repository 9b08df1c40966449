/**
 * The Bitfinex 2016 hack receivers as the demo data ships them (`openkyt import labels`' CSV,
 * 2,072 `stolen_funds` labels) flag a BTC deposit whose coins come from them: a small UTXO ledger
 * where three receivers' coins are spent, together with clean coins, into a deposit (and its
 * change onward, into a second deposit one hop later). By the haircut rule (docs/risk-model.md,
 * "Bitcoin") every output of a transaction carries its inputs' composition pro rata, so the
 * stolen share is the receivers' satoshis over all satoshis spent, computed here from the CSV.
 * With common-input clustering the clean address, co-signed with the receivers, joins their
 * cluster, and the deposits are wholly stolen.
 */
import { readFile } from "node:fs/promises";
import { createEngine, createMemoryStore, type UtxoInput, type UtxoTransaction } from "@openkyt/core";
import { importFile } from "@openkyt/datasets";
import { describe, expect, it } from "vitest";
import { demoDataFile } from "../src/index.js";

const CSV = demoDataFile("bitfinex-2016-hack-receivers.csv");
const AT = Date.UTC(2016, 7, 3);
const client = "bc1qc8qurswpc8qurswpc8qurswpc8qurswpee0dfr";

/** Exact satoshis of a BTC amount written with at most 8 decimals. */
const sats = (text: string) => {
  const [whole, frac = ""] = text.split(".");
  return Number(whole) * 100_000_000 + Number(frac.padEnd(8, "0"));
};
const txidOf = (n: number) => `bf${n.toString(16).padStart(62, "0")}`;

describe("a deposit funded by Bitfinex hack receivers", () => {
  it("is flagged stolen_funds at the haircut share of the receivers' coins (all of it once clustered)", async () => {
    const rows = (await readFile(CSV, "utf8"))
      .trim()
      .split(/\r?\n/)
      .slice(1)
      .map((l) => l.split(","));
    // Three receivers with their real theft transaction and amount.
    const receivers = [rows[0], rows[500], rows[2000]].map((r) => ({
      address: r?.[1] as string,
      theftTxid: r?.[5] as string,
      value: sats(r?.[6] as string),
    }));
    const clean = "bc1q5xs6rgdp5xs6rgdp5xs6rgdp5xs6rgdp4gkthz";
    const second = "bc1q60fa857n60fa857n60fa857n60fa857n6r74h8";
    const cleanValue = 25 * 100_000_000;
    const fee = 20_000;
    const tx = (
      txid: string,
      hours: number,
      inputs: ReadonlyArray<UtxoInput> | "coinbase",
      outputs: ReadonlyArray<readonly [string, number]>,
    ): UtxoTransaction => ({
      network: "BTC",
      txid,
      block: 420_000 + hours,
      blockHash: null,
      occurredAt: AT + hours * 3_600_000,
      position: inputs === "coinbase" ? 0 : 1,
      coinbase: inputs === "coinbase",
      inputs:
        inputs === "coinbase"
          ? [{ prevTxid: null, prevVout: null, address: null, value: 0, coinbase: true }]
          : inputs,
      outputs: outputs.map(([address, value], vout) => ({ vout, address, value, spentBy: null })),
    });
    const coin = (txid: string, vout: number, address: string, value: number): UtxoInput => ({
      prevTxid: txid,
      prevVout: vout,
      address,
      value,
      coinbase: false,
    });
    // The theft transactions (their real txids) as coinbase-funded stand-ins, and a clean coin.
    const funding = [
      ...receivers.map((r, i) => tx(r.theftTxid, i, "coinbase", [[r.address, r.value]])),
      tx(txidOf(1), 4, "coinbase", [[clean, cleanValue]]),
    ];
    const spent = [
      ...receivers.map((r) => coin(r.theftTxid, 0, r.address, r.value)),
      coin(txidOf(1), 0, clean, cleanValue),
    ];
    const total = spent.reduce((s, i) => s + i.value, 0);
    const depositValue = 10 * 100_000_000;
    const mixing = tx(txidOf(2), 10, spent, [
      [client, depositValue],
      [second, total - depositValue - fee],
    ]);
    const onward = tx(
      txidOf(3),
      11,
      [coin(txidOf(2), 1, second, total - depositValue - fee)],
      [
        [client, 2 * 100_000_000],
        [clean, total - depositValue - 2 * 100_000_000 - 2 * fee],
      ],
    );
    // Independently of the tracer: the receivers' satoshis over every satoshi spent.
    const stolen = receivers.reduce((s, r) => s + r.value, 0);
    const expected = stolen / total;
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(1);

    // Haircut alone: the ledger written without clustering (the clean coin keeps its own owner).
    const haircut = await screen([...funding, mixing, onward], false);
    expect(haircut).toHaveLength(2);
    for (const share of haircut) expect(share).toBeCloseTo(expected, 12);
    // With common-input clustering (the engine's default as it loads transactions): the clean
    // address signed beside the receivers, so it joins their cluster and the coins are all stolen.
    expect(await screen([...funding, mixing, onward], true)).toEqual([1, 1]);
  });
});

/** The stolen_funds origin shares of the two deposits to `client`, screened by a fresh engine. */
async function screen(txs: ReadonlyArray<UtxoTransaction>, clustering: boolean): Promise<number[]> {
  const store = createMemoryStore();
  const imported = await importFile(store, { kind: "labels", file: CSV });
  expect(imported).toMatchObject({ added: 2072, rejected: 0 });
  const engine = createEngine({ store, clustering });
  if (clustering) await engine.reference.loadUtxoTransactions(txs);
  else await store.putUtxoTransactions(txs);
  engine.start();
  const shares: number[] = [];
  try {
    const api = engine.forAccount("exchange");
    const deposit = async (txid: string) => {
      const { transfer } = await api.registerTransfer({
        direction: "incoming",
        network: "BTC",
        tx_hash: txid,
        output_address: client,
      });
      await engine.drain();
      const risks = await api.getTransferRisks(transfer.id);
      return { view: await api.getTransfer(transfer.id), risks };
    };
    for (const [txid, amount] of [
      [txidOf(2), 10],
      [txidOf(3), 2],
    ] as const) {
      const { view, risks } = await deposit(txid);
      expect(view).toMatchObject({ tx_status: "bound", amount, risk_level: "high" });
      const origin = risks.filter((r) => r.risk_type === "origin_of_funds");
      expect(origin.map((r) => r.entity_category)).toEqual(["stolen_funds"]);
      shares.push(origin[0]?.value_share ?? Number.NaN);
    }
  } finally {
    await engine.stop();
  }
  return shares;
}
