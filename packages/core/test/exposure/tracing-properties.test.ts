import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ExposureResult, LedgerTransfer } from "../../src/domain/records.js";
import { traceAddressExposure } from "../../src/exposure/address-exposure.js";
import { traceTransferExposure } from "../../src/exposure/transfer-exposure.js";
import { referenceShares } from "./reference-haircut.js";
import { attr, ledgerOf, listing, resolverOf } from "./trace-fixtures.js";

const ADDRESSES = ["a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"];
const CATEGORIES = ["exchange", "mixer", "scam", "gambling", "dex"];

/** A random small ledger (unique ids), attributions, listings and a trace query. */
const world = fc
  .record({
    edges: fc.array(
      fc.record({
        from: fc.constantFrom(...ADDRESSES),
        to: fc.constantFrom(...ADDRESSES),
        amount: fc.oneof(
          fc.constant(0),
          fc.integer({ min: 1, max: 1000 }),
          fc.double({ min: 0.001, max: 1e6, noNaN: true }),
        ),
        at: fc.integer({ min: 0, max: 100 }),
        // A log index: -1 (a native value, position in the block unknown) or a position >= 0.
        logIndex: fc.integer({ min: -1, max: 4 }),
      }),
      // Dense enough that traces go several hops deep and meet several categories.
      { minLength: 20, maxLength: 120, size: "max" },
    ),
    attributed: fc.dictionary(fc.constantFrom(...ADDRESSES), fc.constantFrom(...CATEGORIES), {
      minKeys: 2,
      maxKeys: 4,
    }),
    sanctioned: fc.subarray(ADDRESSES, { maxLength: 2 }),
    counterparty: fc.constantFrom(...ADDRESSES),
    at: fc.integer({ min: 60, max: 110 }),
    direction: fc.constantFrom("incoming" as const, "outgoing" as const),
    value: fc.option(fc.double({ min: 0, max: 1e7, noNaN: true }), { nil: null }),
    maxHops: fc.integer({ min: 1, max: 8 }),
    minPathWeight: fc.constantFrom(0, 1e-4, 0.01, 0.1),
    // Blocks: none (ordered by time alone), or one block per time; times come in steps of 10 or
    // of 1 so that several transfers share a time (and a block).
    withBlocks: fc.boolean(),
    coarse: fc.boolean(),
    edgeBudget: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constant(10_000)),
    seed: fc.integer(),
  })
  .map((w) => ({
    ...w,
    rows: w.edges.map((e, i): LedgerTransfer => {
      const occurredAt = w.coarse ? e.at - (e.at % 10) : e.at;
      return {
        network: "ETH",
        txHash: `0x${i}`,
        logIndex: w.withBlocks ? e.logIndex : 0,
        tokenId: "native",
        from: e.from,
        to: e.to,
        amount: e.amount,
        occurredAt,
        block: w.withBlocks ? 5000 + occurredAt : null,
        valueUsd: null,
      };
    }),
  }));

function resolverFor(w: { attributed: Record<string, string>; sanctioned: string[] }) {
  return resolverOf(
    Object.entries(w.attributed).map(([a, c]) => attr(a, c)),
    w.sanctioned.map((a) => listing(a, null, null)),
  );
}

