/**
 * Property tests of the store against plain reference implementations: random transfers and
 * filters for the transfer list, random ledgers and frontiers for the tracing reads.
 */
import type {
  IncomingQuery,
  LedgerTransfer,
  OutgoingQuery,
  TransferFilter,
  TransferRecord,
} from "@openkyt/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ConformanceContext } from "./store-conformance.js";
import { makeTransfer } from "./store-factories.js";

const RUNS = 25;

/** Binary string order, as SQL compares ASCII text. */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The transfer list by definition: filter, order newest first (ties by id descending). */
function referenceList(rows: ReadonlyArray<TransferRecord>, f: TransferFilter): string[] {
  const within = (v: number | null, from?: number, to?: number) =>
    (from === undefined || (v !== null && v >= from)) && (to === undefined || (v !== null && v <= to));
  return rows
    .filter(
      (t) =>
        (f.clientId === undefined || t.clientId === f.clientId) &&
        (f.direction === undefined || t.direction === f.direction) &&
        (f.network === undefined || t.network === f.network) &&
        (f.tokenSymbol === undefined || t.tokenSymbol?.toLowerCase() === f.tokenSymbol.toLowerCase()) &&
        (f.riskLevel === undefined || t.riskLevel === f.riskLevel) &&
        (f.counterpartyName === undefined || t.counterpartyName === f.counterpartyName) &&
        within(t.registeredAt, f.registeredFrom, f.registeredTo) &&
        within(t.occurredAt, f.occurredFrom, f.occurredTo),
    )
    .sort((a, b) => b.registeredAt - a.registeredAt || cmp(b.id, a.id))
    .map((t) => t.id);
}

/** Ledger order: time, hash, log index. */
function forward(a: LedgerTransfer, b: LedgerTransfer): number {
  return a.occurredAt - b.occurredAt || cmp(a.txHash, b.txHash) || a.logIndex - b.logIndex;
}

const transferArb = fc.record({
  clientId: fc.constantFrom(null, "c1", "c2"),
  direction: fc.constantFrom("incoming" as const, "outgoing" as const),
  network: fc.constantFrom("ETH", "TRX"),
  tokenSymbol: fc.constantFrom(null, "USDT", "usdt", "ETH"),
  riskLevel: fc.constantFrom("undefined" as const, "none" as const, "high" as const),
  counterpartyName: fc.constantFrom(null, "X", "Y"),
  registeredAt: fc.integer({ min: 0, max: 5 }),
  occurredAt: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
});

const filterArb: fc.Arbitrary<TransferFilter> = fc.record(
  {
    clientId: fc.constantFrom("c1", "c2"),
    direction: fc.constantFrom("incoming" as const, "outgoing" as const),
    network: fc.constantFrom("ETH", "TRX"),
    tokenSymbol: fc.constantFrom("usdt", "ETH"),
    riskLevel: fc.constantFrom("undefined" as const, "high" as const),
    counterpartyName: fc.constantFrom("X", "Y"),
    registeredFrom: fc.integer({ min: 0, max: 5 }),
    registeredTo: fc.integer({ min: 0, max: 5 }),
    occurredFrom: fc.integer({ min: 0, max: 5 }),
    occurredTo: fc.integer({ min: 0, max: 5 }),
  },
  { requiredKeys: [] },
);

const ledgerArb = fc.array(
  fc.record({
    from: fc.constantFrom("a", "b", "c"),
    to: fc.constantFrom("a", "b", "c"),
    tokenId: fc.constantFrom("native", "0xt"),
    txHash: fc.constantFrom("0x1", "0x2", "0x3"),
    occurredAt: fc.integer({ min: 0, max: 6 }),
  }),
  { maxLength: 30 },
);

const frontierArb = fc.array(
  fc.record({ address: fc.constantFrom("a", "b", "c", "z"), at: fc.integer({ min: 0, max: 7 }) }),
  { minLength: 1, maxLength: 5 },
);

/** A sender's other rows at the times it sent to `address`, by definition (`ledgerSenderSiblings`). */
function referenceSiblings(rows: ReadonlyArray<LedgerTransfer>, address: string): LedgerTransfer[] {
  const pairs = new Set(
    rows.filter((r) => r.to === address && r.from !== address).map((r) => `${r.from}\u0000${r.occurredAt}`),
  );
  return rows.filter((s) => s.to !== address && pairs.has(`${s.from}\u0000${s.occurredAt}`)).sort(forward);
}

/** Ledgers of few addresses and times (many senders' rows share a time), with rows sent again. */
const siblingLedgerArb = fc.record({
  rows: fc.array(
    fc.record({
      from: fc.constantFrom("a", "b", "c", "d"),
      to: fc.constantFrom("a", "b", "c", "d"),
      tokenId: fc.constantFrom("native", "0xt"),
      occurredAt: fc.integer({ min: 0, max: 4 }),
      block: fc.option(fc.integer({ min: 0, max: 2 }), { nil: null }),
    }),
    { maxLength: 40 },
  ),
  /** Rows put again later with other fields (the first stored wins). */
  again: fc.array(fc.nat(), { maxLength: 8 }),
  hubs: fc.array(fc.constantFrom("a", "b", "c", "d", "z"), { maxLength: 6 }),
});

