import { makeLedgerTransfer, BASE_TIME as T0 } from "@openkyt/testkit";
import { expect, it } from "vitest";
import { withTestPostgres } from "./pg-test-suite.js";

// A Postgres hop comes back as one JSON array (kysely-ledger-frontier.ts): numbers must keep
// their bits, including the values JSON has no number for, and the store counts a hop.
await withTestPostgres("Postgres ledger hop as JSON", ({ stores }) => {
  it("reads back floats, large integers, NaN and infinities exactly as stored", async () => {
    const store = await stores.createStore();
    try {
      const rows = [
        makeLedgerTransfer({ to: "0xhop", occurredAt: T0 + 3, amount: 0.1 + 0.2, valueUsd: 1e-300 }),
        makeLedgerTransfer({ to: "0xhop", occurredAt: T0 + 2, amount: Number.NaN, valueUsd: Number.NaN }),
        makeLedgerTransfer({ to: "0xhop", occurredAt: T0 + 1, amount: Number.POSITIVE_INFINITY }),
        makeLedgerTransfer({
          to: "0xhop",
          occurredAt: T0,
          amount: Number.NEGATIVE_INFINITY,
          valueUsd: 1.7976931348623157e308,
          block: 2 ** 53 - 1,
        }),
      ];
      await store.putLedgerTransfers(rows);
      const read = await store.ledgerIncoming("ETH", "native", [{ address: "0xhop", before: T0 + 10 }], 10);
      expect(read).toEqual(rows);
      expect(Object.is(read[1]?.amount, Number.NaN)).toBe(true);
      const outgoing = await store.ledgerOutgoing(
        "ETH",
        "native",
        rows.map((r) => ({ address: r.from, after: T0 - 1 })),
        10,
      );
      expect(outgoing).toEqual(rows);
    } finally {
      await stores.destroyStore(store);
    }
  });

  it("counts a hop in one statement, as many rows as an unlimited read", async () => {
    const store = await stores.createStore();
    try {
      const hub = Array.from({ length: 25 }, (_, i) =>
        makeLedgerTransfer({ to: "0xhub", occurredAt: T0 + i }),
      );
      await store.putLedgerTransfers(hub);
      const queries = [
        { address: "0xhub", before: T0 + 20 },
        { address: "0xnone", before: T0 + 20 },
      ];
      expect(store.ledgerIncomingCounts).toBeTypeOf("function");
      expect(await store.ledgerIncomingCounts?.("ETH", "native", queries)).toEqual([20, 0]);
      expect(await store.ledgerIncoming("ETH", "native", queries, 1000)).toHaveLength(20);
      expect(
        await store.ledgerOutgoingCounts?.("ETH", "native", [{ address: hub[3]?.from ?? "", after: T0 }]),
      ).toEqual([1]);
    } finally {
      await stores.destroyStore(store);
    }
  });

  it("reads after counts as without them: small addresses from the rows that came with the counts, cut to the limit", async () => {
    const store = await stores.createStore();
    try {
      const small = Array.from({ length: 5 }, (_, i) =>
        makeLedgerTransfer({ to: "0xsmall", occurredAt: T0 + i }),
      );
      const hub = Array.from({ length: 100 }, (_, i) =>
        makeLedgerTransfer({ to: "0xbig", occurredAt: T0 + (i % 7) }),
      );
      await store.putLedgerTransfers([...small, ...hub]);
      const queries = [
        { address: "0xbig", before: T0 + 6 },
        { address: "0xsmall", before: T0 + 4 },
        { address: "0xsmall", before: T0 + 4 },
      ];
      const plain = await store.ledgerIncoming("ETH", "native", queries, 3);
      expect(await store.ledgerIncomingCounts?.("ETH", "native", queries)).toEqual([86, 4, 4]);
      const afterCounts = await store.ledgerIncoming("ETH", "native", queries, 3);
      expect(afterCounts).toEqual(plain);
      expect(afterCounts.slice(3, 6).map((r) => r.occurredAt)).toEqual([T0 + 3, T0 + 2, T0 + 1]);
      expect(afterCounts).toHaveLength(9);
    } finally {
      await stores.destroyStore(store);
    }
  });
});
