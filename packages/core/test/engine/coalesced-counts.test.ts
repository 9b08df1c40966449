/**
 * The hop counts of concurrent traces joined into one store call per turn of the event loop:
 * every caller gets the counts it would have got alone, callers of one turn share a call per
 * direction, network and token, a failed call fails each of its callers, and a reader that does
 * not count is used as it is.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COALESCED_COUNT_QUERIES, coalescedCounts } from "../../src/engine/sources/coalesced-counts.js";
import type { IncomingQuery, LedgerReader, OutgoingQuery } from "../../src/ports/ledger-reader.js";

/** A count that depends on every part of a query, so a count given to the wrong query shows. */
const countOf = (incoming: boolean, network: string, token: string, address: string, at: number) =>
  (address.length * 31 + at * 7 + network.length * 3 + token.length + (incoming ? 1 : 0)) % 1000;

/** A counting reader that records each call's size. */
function recordingReader(fail = false) {
  const calls: Array<{ incoming: boolean; network: string; token: string; size: number }> = [];
  const reader: LedgerReader = {
    ledgerIncoming: async () => [],
    ledgerOutgoing: async () => [],
    async ledgerIncomingCounts(network, token, queries: ReadonlyArray<IncomingQuery>) {
      calls.push({ incoming: true, network, token, size: queries.length });
      await Promise.resolve();
      if (fail) throw new Error("the server went away");
      return queries.map((q) => countOf(true, network, token, q.address, q.before));
    },
    async ledgerOutgoingCounts(network, token, queries: ReadonlyArray<OutgoingQuery>) {
      calls.push({ incoming: false, network, token, size: queries.length });
      if (fail) throw new Error("the server went away");
      return queries.map((q) => countOf(false, network, token, q.address, q.after));
    },
  };
  return { reader, calls };
}

const call = fc.record({
  incoming: fc.boolean(),
  network: fc.constantFrom("ETH", "TRX"),
  token: fc.constantFrom("native", "usdt"),
  queries: fc.array(
    fc.record({ address: fc.string({ maxLength: 6 }), at: fc.integer({ min: 0, max: 50 }) }),
    {
      maxLength: 20,
    },
  ),
});

describe("coalescedCounts", () => {
  it("answers every caller as alone, with one store call per direction, network and token", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 30 }), async (batch) => {
        const { reader, calls } = recordingReader();
        const joined = coalescedCounts(reader);
        const answers = await Promise.all(
          batch.map((c) =>
            c.incoming
              ? joined.ledgerIncomingCounts?.(
                  c.network,
                  c.token,
                  c.queries.map((q) => ({ address: q.address, before: q.at })),
                )
              : joined.ledgerOutgoingCounts?.(
                  c.network,
                  c.token,
                  c.queries.map((q) => ({ address: q.address, after: q.at })),
                ),
          ),
        );
        for (const [i, c] of batch.entries()) {
          expect(answers[i]).toEqual(
            c.queries.map((q) => countOf(c.incoming, c.network, c.token, q.address, q.at)),
          );
        }
        const groups = new Set(
          batch.filter((c) => c.queries.length > 0).map((c) => `${c.incoming}/${c.network}/${c.token}`),
        );
        expect(calls.length).toBe(groups.size);
      }),
      { numRuns: 200 },
    );
  });

  it("joins the calls of one turn only: a call after an answer is a new statement", async () => {
    const { reader, calls } = recordingReader();
    const joined = coalescedCounts(reader);
    const q = [{ address: "a", before: 5 }];
    await Promise.all([
      joined.ledgerIncomingCounts?.("ETH", "native", q),
      joined.ledgerIncomingCounts?.("ETH", "native", q),
    ]);
    expect(calls.map((c) => c.size)).toEqual([2]);
    await joined.ledgerIncomingCounts?.("ETH", "native", q);
    expect(calls.map((c) => c.size)).toEqual([2, 1]);
  });

  it("asks a large turn in statements of at most COALESCED_COUNT_QUERIES queries", async () => {
    const { reader, calls } = recordingReader();
    const joined = coalescedCounts(reader);
    const big = Array.from({ length: COALESCED_COUNT_QUERIES - 1 }, (_, i) => ({
      address: `x${i}`,
      before: i,
    }));
    const [a, b] = await Promise.all([
      joined.ledgerIncomingCounts?.("ETH", "native", big),
      joined.ledgerIncomingCounts?.("ETH", "native", big.slice(0, 5)),
    ]);
    expect(calls.map((c) => c.size)).toEqual([COALESCED_COUNT_QUERIES, 4]);
    expect(a).toEqual(big.map((q) => countOf(true, "ETH", "native", q.address, q.before)));
    expect(b).toEqual(big.slice(0, 5).map((q) => countOf(true, "ETH", "native", q.address, q.before)));
  });

  it("fails every caller of a failed statement with its error", async () => {
    const { reader } = recordingReader(true);
    const joined = coalescedCounts(reader);
    const q = [{ address: "a", before: 5 }];
    const results = await Promise.allSettled([
      joined.ledgerIncomingCounts?.("ETH", "native", q),
      joined.ledgerIncomingCounts?.("ETH", "native", q),
      joined.ledgerOutgoingCounts?.("ETH", "native", [{ address: "a", after: 1 }]),
    ]);
    for (const r of results) {
      expect(r.status).toBe("rejected");
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(Error);
      expect(String((r as PromiseRejectedResult).reason)).toMatch(/the server went away/);
    }
  });

  it("fails the callers with STORE_ERROR when the store answers the wrong number of counts", async () => {
    const short: LedgerReader = {
      ledgerIncoming: async () => [],
      ledgerOutgoing: async () => [],
      ledgerIncomingCounts: async () => [1],
    };
    const joined = coalescedCounts(short);
    const q = [{ address: "a", before: 5 }];
    const settled = await Promise.allSettled([
      joined.ledgerIncomingCounts?.("ETH", "native", q),
      joined.ledgerIncomingCounts?.("ETH", "native", q),
    ]);
    for (const r of settled) {
      expect(r.status).toBe("rejected");
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: "STORE_ERROR" });
    }
  });

  it("uses a reader that does not count as it is, and passes reads and lumps through", async () => {
    const plain: LedgerReader = { ledgerIncoming: async () => [], ledgerOutgoing: async () => [] };
    expect(coalescedCounts(plain)).toBe(plain);
    const { reader } = recordingReader();
    const joined = coalescedCounts(reader);
    expect(joined.ledgerIncomingLumped).toBeUndefined();
    expect(joined.ledgerSenderSiblings).toBeUndefined();
    const siblings = coalescedCounts({ ...reader, ledgerSenderSiblings: async () => [] });
    expect(await siblings.ledgerSenderSiblings?.("ETH", "native", ["hub"])).toEqual([]);
    expect(await joined.ledgerIncomingCounts?.("ETH", "native", [])).toEqual([]);
  });
});
