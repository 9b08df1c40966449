/**
 * Lumped reads (`LedgerReader.ledgerIncomingLumped`): on hub-heavy ledgers with random labels,
 * traces over a reader that lumps a hub's rows below the floor give the same results, to the
 * bit, as traces over the plain reads of the same index.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Attribution, LedgerTransfer, SanctionsListing } from "../../src/domain/records.js";
import { wholeAttributionSource, wholeSanctionsSource } from "../../src/engine/sources/whole-reference.js";
import { traceAddressExposure } from "../../src/exposure/address-exposure.js";
import { clusterResolver } from "../../src/exposure/cluster-resolver.js";
import { createEntityResolver } from "../../src/exposure/entity-resolver.js";
import { heldAttributionSource, heldSanctionsSource } from "../../src/exposure/held-reference.js";
import { LedgerImageBuilder } from "../../src/exposure/ledger-image.js";
import { LedgerImageReader } from "../../src/exposure/ledger-image-reader.js";
import { LedgerIndex } from "../../src/exposure/ledger-index.js";
import { traceTransferExposure } from "../../src/exposure/transfer-exposure.js";
import type { LedgerReader } from "../../src/ports/ledger-reader.js";
import { createMemoryStore } from "../../src/store/index.js";
import { attr, listing, tr } from "./trace-fixtures.js";

/**
 * A hub with 400 unlabelled senders that funds `top`, beside `other` (funded by `x`); s5 is funded
 * by a labelled address, so the weight s5 gets shows in a result.
 */
function sharedChildLedger(): LedgerTransfer[] {
  return [
    ...Array.from({ length: 400 }, (_, i) => tr(`s${i}`, "hub", 1 + (i % 13), i)),
    tr("hub", "top", 1, 900),
    tr("other", "top", 1, 900),
    tr("x", "other", 1, 3),
    tr("funder", "s5", 1, 2),
  ];
}

const HUBS = ["h0", "h1"];
const SENDERS = Array.from({ length: 150 }, (_, i) => `s${i}`);
const CATEGORIES = ["exchange", "mixer", "scam", "gambling"];

/** A ledger of hubs with hundreds of incoming rows each, hubs feeding hubs, and random labels. */
const world = fc
  .record({
    hubRows: fc.array(
      fc.record({
        from: fc.oneof(fc.constantFrom(...SENDERS), fc.constantFrom(...HUBS)),
        to: fc.constantFrom(...HUBS),
        amount: fc.oneof(
          fc.constant(0),
          fc.constant(5),
          fc.integer({ min: 1, max: 50 }),
          fc.double({ min: 0.01, max: 5e4, noNaN: true }),
        ),
        at: fc.integer({ min: 0, max: 400 }),
        logIndex: fc.integer({ min: -1, max: 3 }),
      }),
      { minLength: 400, maxLength: 900 },
    ),
    attributed: fc.dictionary(fc.constantFrom(...SENDERS, ...HUBS), fc.constantFrom(...CATEGORIES), {
      maxKeys: 12,
    }),
    sanctioned: fc.array(
      fc.record({ address: fc.constantFrom(...SENDERS), from: fc.integer({ min: 0, max: 500 }) }),
      { maxLength: 3 },
    ),
    start: fc.constantFrom(...HUBS),
    at: fc.integer({ min: 200, max: 420 }),
    minPathWeight: fc.constantFrom(0.001, 0.005, 0.02),
    maxHops: fc.integer({ min: 1, max: 5 }),
    edgeBudget: fc.oneof(fc.integer({ min: 100, max: 800 }), fc.constant(10_000)),
    withBlocks: fc.boolean(),
    cut: fc.integer({ min: 150, max: 450 }),
    // Rows left out of a ledger image whatever their time: its delta, sometimes before image rows.
    late: fc.array(fc.nat(), { maxLength: 30 }),
  })
  .map((w) => ({
    ...w,
    rows: w.hubRows.map(
      (e, i): LedgerTransfer => ({
        network: "ETH",
        txHash: `0x${i}`,
        logIndex: w.withBlocks ? e.logIndex : 0,
        tokenId: "native",
        from: e.from,
        to: e.to,
        amount: e.amount,
        occurredAt: e.at,
        block: w.withBlocks ? 9000 + e.at : null,
        valueUsd: null,
      }),
    ),
    attributions: Object.entries(w.attributed).map(([a, c]) => attr(a, c)),
    listings: w.sanctioned.map((s) => listing(s.address, s.from, s.from + 50)),
  }));

