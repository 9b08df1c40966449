/**
 * The hub cache (`createHubCachedLedger`) over the memory store: on random hub-heavy ledgers with
 * random labels, traces read through it give the results of traces over the store's own reads,
 * to the bit, after rows are appended (older and newer than held ones), after a rewind and its
 * replacement rows, and under a bound that evicts hubs.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LedgerTransfer } from "../../src/domain/records.js";
import {
  createHubCachedLedger,
  HUB_CACHE_BYTES_PER_ROW,
} from "../../src/engine/sources/hub-cached-ledger.js";
import { wholeAttributionSource, wholeSanctionsSource } from "../../src/engine/sources/whole-reference.js";
import { traceAddressExposure } from "../../src/exposure/address-exposure.js";
import { createEntityResolver } from "../../src/exposure/entity-resolver.js";
import { traceTransferExposure } from "../../src/exposure/transfer-exposure.js";
import type { LedgerReader } from "../../src/ports/ledger-reader.js";
import { manualClock } from "../../src/ports/runtime.js";
import type { LedgerChangesMark, Store } from "../../src/ports/store.js";
import { createMemoryStore } from "../../src/store/index.js";
import { attr, listing } from "../exposure/trace-fixtures.js";

const HUBS = ["h0", "h1"];
const SENDERS = Array.from({ length: 60 }, (_, i) => `s${i}`);
const OUTS = ["o0", "o1", "o2"];

const edge = fc.record({
  from: fc.oneof(fc.constantFrom(...SENDERS), fc.constantFrom(...HUBS)),
  to: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...HUBS) }, fc.constantFrom(...OUTS, ...SENDERS)),
  amount: fc.oneof(
    fc.constant(0),
    fc.integer({ min: 1, max: 50 }),
    fc.double({ min: 0.01, max: 5e4, noNaN: true }),
  ),
  at: fc.integer({ min: 0, max: 300 }),
  logIndex: fc.integer({ min: -1, max: 2 }),
});

const world = fc.record({
  first: fc.array(edge, { minLength: 400, maxLength: 800 }),
  appended: fc.array(edge, { maxLength: 80 }),
  replacement: fc.array(edge, { maxLength: 40 }),
  withBlocks: fc.boolean(),
  rewindAt: fc.integer({ min: 100, max: 300 }),
  /** Rows the cache may hold: small bounds evict. */
  bound: fc.oneof(fc.integer({ min: 30, max: 300 }), fc.constant(100_000)),
  attributed: fc.dictionary(
    fc.constantFrom(...SENDERS, ...HUBS, ...OUTS),
    fc.constantFrom("mixer", "exchange"),
    {
      maxKeys: 8,
    },
  ),
  sanctioned: fc.array(fc.constantFrom(...SENDERS), { maxLength: 2 }),
  start: fc.constantFrom(...HUBS, "s1"),
  minPathWeight: fc.constantFrom(0.001, 0.01),
  edgeBudget: fc.oneof(fc.integer({ min: 50, max: 400 }), fc.constant(10_000)),
});

/** Rows of `edges`, numbered from `from` (unique hashes). */
function rowsOf(
  edges: ReadonlyArray<{ from: string; to: string; amount: number; at: number; logIndex: number }>,
  from: number,
  withBlocks: boolean,
) {
  return edges.map(
    (e, i): LedgerTransfer => ({
      network: "ETH",
      txHash: `0x${from + i}`,
      logIndex: withBlocks ? e.logIndex : 0,
      tokenId: "native",
      from: e.from,
      to: e.to,
      amount: e.amount,
      occurredAt: e.at,
      block: withBlocks ? 9000 + e.at : null,
      valueUsd: null,
    }),
  );
}

/** Fails a test where a value must be there. */
function fail(): never {
  throw new Error("reference data not held whole");
}

