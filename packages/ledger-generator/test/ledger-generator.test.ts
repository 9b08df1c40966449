import { describe, expect, it } from "vitest";
import {
  generatedAddress,
  generatedTxHash,
  generateLedger,
  ledgerReferenceData,
  ledgerRows,
} from "../src/index.js";

describe("the generated ledger", () => {
  it("is the same for the same options and another for another seed", () => {
    const options = { transfers: 2_000, seed: 42 };
    const first = [...ledgerRows(options)];
    expect([...ledgerRows(options)]).toEqual(first);
    expect([...ledgerRows({ ...options, seed: 43 })]).not.toEqual(first);
    expect(ledgerReferenceData(options)).toEqual(ledgerReferenceData(options));
  });

  it("has one row per hash, in time order, between two distinct generated addresses", () => {
    const start = Date.UTC(2026, 0, 1);
    const rows = [...ledgerRows({ transfers: 3_000, addresses: 200, start, days: 10, seed: 1 })];
    expect(rows).toHaveLength(3_000);
    expect(new Set(rows.map((r) => r.txHash)).size).toBe(3_000);
    expect(rows[0]?.txHash).toBe(generatedTxHash(1));
    const addresses = new Set(Array.from({ length: 200 }, (_, i) => generatedAddress(i + 1)));
    for (const [i, row] of rows.entries()) {
      expect(row.from).not.toBe(row.to);
      expect(addresses.has(row.from) && addresses.has(row.to)).toBe(true);
      expect(row.amount).toBeGreaterThan(0);
      expect(row.occurredAt).toBeGreaterThanOrEqual(i === 0 ? start : (rows[i - 1]?.occurredAt ?? 0));
      expect(row.occurredAt).toBeLessThan(start + 10 * 86_400_000);
    }
  });

  it("has heavy-tailed fan-in: the busiest address takes far more than the mean", () => {
    const { transfers } = generateLedger({ transfers: 5_000, seed: 7 });
    const fanIn = new Map<string, number>();
    for (const t of transfers) fanIn.set(t.to, (fanIn.get(t.to) ?? 0) + 1);
    const mean = transfers.length / fanIn.size;
    expect(Math.max(...fanIn.values())).toBeGreaterThan(10 * mean);
  });

  it("attributes the hubs as exchanges and lists a few sanctioned addresses", () => {
    const { attributions, sanctions, hubs } = ledgerReferenceData({ transfers: 50_000, seed: 7 });
    expect(hubs).toHaveLength(50);
    expect(attributions.slice(0, 50).every((a) => a.entityCategory === "exchange")).toBe(true);
    expect(sanctions.length).toBeGreaterThan(0);
    const attributed = new Set(attributions.map((a) => a.address));
    expect(sanctions.some((s) => attributed.has(s.address))).toBe(false);
  });
});
