/**
 * The hub cache's two ways to its hubs' senders' siblings give it the same rows: the inner
 * reader's `ledgerSenderSiblings` (one call per lumped read's hubs) and, for readers without
 * it, an outgoing read per sender and time. On random hub-heavy ledgers with labels, caches
 * over both hold as many rows as each other and trace as the store's own reads, to the bit,
 * before and after rows are appended.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LedgerTransfer } from "../../src/domain/records.js";
import { createHubCachedLedger } from "../../src/engine/sources/hub-cached-ledger.js";
import { wholeAttributionSource, wholeSanctionsSource } from "../../src/engine/sources/whole-reference.js";
import { traceAddressExposure } from "../../src/exposure/address-exposure.js";
import { createEntityResolver } from "../../src/exposure/entity-resolver.js";
import { traceTransferExposure } from "../../src/exposure/transfer-exposure.js";
import type { LedgerReader } from "../../src/ports/ledger-reader.js";
import type { Store } from "../../src/ports/store.js";
import { createMemoryStore } from "../../src/store/index.js";
import { attr } from "../exposure/trace-fixtures.js";

const HUBS = ["h0", "h1"];
const SENDERS = Array.from({ length: 40 }, (_, i) => `s${i}`);
const OUTS = ["o0", "o1", "o2"];

const edge = fc.record({
  from: fc.oneof(fc.constantFrom(...SENDERS), fc.constantFrom(...HUBS)),
  to: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...HUBS) }, fc.constantFrom(...OUTS, ...SENDERS)),
  amount: fc.oneof(
    fc.constant(0),
    fc.integer({ min: 1, max: 50 }),
    fc.double({ min: 0.01, max: 5e4, noNaN: true }),
  ),
  // Few times: a sender's rows often share one.
  at: fc.integer({ min: 0, max: 60 }),
  logIndex: fc.integer({ min: -1, max: 1 }),
});

const world = fc.record({
  first: fc.array(edge, { minLength: 300, maxLength: 600 }),
  appended: fc.array(edge, { maxLength: 60 }),
  withBlocks: fc.boolean(),
  attributed: fc.dictionary(fc.constantFrom(...SENDERS, ...OUTS), fc.constantFrom("mixer", "exchange"), {
    maxKeys: 6,
  }),
  start: fc.constantFrom(...HUBS, "s1"),
});

/** Rows of `edges`, numbered from `from` (unique hashes). */
function rowsOf(
  edges: ReadonlyArray<{ from: string; to: string; amount: number; at: number; logIndex: number }>,
  from: number,
  withBlocks: boolean,
): LedgerTransfer[] {
  return edges.map((e, i) => ({
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
  }));
}

/** The store's reads and counts, without `ledgerSenderSiblings`. */
function plainReads(s: Store): LedgerReader {
  return {
    ledgerIncoming: (...a) => s.ledgerIncoming(...a),
    ledgerOutgoing: (...a) => s.ledgerOutgoing(...a),
    ledgerIncomingCounts: (...a) => s.ledgerIncomingCounts?.(...a) ?? Promise.reject(new Error("no counts")),
    ledgerOutgoingCounts: (...a) => s.ledgerOutgoingCounts?.(...a) ?? Promise.reject(new Error("no counts")),
  };
}

describe("hub-cached ledger: the senders' siblings", () => {
  it("holds the same rows and traces the same with ledgerSenderSiblings as with outgoing reads", async () => {
    let siblingCalls = 0;
    let siblingRows = 0;
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const store = createMemoryStore();
        await store.putLedgerTransfers(rowsOf(w.first, 0, w.withBlocks));
        await store.putAttributions(Object.entries(w.attributed).map(([a, c]) => attr(a, c)));
        const [attributions, sanctions] = await Promise.all([
          wholeAttributionSource(store),
          wholeSanctionsSource(store),
        ]);
        if (!attributions || !sanctions) throw new Error("reference data not held whole");
        const resolver = createEntityResolver({ attributions, sanctions });
        const siblings = store.ledgerSenderSiblings?.bind(store);
        if (!siblings) throw new Error("the memory store answers ledgerSenderSiblings");
        const joined: LedgerReader = {
          ...plainReads(store),
          async ledgerSenderSiblings(network, tokenId, addresses) {
            const out = await siblings(network, tokenId, addresses);
            siblingCalls += 1;
            for (const g of out) siblingRows += g.length;
            return out;
          },
        };
        const options = { minRows: 8, maxLagMs: 0 };
        const withJoin = await createHubCachedLedger(joined, store, options);
        const withReads = await createHubCachedLedger(plainReads(store), store, options);
        const traces = async (ledger: LedgerReader) => {
          const at = 80;
          const common = {
            ledger,
            resolver,
            network: "ETH",
            tokenId: "native",
            span: { from: at, to: at },
            at,
            minPathWeight: 0.001,
            maxHops: 4,
          };
          return JSON.stringify([
            await traceTransferExposure({
              ...common,
              direction: "incoming",
              counterparty: w.start,
              value: 1000,
            }),
            await traceAddressExposure({ ...common, address: w.start, side: "sender" }),
          ]);
        };
        const same = async () => {
          const expected = await traces(plainReads(store));
          expect(await traces(withJoin)).toBe(expected);
          expect(await traces(withReads)).toBe(expected);
          expect(withJoin.stats()).toEqual(withReads.stats());
        };
        await same();
        await store.putLedgerTransfers(rowsOf(w.appended, 10_000, w.withBlocks));
        await same();
      }),
      { numRuns: 30, endOnFailure: true },
    );
    // The property is about something: the join was asked and found siblings.
    expect(siblingCalls).toBeGreaterThan(10);
    expect(siblingRows).toBeGreaterThan(100);
  }, 300_000);
});