/** The store's reads alone. */
function plainReads(s: Store): LedgerReader {
  return {
    ledgerIncoming: (...a) => s.ledgerIncoming(...a),
    ledgerOutgoing: (...a) => s.ledgerOutgoing(...a),
    ledgerIncomingCounts: (...a) => s.ledgerIncomingCounts?.(...a) ?? Promise.reject(new Error("no counts")),
    ledgerOutgoingCounts: (...a) => s.ledgerOutgoingCounts?.(...a) ?? Promise.reject(new Error("no counts")),
  };
}

describe("hub-cached ledger", () => {
  it("traces as the store's reads on random ledgers, through appends, a rewind and evictions", async () => {
    let unpresented = 0;
    let evicted = 0;
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const store = createMemoryStore();
        await store.putLedgerTransfers(rowsOf(w.first, 0, w.withBlocks));
        await store.putAttributions(Object.entries(w.attributed).map(([a, c]) => attr(a, c)));
        await store.putSanctions(w.sanctioned.map((a) => listing(a, null, null)));
        const [attributions, sanctions] = await Promise.all([
          wholeAttributionSource(store),
          wholeSanctionsSource(store),
        ]);
        if (!attributions || !sanctions) throw new Error("reference data not held whole");
        const resolver = createEntityResolver({ attributions, sanctions });
        const cached = await createHubCachedLedger(store, store, {
          minRows: 8,
          maxLagMs: 0,
          // Any hub may make way (the least recently read first), so that small bounds evict.
          minIdleMs: 0,
          maxBytes: w.bound * HUB_CACHE_BYTES_PER_ROW,
        });
        const lumped = cached.ledgerIncomingLumped?.bind(cached);
        const counted: LedgerReader = {
          ...cached,
          async ledgerIncomingLumped(...a) {
            const out = (await lumped?.(...a)) ?? [];
            for (const l of out) if (l) unpresented += l.prefixCount - l.presented.length;
            return out;
          },
        };
        const traces = async (ledger: LedgerReader) => {
          const at = 320;
          const common = {
            ledger,
            resolver,
            network: "ETH",
            tokenId: "native",
            span: { from: at, to: at },
            at,
            minPathWeight: w.minPathWeight,
            maxHops: 4,
            edgeBudget: w.edgeBudget,
          };
          return JSON.stringify([
            await traceTransferExposure({
              ...common,
              direction: "incoming",
              counterparty: w.start,
              value: 1000,
            }),
            await traceAddressExposure({ ...common, address: w.start, side: "sender" }),
            await traceAddressExposure({ ...common, address: "s1", side: "recipient", at: 0 }),
          ]);
        };
        const same = async () => expect(await traces(counted)).toBe(await traces(plainReads(store)));
        await same();
        await same();
        await store.putLedgerTransfers(rowsOf(w.appended, 10_000, w.withBlocks));
        await same();
        if (w.withBlocks) {
          await store.rewindFollowedChain("ETH", 9000 + w.rewindAt);
          await same();
          await store.putLedgerTransfers(rowsOf(w.replacement, 20_000, w.withBlocks));
          await same();
        }
        evicted += cached.stats().evicted;
      }),
      { numRuns: 40, endOnFailure: true },
    );
    // The property is about something: held hubs' rows were lumped, and hubs were evicted.
    expect(unpresented).toBeGreaterThan(100);
    expect(evicted).toBeGreaterThan(0);
  }, 300_000);

  it("holds the store's rows after a catch-up when hubs were loaded in between, with no catch-up of their own", async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const store = createMemoryStore();
        await store.putLedgerTransfers(rowsOf(w.first, 0, w.withBlocks));
        const resolver = createEntityResolver({
          attributions: (await wholeAttributionSource(store)) ?? fail(),
          sanctions: (await wholeSanctionsSource(store)) ?? fail(),
        });
        // The clock never moves: no read or load catches up by itself, only catchUp() does.
        const cached = await createHubCachedLedger(store, store, {
          minRows: 8,
          maxLagMs: 60_000,
          minIdleMs: 0,
          maxBytes: 100_000 * HUB_CACHE_BYTES_PER_ROW,
          clock: manualClock(0),
        });
        const traces = async (ledger: LedgerReader) => {
          const common = {
            ledger,
            resolver,
            network: "ETH",
            tokenId: "native",
            span: { from: 320, to: 320 },
            at: 320,
            minPathWeight: w.minPathWeight,
            maxHops: 4,
            edgeBudget: w.edgeBudget,
          };
          return JSON.stringify([
            await traceAddressExposure({ ...common, address: w.start, side: "sender" }),
            await traceAddressExposure({ ...common, address: "s1", side: "recipient", at: 0 }),
          ]);
        };
        const sameAfterCatchUp = async () => {
          await cached.catchUp();
          expect(await traces(cached)).toBe(await traces(plainReads(store)));
        };
        // Rows stored, then hubs loaded (by reads) before any catch-up has seen those rows.
        await store.putLedgerTransfers(rowsOf(w.appended, 10_000, w.withBlocks));
        await traces(cached);
        await sameAfterCatchUp();
        if (w.withBlocks) {
          await store.rewindFollowedChain("ETH", 9000 + w.rewindAt);
          await store.putLedgerTransfers(rowsOf(w.replacement, 20_000, w.withBlocks));
          await traces(cached);
          await sameAfterCatchUp();
        }
      }),
      { numRuns: 25, endOnFailure: true },
    );
  }, 300_000);

  it("following a change log, reads its whole window again after a load: a row the load did not see reaches the hub", async () => {
    const clock = manualClock(0);
    const tables = createMemoryStore();
    const row = (i: number, txHash = `0x${i}`): LedgerTransfer => ({
      network: "ETH",
      txHash,
      logIndex: 0,
      tokenId: "native",
      from: `s${i % 7}`,
      to: "h",
      amount: i + 1,
      occurredAt: i * 1000,
      block: null,
      valueUsd: null,
    });
    const first = Array.from({ length: 20 }, (_, i) => row(i));
    await tables.putLedgerTransfers(first);
    // A change log whose marks remember every row they gave (as ClickHouse's do).
    const log: LedgerTransfer[] = [...first];
    const given = new WeakMap<LedgerChangesMark, Set<string>>();
    const changes: Pick<Store, "ledgerChangesSince"> = {
      async ledgerChangesSince(since) {
        const at = clock.now();
        const seen = (since && given.get(since)) || new Set<string>();
        const next = { at };
        given.set(next, new Set(log.map((r) => r.txHash)));
        return { at, rows: since ? log.filter((r) => !seen.has(r.txHash)) : [], next };
      },
    };
    const cached = await createHubCachedLedger(tables, changes, { minRows: 8, maxLagMs: 60_000, clock });
    const all = [{ address: "h", before: 1e9 }];
    // Logged and given before the hub is held (so skipped), and not in the tables a load reads yet.
    const late = row(99, "0xlate");
    log.push(late);
    expect(await cached.catchUp()).toBe(0);
    expect(await cached.ledgerIncoming("ETH", "native", all, 1_000)).toHaveLength(20);
    expect(cached.stats()).toMatchObject({ hubs: 1, rows: 20 });
    await tables.putLedgerTransfers([late]);
    // The catch-up after the load is given every row again: the late one reaches the hub.
    expect(await cached.catchUp()).toBe(1);
    expect(await cached.ledgerIncoming("ETH", "native", all, 1_000)).toHaveLength(21);
    // And the one after it nothing.
    expect(await cached.catchUp()).toBe(0);
  });

  it("does not load again, for minIdleMs, a hub it refused for want of room", async () => {
    const clock = manualClock(0);
    const store = createMemoryStore();
    const out = (from: string, n: number, at0: number) =>
      Array.from(
        { length: n },
        (_, i): LedgerTransfer => ({
          network: "ETH",
          txHash: `0x${from}${i}`,
          logIndex: 0,
          tokenId: "native",
          from,
          to: `r${i}`,
          amount: 1,
          occurredAt: at0 + i,
          block: null,
          valueUsd: null,
        }),
      );
    await store.putLedgerTransfers([...out("a", 40, 0), ...out("b", 40, 0)]);
    let loads = 0;
    const limits: number[] = [];
    const inner: LedgerReader = {
      ...plainReads(store),
      async ledgerOutgoing(network, tokenId, queries, limit) {
        // A load reads every time of the address.
        if (queries[0]?.after === Number.MIN_SAFE_INTEGER) {
          loads += 1;
          limits.push(limit);
        }
        return store.ledgerOutgoing(network, tokenId, queries, limit);
      },
    };
    const cached = await createHubCachedLedger(inner, store, {
      minRows: 8,
      maxBytes: 60 * HUB_CACHE_BYTES_PER_ROW,
      minIdleMs: 1_000,
      clock,
    });
    const count = (address: string, after: number) =>
      cached.ledgerOutgoingCounts?.("ETH", "native", [{ address, after }]);
    // "a" is loaded; "b" counts 10 rows after 29, fits on that count, is loaded (40 rows) and refused.
    expect(await count("a", -1)).toEqual([40]);
    expect(await count("b", 29)).toEqual([10]);
    expect(loads).toBe(2);
    // A load asks one row more than the cache holds (60), never the whole address.
    expect(limits).toEqual([61, 61]);
    expect(cached.stats()).toMatchObject({ hubs: 1, refused: 1 });
    // Met again within minIdleMs: answered from the store, not loaded again; "a" still held.
    clock.advance(500);
    expect(await count("b", 29)).toEqual([10]);
    expect(await count("a", -1)).toEqual([40]);
    expect(loads).toBe(2);
    // After minIdleMs both may be tried again; "a", read at 500, is idle at 1,600 and makes way.
    clock.advance(1_100);
    expect(await count("b", 29)).toEqual([10]);
    expect(loads).toBe(3);
    expect(cached.stats()).toMatchObject({ hubs: 1, evicted: 1, refused: 1 });
    expect(await cached.ledgerOutgoing("ETH", "native", [{ address: "b", after: -1 }], 100)).toHaveLength(40);
  });

  it("reads at most one row more than it holds when loading a hub past its bound, and refuses it", async () => {
    const store = createMemoryStore();
    const rows = Array.from(
      { length: 500 },
      (_, i): LedgerTransfer => ({
        network: "ETH",
        txHash: `0xbig${i}`,
        logIndex: 0,
        tokenId: "native",
        from: "big",
        to: `r${i}`,
        amount: 1,
        occurredAt: i,
        block: null,
        valueUsd: null,
      }),
    );
    await store.putLedgerTransfers(rows);
    const returned: number[] = [];
    const inner: LedgerReader = {
      ...plainReads(store),
      async ledgerOutgoing(network, tokenId, queries, limit) {
        const out = await store.ledgerOutgoing(network, tokenId, queries, limit);
        if (queries[0]?.after === Number.MIN_SAFE_INTEGER) returned.push(out.length);
        return out;
      },
    };
    const cached = await createHubCachedLedger(inner, store, {
      minRows: 8,
      maxBytes: 100 * HUB_CACHE_BYTES_PER_ROW,
      clock: manualClock(0),
    });
    // 20 rows after 479 fit on that count: the load reads 101 of the 500 rows and refuses the hub.
    expect(await cached.ledgerOutgoingCounts?.("ETH", "native", [{ address: "big", after: 479 }])).toEqual([
      20,
    ]);
    expect(returned).toEqual([101]);
    expect(cached.stats()).toMatchObject({ hubs: 0, refused: 1 });
    // Reads are answered whole from the store.
    expect(await cached.ledgerOutgoing("ETH", "native", [{ address: "big", after: -1 }], 1_000)).toHaveLength(
      500,
    );
  });
});
