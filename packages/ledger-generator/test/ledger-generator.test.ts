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

describe("the real-shaped ledger", () => {
  const options = { transfers: 20_000, seed: 5, shape: "real" as const };

  it("is the same for the same seed and another for another seed", () => {
    const first = [...ledgerRows(options)];
    expect([...ledgerRows(options)]).toEqual(first);
    expect([...ledgerRows({ ...options, seed: 6 })]).not.toEqual(first);
    expect(ledgerReferenceData(options)).toEqual(ledgerReferenceData(options));
  });

  it("has power-law hubs: the busiest address takes several percent of all transfers, most take one or two", () => {
    const rows = [...ledgerRows(options)];
    const fanIn = new Map<string, number>();
    for (const t of rows) {
      expect(t.from).not.toBe(t.to);
      expect(t.amount).toBeGreaterThan(0);
      fanIn.set(t.to, (fanIn.get(t.to) ?? 0) + 1);
    }
    const counts = [...fanIn.values()].sort((a, b) => b - a);
    expect(counts[0]).toBeGreaterThan(0.05 * rows.length);
    expect(counts.filter((k) => k <= 2).length).toBeGreaterThan(0.5 * counts.length);
    // The busiest recipients are the first addresses (the hubs).
    expect(fanIn.get(generatedAddress(1))).toBe(counts[0]);
  });

  it("attributes about 2% of the addresses with transfers and half the hubs, and sanctions about 0.1%", () => {
    const big = { transfers: 200_000, seed: 5, shape: "real" as const };
    const { attributions, sanctions, hubs } = ledgerReferenceData(big);
    const active = new Set<string>();
    for (const t of ledgerRows(big)) active.add(t.from).add(t.to);
    expect([...attributions, ...sanctions].every((a) => active.has(a.address))).toBe(true);
    const addresses = active.size;
    expect(hubs).toHaveLength(50);
    const hubSet = new Set(hubs);
    const attributedHubs = attributions.filter((a) => hubSet.has(a.address)).length;
    expect(attributedHubs).toBeGreaterThan(10);
    expect(attributedHubs).toBeLessThan(40);
    expect(attributions.length / addresses).toBeGreaterThan(0.015);
    expect(attributions.length / addresses).toBeLessThan(0.025);
    expect(sanctions.length / addresses).toBeGreaterThan(0.0005);
    expect(sanctions.length / addresses).toBeLessThan(0.002);
    const attributed = new Set(attributions.map((a) => a.address));
    expect(sanctions.some((s) => attributed.has(s.address))).toBe(false);
  });

  it("leaves the classic shape as it was", () => {
    expect([...ledgerRows({ transfers: 500, seed: 3, shape: "classic" })]).toEqual([
      ...ledgerRows({ transfers: 500, seed: 3 }),
    ]);
  });
});
