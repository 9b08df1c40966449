/**
 * A Bitcoin deposit's report read back with pdftotext: the strongest paths are laid out coin by
 * coin (hop, address, the full txid:vout, the value in BTC with 8 decimals) under a sentence
 * naming the taint rule the trace used, haircut by default and FIFO as an engine option. The
 * ledger is the testkit's Bitcoin world: a deposit of 8 BTC to the client spending a's 4 BTC
 * (from the sanctioned address's 5 BTC) and b's 6 BTC (from the exchange's 10 BTC).
 */

import { fileURLToPath } from "node:url";
import {
  createEngine,
  createMemoryStore,
  type Engine,
  type EngineConfig,
  manualClock,
  sequentialIds,
} from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { B, BITCOIN_LEDGER, BTC_USD, BTX } from "../../testkit/src/engine-scenarios-bitcoin.js";
import { HOUR, NOW, T0 } from "../../testkit/src/index.js";
import { formatSats } from "../src/report-utxo-paths.js";
import { compactText, pdfText, pdfToPngs, popplerMissing } from "./poppler-tools.js";
import { recordingRenderer } from "./report-fixtures.js";

const missing = popplerMissing();
/** Where the pages go as PNGs, for a person to look at (as report-samples.test.ts does). */
const OUT = fileURLToPath(new URL("../../../test-output/reports/", import.meta.url));

/** An engine over the Bitcoin world, its deposit registered and checked. */
async function bitcoinDeposit(
  overrides: Partial<EngineConfig> = {},
): Promise<{ engine: Engine; id: string }> {
  const engine = createEngine({
    store: createMemoryStore(),
    clock: manualClock(NOW),
    ids: sequentialIds(),
    reportRenderer: recordingRenderer(),
    ...overrides,
  });
  await engine.reference.loadUtxoTransactions(BITCOIN_LEDGER);
  await engine.reference.loadAttributions([
    {
      network: "BTC",
      address: B.exchange,
      entityName: "Big Exchange",
      entityCategory: "exchange",
      source: "test",
    },
  ]);
  await engine.reference.loadSanctions([
    {
      network: "BTC",
      address: B.sanctioned,
      listName: "OFAC SDN",
      program: "CYBER2",
      entity: "Bad Actor",
      listedAt: null,
      delistedAt: null,
    },
  ]);
  const days = [0, 1].map((d) => new Date(T0 + d * 24 * HOUR).toISOString().slice(0, 10));
  await engine.reference.loadPrices(
    days.map((day) => ({ network: "BTC", tokenId: "native", day, usd: BTC_USD })),
  );
  const { transfer } = await engine.forAccount("acme").registerTransfer({
    direction: "incoming",
    network: "BTC",
    tx_hash: BTX.deposit,
    output_address: B.client,
  });
  await engine.drain();
  return { engine, id: transfer.id };
}

describe("formatSats", () => {
  it("writes satoshis as coins with 8 decimals, exactly", () => {
    expect(formatSats(0)).toBe("0.00000000");
    expect(formatSats(1)).toBe("0.00000001");
    expect(formatSats(800_000_000)).toBe("8.00000000");
    expect(formatSats(2_100_000_000_000_000)).toBe("21,000,000.00000000");
    expect(formatSats(123_456_789)).toBe("1.23456789");
  });
});

describe.skipIf(missing !== null)(
  `PDF: a Bitcoin deposit's paths${missing ? ` (skipped: ${missing})` : ""}`,
  () => {
    it("lays out each hop as a coin: address, full txid:vout, value in BTC; the haircut rule named", async () => {
      const { engine, id } = await bitcoinDeposit();
      try {
        const api = engine.forAccount("acme");
        const exposure = await api.getTransferExposure(id);
        expect(exposure.utxo_rule).toBe("haircut");
        const sanctions = exposure.indirect_interaction?.find((s) => s.entity_category === "sanctions");
        // The deposit's own output is hop 0; a's coin (hop 1) came from the sanctioned address (hop 2).
        expect(sanctions?.strongest_path).toMatchObject({
          hops: 2,
          tx_hashes: [`${BTX.deposit}:0`, `${BTX.sanctionedToA}:0`, `${BTX.mintSanctioned}:0`],
          coin_values: [8, 4, 5],
        });
        const report = await api.transferReport(id);
        const text = pdfText(report.bytes);
        const compact = compactText(report.bytes);
        expect(text).toContain("by the haircut rule: every output of a transaction carries the composition");
        expect(text).not.toContain("FIFO rule");
        // Every coin of both paths with its full outpoint and value.
        for (const outpoint of [
          `${BTX.deposit}:0`,
          `${BTX.sanctionedToA}:0`,
          `${BTX.mintSanctioned}:0`,
          `${BTX.exchangeToB}:0`,
          `${BTX.mintExchange}:0`,
        ]) {
          expect(compact).toContain(outpoint);
        }
        expect(text).toMatch(/Sanctions \(Bad Actor\): 40\.0% of the value .*first met at hop 2/);
        expect(text).toMatch(/0 This transfer's output\s+8\.00000000 BTC/);
        expect(text).toMatch(/1 Spent by this transfer \(sender\)\s+4\.00000000 BTC/);
        expect(text).toMatch(/2 Sanctions\s+5\.00000000 BTC/);
        expect(text).toMatch(/1 Spent by this transfer \(sender\)\s+6\.00000000 BTC/);
        expect(text).toMatch(/2 Exchange\s+10\.00000000 BTC/);
        expect(text).toContain("Value (BTC)");
        expect(pdfToPngs(report.bytes, OUT, "btc-deposit", 110).length).toBeGreaterThan(0);
      } finally {
        await engine.stop();
      }
    });

    it("names FIFO when the engine traces by it", async () => {
      const { engine, id } = await bitcoinDeposit({ tracing: { utxoRule: "fifo" } });
      try {
        const api = engine.forAccount("acme");
        expect((await api.getTransferExposure(id)).utxo_rule).toBe("fifo");
        const text = pdfText((await api.transferReport(id)).bytes);
        expect(text).toContain("by the FIFO rule: a transaction's inputs and outputs are laid end to end");
        expect(text).toMatch(/Sanctions \(Bad Actor\): 50\.0% of the value/);
      } finally {
        await engine.stop();
      }
    });
  },
);