/** The reads of `index` without the lumped one: what the tracer reads when a reader does not lump. */
function plainReader(index: LedgerIndex | LedgerImageReader): LedgerReader {
  return {
    ledgerIncoming: (...a) => index.ledgerIncoming(...a),
    ledgerOutgoing: (...a) => index.ledgerOutgoing(...a),
    ledgerIncomingCounts: (...a) => index.ledgerIncomingCounts(...a),
    ledgerOutgoingCounts: (...a) => index.ledgerOutgoingCounts(...a),
  };
}

/** The reads of `index`, counting the rows its lumped reads leave unpresented. */
function lumpingReader(index: LedgerIndex | LedgerImageReader, lumped: { rows: number }): LedgerReader {
  return {
    ...plainReader(index),
    async ledgerIncomingLumped(...a) {
      const out = await index.ledgerIncomingLumped(...a);
      for (const l of out) if (l) lumped.rows += l.prefixCount - l.presented.length;
      return out;
    },
  };
}

/** A resolver over attributions and sanctions held whole, as a warm process holds them. */
async function wholeResolver(
  attributions: ReadonlyArray<Attribution>,
  listings: ReadonlyArray<SanctionsListing>,
) {
  const store = createMemoryStore();
  await store.putAttributions(attributions);
  await store.putSanctions(listings);
  const [attributionSource, sanctions] = await Promise.all([
    wholeAttributionSource(store),
    wholeSanctionsSource(store),
  ]);
  if (!attributionSource || !sanctions) throw new Error("reference data too large to hold whole");
  const sources = { attributions: attributionSource, sanctions };
  return { resolver: createEntityResolver(sources), sources, store };
}

/** Both traces of a screened transfer at `w.start`, as JSON (floats to the last bit). */
async function traces(
  ledger: LedgerReader,
  resolver: ReturnType<typeof createEntityResolver>,
  w: { start: string; at: number; minPathWeight: number; maxHops: number; edgeBudget: number },
): Promise<string> {
  const span = { from: w.at, to: w.at };
  const common = { ledger, resolver, network: "ETH", tokenId: "native", span, ...w };
  const transfer = await traceTransferExposure({
    ...common,
    direction: "incoming",
    counterparty: w.start,
    value: 1000,
  });
  const address = await traceAddressExposure({ ...common, address: w.start, side: "sender" });
  return JSON.stringify([transfer, address]);
}