/** Registers the property tests. */
export function propertyConformance(ctx: ConformanceContext): void {
  describe("properties", () => {
    it("lists transfers exactly as the filters and order define, on every page", async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(transferArb, { maxLength: 12 }),
          filterArb,
          fc.integer({ min: 1, max: 4 }),
          async (specs, filter, pageSize) => {
            const accountId = `prop-${run++}`;
            const rows = specs.map((s, i) =>
              makeTransfer({ ...s, id: `${accountId}-t-${i}`, accountId, txHash: null }),
            );
            for (const row of rows) await ctx.store().insertTransfer(row);
            const expected = referenceList(rows, filter);
            for (let page = 1; page <= Math.ceil(expected.length / pageSize) + 1; page++) {
              const got = await ctx.store().listTransfers(accountId, filter, { page, pageSize });
              const slice = expected.slice((page - 1) * pageSize, page * pageSize);
              expect({ ids: got.items.map((t) => t.id), total: got.total }).toEqual({
                ids: slice,
                total: expected.length,
              });
            }
          },
        ),
        { numRuns: RUNS },
      );
    });

    it("reads ledger frontiers exactly as a per-address filter, sort and limit would", async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          ledgerArb,
          frontierArb,
          fc.integer({ min: 1, max: 4 }),
          async (specs, frontier, limit) => {
            const network = `NET${run++}`;
            const rows: LedgerTransfer[] = specs.map((s, i) => ({
              ...s,
              network,
              logIndex: i,
              amount: 1,
              block: null,
              valueUsd: null,
            }));
            await ctx.store().putLedgerTransfers(rows);
            const incoming: IncomingQuery[] = frontier.map((q) => ({ address: q.address, before: q.at }));
            const outgoing: OutgoingQuery[] = frontier.map((q) => ({ address: q.address, after: q.at }));
            for (const tokenId of ["native", "0xt"]) {
              const ofToken = rows.filter((r) => r.tokenId === tokenId);
              const expectedIn = incoming.flatMap((q) =>
                ofToken
                  .filter((r) => r.to === q.address && r.occurredAt < q.before)
                  .sort((a, b) => forward(b, a))
                  .slice(0, limit),
              );
              const expectedOut = outgoing.flatMap((q) =>
                ofToken
                  .filter((r) => r.from === q.address && r.occurredAt > q.after)
                  .sort(forward)
                  .slice(0, limit),
              );
              // Counts are optional (LedgerReader): memory and Postgres count, SQLite reads instead.
              const store = ctx.store();
              if (store.ledgerIncomingCounts && store.ledgerOutgoingCounts) {
                expect(await store.ledgerIncomingCounts(network, tokenId, incoming)).toEqual(
                  incoming.map(
                    (q) => ofToken.filter((r) => r.to === q.address && r.occurredAt < q.before).length,
                  ),
                );
                expect(await store.ledgerOutgoingCounts(network, tokenId, outgoing)).toEqual(
                  outgoing.map(
                    (q) => ofToken.filter((r) => r.from === q.address && r.occurredAt > q.after).length,
                  ),
                );
              }
              expect(await ctx.store().ledgerIncoming(network, tokenId, incoming, limit)).toEqual(expectedIn);
              expect(await ctx.store().ledgerOutgoing(network, tokenId, outgoing, limit)).toEqual(
                expectedOut,
              );
            }
          },
        ),
        { numRuns: RUNS },
      );
    });

    it("answers the senders' siblings of addresses as their definition, when the store offers them", async ({
      skip,
    }) => {
      const store = ctx.store();
      const siblings = store.ledgerSenderSiblings?.bind(store);
      if (!siblings) return skip("ledgerSenderSiblings is optional (LedgerReader) and this store has none");
      let run = 0;
      let found = 0;
      await fc.assert(
        fc.asyncProperty(siblingLedgerArb, async ({ rows: specs, again, hubs }) => {
          const network = `SIB${run++}`;
          const rows: LedgerTransfer[] = specs.map((s, i) => ({
            ...s,
            network,
            txHash: `0x${(i % 7).toString(16)}`,
            logIndex: i,
            amount: 1 + i,
            valueUsd: i % 2 === 0 ? null : i / 4,
          }));
          await store.putLedgerTransfers(rows);
          const repeated = again.flatMap((k) => {
            const r = rows[k % Math.max(rows.length, 1)];
            return r ? [{ ...r, to: r.from, amount: 99 }] : [];
          });
          expect(await store.putLedgerTransfers(repeated)).toBe(0);
          for (const tokenId of ["native", "0xt"]) {
            const ofToken = rows.filter((r) => r.tokenId === tokenId);
            const got = await siblings(network, tokenId, hubs);
            expect(
              got.map((g) => [...g].sort(forward)),
              tokenId,
            ).toEqual(hubs.map((h) => referenceSiblings(ofToken, h)));
            for (const g of got) found += g.length;
          }
        }),
        {
          numRuns: RUNS,
          // Random small ledgers may hold no sibling at all: one that does always runs first.
          examples: [
            [
              {
                rows: [
                  { from: "a", to: "b", tokenId: "native", occurredAt: 1, block: null },
                  { from: "a", to: "c", tokenId: "native", occurredAt: 1, block: 1 },
                  { from: "d", to: "b", tokenId: "native", occurredAt: 2, block: null },
                ],
                again: [],
                hubs: ["b", "z"],
              },
            ],
          ],
        },
      );
      // The property is about something: siblings were found.
      expect(found).toBeGreaterThan(0);
    });
  });
}