/** A deterministic shuffle driven by `seed`. */
function shuffled<T>(items: ReadonlyArray<T>, seed: number): T[] {
  const out = [...items];
  let s = seed >>> 0 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function expectWellFormed(result: ExposureResult, value: number | null): void {
  const categories = result.shares.map((s) => s.category);
  expect(new Set(categories).size).toBe(categories.length);
  let sum = 0;
  for (const s of result.shares) {
    expect(s.share).toBeGreaterThanOrEqual(0);
    expect(s.share).toBeLessThanOrEqual(1);
    expect(s.valueInFiat).toBe(value === null ? null : s.share * value);
    expect(s.entityNames.length).toBeLessThanOrEqual(3);
    expect(s.path.length).toBeGreaterThanOrEqual(1);
    sum += s.share;
  }
  expect(Math.abs(sum - 1)).toBeLessThan(1e-9);
  if (result.truncated) expect(categories).toContain("undefined");
}

describe("tracing properties", () => {
  it("agrees with a plain recursive haircut when the budget does not run out", async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const result = await traceTransferExposure({
          ...w,
          direction: "incoming",
          edgeBudget: 10_000,
          ledger: ledgerOf(w.rows),
          resolver: resolverFor(w),
          network: "ETH",
          tokenId: "native",
          span: { from: w.at, to: 100 },
        });
        if (result.truncated) return;
        const categoryOf = (a: string) => (w.sanctioned.includes(a) ? "sanctions" : w.attributed[a]);
        const expected = referenceShares(
          w.rows,
          categoryOf,
          w.counterparty,
          w.at,
          w.maxHops,
          w.minPathWeight,
        );
        const got = new Map(result.shares.map((s) => [s.category, s.share]));
        for (const [category, share] of expected) {
          if (share > 1e-12) expect(Math.abs((got.get(category) ?? 0) - share)).toBeLessThan(1e-9);
        }
        for (const category of got.keys()) expect(expected.has(category)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("transfer shares are each in [0, 1] and sum to 1, within the edge budget", async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const result = await traceTransferExposure({
          ...w,
          ledger: ledgerOf(w.rows),
          resolver: resolverFor(w),
          network: "ETH",
          tokenId: "native",
          span: { from: w.at, to: 100 },
        });
        expectWellFormed(result, w.value);
        expect(result.edgesRead).toBeLessThanOrEqual(w.edgeBudget);
        expect(result.hops).toBeLessThanOrEqual(w.maxHops);
      }),
      { numRuns: 300 },
    );
  });

  it("address exposure shares are each in [0, 1] and sum to 1", async () => {
    await fc.assert(
      fc.asyncProperty(world, fc.constantFrom("sender" as const, "recipient" as const), async (w, side) => {
        const result = await traceAddressExposure({
          ...w,
          ledger: ledgerOf(w.rows),
          resolver: resolverFor(w),
          network: "ETH",
          tokenId: "native",
          address: w.counterparty,
          side,
          span: { from: w.at, to: 100 },
        });
        if (result.entity) expect(result.exposure).toBeNull();
        else expectWellFormed(result.exposure!, null);
      }),
      { numRuns: 300 },
    );
  });

  it("does not depend on the order the ledger rows were added in", async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const common = { ...w, network: "ETH", tokenId: "native", span: { from: w.at, to: 100 } };
        const first = await traceTransferExposure({
          ...common,
          ledger: ledgerOf(w.rows),
          resolver: resolverFor(w),
        });
        const again = await traceTransferExposure({
          ...common,
          ledger: ledgerOf(shuffled(w.rows, w.seed)),
          resolver: resolverFor(w),
        });
        expect(again).toEqual(first);
        const side = w.direction === "incoming" ? "sender" : "recipient";
        const address = { ...common, address: w.counterparty, side } as const;
        const one = await traceAddressExposure({
          ...address,
          ledger: ledgerOf(w.rows),
          resolver: resolverFor(w),
        });
        const two = await traceAddressExposure({
          ...address,
          ledger: ledgerOf(shuffled(w.rows, w.seed + 1)),
          resolver: resolverFor(w),
        });
        expect(two).toEqual(one);
      }),
      { numRuns: 300 },
    );
  });

  it("traces a ledger whose times all differ the same with or without block numbers", async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        // One transfer per time, each in its own block (blocks in time order, log indexes as drawn).
        const byTime = new Map(w.rows.map((r) => [r.occurredAt, r]));
        const distinct = [...byTime.values()];
        const withBlocks = distinct.map((r) => ({ ...r, block: 7_000 + r.occurredAt }));
        const timeOnly = distinct.map((r) => ({ ...r, block: null }));
        const common = { ...w, network: "ETH", tokenId: "native", span: { from: w.at, to: 100 } };
        const a = await traceTransferExposure({
          ...common,
          ledger: ledgerOf(withBlocks),
          resolver: resolverFor(w),
        });
        const b = await traceTransferExposure({
          ...common,
          ledger: ledgerOf(timeOnly),
          resolver: resolverFor(w),
        });
        expect(a).toEqual(b);
      }),
      { numRuns: 200 },
    );
  });

  it("never explains less weight with a larger edge budget when nothing was truncated", async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const common = { ...w, network: "ETH", tokenId: "native", span: { from: w.at, to: 100 } };
        const small = await traceTransferExposure({
          ...common,
          ledger: ledgerOf(w.rows),
          resolver: resolverFor(w),
        });
        if (small.truncated) return;
        const large = await traceTransferExposure({
          ...common,
          edgeBudget: w.edgeBudget + 100,
          ledger: ledgerOf(w.rows),
          resolver: resolverFor(w),
        });
        expect(large).toEqual(small);
      }),
      { numRuns: 300 },
    );
  });
});