describe("lumped reads", () => {
  it("give the plain reads' results to the bit on hub-heavy ledgers with random labels", async () => {
    const lumped = { rows: 0 };
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        // The rows before `cut` compacted, the later ones added after the first traces: read as
        // recent rows, and sharing children with compacted ones.
        const index = new LedgerIndex();
        index.add(w.rows.filter((r) => r.occurredAt < w.cut));
        index.compact();
        const { resolver } = await wholeResolver(w.attributions, w.listings);
        for (const phase of [0, 1]) {
          if (phase === 1) index.add(w.rows.filter((r) => r.occurredAt >= w.cut));
          const plain = await traces(plainReader(index), resolver, w);
          expect(await traces(lumpingReader(index, lumped), resolver, w)).toBe(plain);
          // Twice: the second time from the lumps kept per hub.
          expect(await traces(lumpingReader(index, lumped), resolver, w)).toBe(plain);
        }
      }),
      { numRuns: 100, endOnFailure: true },
    );
    // The property is about something: rows were left unpresented.
    expect(lumped.rows).toBeGreaterThan(1000);
  });

  it("presents a row again once its sender is labelled", async () => {
    const rows = Array.from(
      { length: 400 },
      (_, i): LedgerTransfer => ({
        network: "ETH",
        txHash: `0x${i}`,
        logIndex: 0,
        tokenId: "native",
        from: `s${i}`,
        to: "hub",
        amount: i === 7 ? 30 : 1 + (i % 13),
        occurredAt: i,
        block: null,
        valueUsd: null,
      }),
    );
    const index = new LedgerIndex();
    index.add(rows);
    index.compact();
    const { resolver, sources, store } = await wholeResolver([], []);
    const w = { start: "hub", at: 1000, minPathWeight: 0.01, maxHops: 3, edgeBudget: 10_000 };
    const lumped = { rows: 0 };
    const before = await traces(lumpingReader(index, lumped), resolver, w);
    expect(before).toBe(await traces(plainReader(index), resolver, w));
    expect(lumped.rows).toBeGreaterThan(300);
    // s3 carried a part below the floor, unpresented: once labelled it is credited to its category.
    await store.putAttributions([attr("s3", "mixer")]);
    sources.attributions.clear();
    const labelled = await traces(plainReader(index), resolver, w);
    expect(labelled).not.toBe(before);
    expect(await traces(lumpingReader(index, lumped), resolver, w)).toBe(labelled);
  });

  it("keeps the path of the heaviest row below the floor, ties broken by address", async () => {
    // Every part is below the floor: the largest `undefined` contribution is the heaviest row's.
    const rows = Array.from(
      { length: 400 },
      (_, i): LedgerTransfer => ({
        network: "ETH",
        txHash: `0x${i}`,
        logIndex: 0,
        tokenId: "native",
        from: `s${i}`,
        to: "hub",
        amount: 1 + (i % 13),
        occurredAt: i,
        block: null,
        valueUsd: null,
      }),
    );
    const index = new LedgerIndex();
    index.add(rows);
    index.compact();
    const { resolver } = await wholeResolver([], []);
    const w = { start: "hub", at: 1000, minPathWeight: 0.01, maxHops: 3, edgeBudget: 10_000 };
    const lumped = { rows: 0 };
    const result = await traces(lumpingReader(index, lumped), resolver, w);
    expect(result).toBe(await traces(plainReader(index), resolver, w));
    expect(lumped.rows).toBeGreaterThan(300);
    // s103 is the first, by address, of the senders of the largest amount (13).
    expect(JSON.parse(result)[0].shares[0].path).toEqual(["hub", "s103"]);
  });

  it("takes the screen from sources held whole: one object per snapshot, none while a reload is awaited, none on UTXO networks", async () => {
    const { resolver, sources, store } = await wholeResolver([attr("s1", "mixer")], [listing("s2", 10, 20)]);
    const screen = resolver.addressScreen?.("ETH");
    expect(screen?.mayResolve("s1")).toBe(true);
    expect(screen?.mayResolve("s2")).toBe(true);
    expect(screen?.mayResolve("s3")).toBe(false);
    expect(resolver.addressScreen?.("ETH")).toBe(screen);
    await store.putAttributions([attr("s3", "scam")]);
    sources.attributions.clear();
    expect(resolver.addressScreen?.("ETH")).toBeNull();
    await resolver.resolve("ETH", ["s3"], { from: 0, to: 0 });
    const reloaded = resolver.addressScreen?.("ETH");
    expect(reloaded).not.toBe(screen);
    expect(reloaded?.mayResolve("s3")).toBe(true);
    const clustered = clusterResolver(resolver, store);
    expect(clustered.addressScreen?.("ETH")).toBe(reloaded);
    expect(clustered.addressScreen?.("BTC")).toBeNull();
    // A source that cannot name its addresses (a store read, a cache) turns lumping off.
    const uncached = createEntityResolver({
      attributions: { attributions: async () => [] },
      sanctions: sources.sanctions,
    });
    expect(uncached.addressScreen?.("ETH")).toBeNull();
  });

  it("presents a lumped row again when a new row elsewhere shares its child", async () => {
    // top is funded by hub and by other; s5 by a labelled address, so the weight s5 gets shows.
    const index = new LedgerIndex();
    index.add(sharedChildLedger());
    index.compact();
    const { resolver } = await wholeResolver([attr("funder", "exchange")], []);
    const w = { start: "top", at: 1000, minPathWeight: 0.01, maxHops: 4, edgeBudget: 10_000 };
    const lumped = { rows: 0 };
    expect(await traces(lumpingReader(index, lumped), resolver, w)).toBe(
      await traces(plainReader(index), resolver, w),
    );
    expect(lumped.rows).toBeGreaterThan(300);
    // s5 now also funds other at the time of its row into hub: in the hop that visits hub and
    // other, the two children of s5 merge, so hub's lumped row must count again.
    index.add([tr("s5", "other", 1, 5)]);
    const merged = await traces(plainReader(index), resolver, w);
    expect(await traces(lumpingReader(index, lumped), resolver, w)).toBe(merged);
  });

  it("over a ledger image and its delta (a screening thread's reader), give the plain reads' results to the bit", async () => {
    const lumped = { rows: 0 };
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        // The image holds the rows before `cut` but the `late` ones; the delta gets the late
        // ones first (some before image rows in ledger order, some sharing children with image
        // rows), then the rest; at last a new image of every row replaces it.
        const late = new Set(w.late.map((i) => i % w.rows.length));
        const early = w.rows.filter((r, i) => r.occurredAt < w.cut && !late.has(i));
        const builder = new LedgerImageBuilder();
        builder.add(early);
        const reader = new LedgerImageReader(builder.build());
        reader.append(w.rows.filter((_, i) => late.has(i)));
        const index = new LedgerIndex();
        index.add(early);
        index.compact();
        index.add(w.rows.filter((_, i) => late.has(i)));
        // The thread resolves from held rows: its screen must give the main thread's results.
        const { resolver } = await wholeResolver(w.attributions, w.listings);
        const held = createEntityResolver({
          attributions: heldAttributionSource(w.attributions),
          sanctions: heldSanctionsSource(w.listings),
        });
        expect(held.addressScreen?.("ETH")).not.toBeNull();
        for (const phase of [0, 1, 2]) {
          if (phase === 1) {
            const rest = w.rows.filter((r, i) => r.occurredAt >= w.cut && !late.has(i));
            reader.append(rest);
            index.add(rest);
          }
          if (phase === 2) {
            const all = new LedgerImageBuilder();
            all.add(w.rows);
            reader.replace(all.build());
          }
          const plain = await traces(plainReader(index), resolver, w);
          expect(await traces(plainReader(reader), held, w)).toBe(plain);
          expect(await traces(lumpingReader(reader, lumped), held, w)).toBe(plain);
          // Twice: the second time from the lumps kept per hub.
          expect(await traces(lumpingReader(reader, lumped), held, w)).toBe(plain);
        }
      }),
      { numRuns: 60, endOnFailure: true },
    );
    expect(lumped.rows).toBeGreaterThan(1000);
  });

  it("over a ledger image, presents a lumped row again when a delta row shares its child or the labels change", async () => {
    const builder = new LedgerImageBuilder();
    builder.add(sharedChildLedger());
    const reader = new LedgerImageReader(builder.build());
    const attributions = [attr("funder", "exchange")];
    const resolverOf = (labels: ReadonlyArray<Attribution>) =>
      createEntityResolver({
        attributions: heldAttributionSource(labels),
        sanctions: heldSanctionsSource([]),
      });
    const resolver = resolverOf(attributions);
    const w = { start: "top", at: 1000, minPathWeight: 0.01, maxHops: 4, edgeBudget: 10_000 };
    const lumped = { rows: 0 };
    expect(await traces(lumpingReader(reader, lumped), resolver, w)).toBe(
      await traces(plainReader(reader), resolver, w),
    );
    expect(lumped.rows).toBeGreaterThan(300);
    // s5 now also funds other at the time of its image row into hub: hub's lump is dropped.
    reader.append([tr("s5", "other", 1, 5)]);
    const merged = await traces(plainReader(reader), resolver, w);
    expect(await traces(lumpingReader(reader, lumped), resolver, w)).toBe(merged);
    // Labels reloaded (a new resolver, so a new screen): s3 is credited to its category.
    const relabelled = resolverOf([...attributions, attr("s3", "mixer")]);
    const labelled = await traces(plainReader(reader), relabelled, w);
    expect(labelled).not.toBe(merged);
    expect(await traces(lumpingReader(reader, lumped), relabelled, w)).toBe(labelled);
  });
});
