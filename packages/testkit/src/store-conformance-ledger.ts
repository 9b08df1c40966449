/** Conformance of the ledger members: idempotent inserts and the tracing reads. */
import type { LedgerTransfer } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import type { ConformanceContext } from "./store-conformance.js";
import { makeLedgerTransfer, BASE_TIME as T0 } from "./store-factories.js";

/** Registers the ledger tests. */
export function ledgerConformance(ctx: ConformanceContext): void {
  describe("ledger", () => {
    it("inserts idempotently and counts only new rows", async () => {
      const a = makeLedgerTransfer({ amount: 0.000123456789, valueUsd: 12.5, block: null });
      const b = makeLedgerTransfer({ txHash: a.txHash, logIndex: 3 });
      expect(await ctx.store().putLedgerTransfers([a, b, a])).toBe(2);
      expect(await ctx.store().putLedgerTransfers([a, { ...b, amount: 999 }])).toBe(0);
      expect(await ctx.store().putLedgerTransfers([makeLedgerTransfer(), b])).toBe(1);
      expect(await ctx.store().putLedgerTransfers([])).toBe(0);
      expect(await ctx.store().ledgerByTxHash("ETH", a.txHash)).toEqual([a, b]);
    });

    it("inserts large batches", async () => {
      const rows = Array.from({ length: 1234 }, (_, i) =>
        makeLedgerTransfer({ to: "0xbig", occurredAt: T0 + i }),
      );
      expect(await ctx.store().putLedgerTransfers(rows)).toBe(1234);
      const latest = await ctx
        .store()
        .ledgerIncoming("ETH", "native", [{ address: "0xbig", before: T0 + 5000 }], 2);
      expect(latest).toEqual([rows[1233], rows[1232]]);
    });

    it("reads a transaction's transfers by log index, per network", async () => {
      const hash = "0xtx";
      const rows = [2, 0, 1].map((logIndex) => makeLedgerTransfer({ txHash: hash, logIndex }));
      await ctx.store().putLedgerTransfers([...rows, makeLedgerTransfer({ network: "BSC", txHash: hash })]);
      expect((await ctx.store().ledgerByTxHash("ETH", hash)).map((r) => r.logIndex)).toEqual([0, 1, 2]);
      expect(await ctx.store().ledgerByTxHash("BSC", hash)).toHaveLength(1);
      expect(await ctx.store().ledgerByTxHash("ETH", "0xnone")).toEqual([]);
    });

    it("reads several transactions at once as one by one (ledgerByTxHashes, where the store has it)", async () => {
      const store = ctx.store();
      const many = store.ledgerByTxHashes?.bind(store);
      if (!many) return;
      const rows = [
        ...[2, 0, 1].map((logIndex) => makeLedgerTransfer({ txHash: "0xm1", logIndex })),
        makeLedgerTransfer({ txHash: "0xm2", logIndex: 7 }),
        makeLedgerTransfer({ network: "BSC", txHash: "0xm1", logIndex: 0 }),
      ];
      // More hashes than one statement takes (500): the chunks' rows are all there.
      const bulk = Array.from({ length: 1_203 }, (_, i) => makeLedgerTransfer({ txHash: `0xbulk${i}` }));
      await store.putLedgerTransfers([...rows, ...bulk]);
      const hashes = ["0xm2", "0xnone", "0xm1", "0xm1", ...bulk.map((r) => r.txHash)];
      const found = await many("ETH", hashes);
      const byHash = (h: string) => found.filter((r) => r.txHash === h);
      expect(found).toHaveLength(4 + bulk.length);
      for (const h of new Set(hashes)) expect(byHash(h)).toEqual(await store.ledgerByTxHash("ETH", h));
      expect(await many("BSC", ["0xm1", "0xm2"])).toEqual(await store.ledgerByTxHash("BSC", "0xm1"));
      expect(await many("ETH", [])).toEqual([]);
    });

    it("reads incoming transfers strictly before, latest first, limited per address", async () => {
      const into = (to: string, at: number) => makeLedgerTransfer({ to, occurredAt: at });
      const x = [into("0xx", T0 + 100), into("0xx", T0 + 300), into("0xx", T0 + 200)];
      const y = [into("0xy", T0 + 50)];
      await ctx.store().putLedgerTransfers([...x, ...y, makeLedgerTransfer({ from: "0xx", occurredAt: T0 })]);
      const read = (before: number, limit: number) =>
        ctx.store().ledgerIncoming("ETH", "native", [{ address: "0xx", before }], limit);
      expect(await read(T0 + 300, 10)).toEqual([x[2], x[0]]);
      expect(await read(T0 + 301, 2)).toEqual([x[1], x[2]]);
      expect(await read(T0 + 100, 10)).toEqual([]);
      const both = await ctx.store().ledgerIncoming(
        "ETH",
        "native",
        [
          { address: "0xy", before: T0 + 1000 },
          { address: "0xx", before: T0 + 250 },
          { address: "0xnobody", before: T0 + 1000 },
        ],
        10,
      );
      expect(both.filter((r) => r.to === "0xx")).toEqual([x[2], x[0]]);
      expect(both.filter((r) => r.to === "0xy")).toEqual(y);
      expect(both).toHaveLength(3);
    });

    it("reads outgoing transfers strictly after, earliest first, limited per address", async () => {
      const out = (from: string, at: number) => makeLedgerTransfer({ from, occurredAt: at });
      const x = [out("0xx", T0 + 300), out("0xx", T0 + 100), out("0xx", T0 + 200)];
      await ctx.store().putLedgerTransfers([...x, makeLedgerTransfer({ to: "0xx", occurredAt: T0 + 500 })]);
      const read = (after: number, limit: number) =>
        ctx.store().ledgerOutgoing("ETH", "native", [{ address: "0xx", after }], limit);
      expect(await read(T0 + 100, 10)).toEqual([x[2], x[0]]);
      expect(await read(T0, 2)).toEqual([x[1], x[2]]);
      expect(await read(T0 + 300, 10)).toEqual([]);
    });

    it("counts what the reads give without a limit, when the store counts", async () => {
      const store = ctx.store();
      if (!store.ledgerIncomingCounts || !store.ledgerOutgoingCounts) return; // optional (LedgerReader)
      const hub = Array.from({ length: 30 }, (_, i) =>
        makeLedgerTransfer({ to: "0xhub", from: `0xs${i % 3}`, occurredAt: T0 + (i % 10) }),
      );
      await store.putLedgerTransfers([...hub, makeLedgerTransfer({ to: "0xhub", tokenId: "0xtoken" })]);
      const incoming = [
        { address: "0xhub", before: T0 + 5 },
        { address: "0xnobody", before: T0 + 5 },
        { address: "0xhub", before: T0 + 100 },
        { address: "0xhub", before: T0 + 4.5 },
      ];
      expect(await store.ledgerIncomingCounts("ETH", "native", incoming)).toEqual([15, 0, 30, 15]);
      expect(await store.ledgerIncomingCounts("ETH", "native", [])).toEqual([]);
      const outgoing = [
        { address: "0xs0", after: T0 - 1 },
        { address: "0xs1", after: T0 + 5 },
        { address: "0xs2", after: T0 + 4.5 },
      ];
      expect(await store.ledgerOutgoingCounts("ETH", "native", outgoing)).toEqual([10, 4, 5]);
      expect(await store.ledgerOutgoingCounts("BSC", "native", outgoing)).toEqual([0, 0, 0]);
    });

    it("gives a hub's senders' other rows at the times they sent to it, when the store offers them", async ({
      skip,
    }) => {
      const store = ctx.store();
      const siblings = store.ledgerSenderSiblings?.bind(store);
      if (!siblings) return skip("ledgerSenderSiblings is optional (LedgerReader) and this store has none");
      const t = (from: string, to: string, at: number, over: Partial<LedgerTransfer> = {}) =>
        makeLedgerTransfer({ from, to, occurredAt: T0 + at, ...over });
      const intoHub = [
        t("0xs1", "0xhub", 10),
        t("0xs1", "0xhub", 10),
        t("0xs2", "0xhub", 20),
        t("0xs3", "0xhub", 30),
      ];
      const wanted = [
        t("0xs1", "0xa", 10, { amount: 0.1, block: null, valueUsd: 2.5 }), // beside two rows into the hub: once
        t("0xs1", "0xs1", 10), // a self-transfer of the sender at that time
        t("0xs2", "0xb", 20, { block: null }),
        t("0xs2", "0xhub2", 20), // also a row into the second hub
      ];
      const unwanted = [
        t("0xs1", "0xa", 11), // the sender, another time
        t("0xs3", "0xa", 30, { tokenId: "0xtoken" }), // another token
        t("0xs3", "0xa", 30, { network: "BSC" }), // another network
        t("0xhub", "0xa", 10), // the hub's own sends
        t("0xs9", "0xa", 20), // another sender at a hub's time
      ];
      const intoHub2 = [t("0xs2", "0xhub2", 20, { logIndex: 1 }), t("0xs4", "0xhub2", 40)];
      const all = [...intoHub, ...wanted, ...unwanted, ...intoHub2];
      expect(await store.putLedgerTransfers([...all, wanted[0] as LedgerTransfer])).toBe(all.length);
      const key = (r: LedgerTransfer) => `${r.txHash}:${r.logIndex}`;
      const sortedRows = (rows: ReadonlyArray<LedgerTransfer>) =>
        [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
      const [hub, nobody, hub2, again] = await siblings("ETH", "native", [
        "0xhub",
        "0xnobody",
        "0xhub2",
        "0xhub",
      ]);
      // 0xs2's second row into 0xhub2 at 20 is one of 0xhub's siblings too.
      expect(sortedRows(hub ?? [])).toEqual(sortedRows([...wanted, intoHub2[0] as LedgerTransfer]));
      expect(nobody).toEqual([]);
      // 0xhub2's senders at its times: 0xs2 at 20 (its rows elsewhere, 0xhub's included), 0xs4 alone.
      expect(sortedRows(hub2 ?? [])).toEqual(
        sortedRows([intoHub[2] as LedgerTransfer, wanted[2] as LedgerTransfer]),
      );
      expect(sortedRows(again ?? [])).toEqual(sortedRows(hub ?? []));
      expect(await siblings("ETH", "native", [])).toEqual([]);
      expect(await siblings("ETH", "0xtoken", ["0xhub"])).toEqual([[]]);
    });

    it("keeps tokens and networks apart", async () => {
      const native = makeLedgerTransfer({ to: "0xz", occurredAt: T0 });
      const token = makeLedgerTransfer({ to: "0xz", occurredAt: T0, tokenId: "0xtoken" });
      const other = makeLedgerTransfer({ to: "0xz", occurredAt: T0, network: "BSC" });
      await ctx.store().putLedgerTransfers([native, token, other]);
      const q = [{ address: "0xz", before: T0 + 1 }];
      expect(await ctx.store().ledgerIncoming("ETH", "native", q, 10)).toEqual([native]);
      expect(await ctx.store().ledgerIncoming("ETH", "0xtoken", q, 10)).toEqual([token]);
      expect(await ctx.store().ledgerIncoming("BSC", "native", q, 10)).toEqual([other]);
      expect(
        await ctx.store().ledgerOutgoing("ETH", "native", [{ address: native.from, after: T0 - 1 }], 10),
      ).toEqual([native]);
    });

    it("serves a whole frontier of hundreds of addresses in one call", async () => {
      const rows = Array.from({ length: 450 }, (_, i) =>
        makeLedgerTransfer({ to: `0xaddr${i}`, from: `0xsrc${i}`, occurredAt: T0 + i }),
      );
      await ctx.store().putLedgerTransfers(rows);
      const incoming = await ctx.store().ledgerIncoming(
        "ETH",
        "native",
        rows.map((r) => ({ address: r.to, before: T0 + 1000 })),
        3,
      );
      expect(new Set(incoming.map((r) => r.txHash))).toEqual(new Set(rows.map((r) => r.txHash)));
      const outgoing = await ctx.store().ledgerOutgoing(
        "ETH",
        "native",
        rows.map((r) => ({ address: r.from, after: T0 + 224 })),
        3,
      );
      expect(outgoing).toHaveLength(225);
    });
  });
}
