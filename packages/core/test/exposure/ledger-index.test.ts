import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LedgerTransfer } from "../../src/domain/records.js";
import { compareLedgerTransfers, LedgerIndex } from "../../src/exposure/ledger-index.js";

function t(
  txHash: string,
  from: string,
  to: string,
  amount: number,
  occurredAt: number,
  logIndex = 0,
): LedgerTransfer {
  return {
    network: "ETH",
    txHash,
    logIndex,
    tokenId: "native",
    from,
    to,
    amount,
    occurredAt,
    block: null,
    valueUsd: null,
  };
}

describe("LedgerIndex", () => {
  const rows = [
    t("0x3", "c", "a", 3, 300),
    t("0x1", "b", "a", 1, 100),
    t("0x2", "d", "a", 2, 200),
    t("0x2", "a", "e", 5, 200, 1),
  ];

  it("ignores duplicates and counts new rows", () => {
    const index = new LedgerIndex();
    expect(index.add(rows)).toBe(4);
    expect(index.add([rows[0]!, t("0x4", "a", "f", 1, 400)])).toBe(1);
    expect(index.size).toBe(5);
  });

  it("keeps each row's network and token when one batch mixes them (same hash on two networks)", async () => {
    const on = (r: LedgerTransfer, network: string, tokenId: string): LedgerTransfer => ({
      ...r,
      network,
      tokenId,
    });
    const mixed = [
      on(t("0x1", "b", "a", 1, 100), "ETH", "native"),
      on(t("0x1", "b", "a", 1, 100), "TRON", "native"),
      on(t("0x2", "c", "a", 2, 200), "ETH", "usdt"),
      on(t("0x1", "b", "a", 1, 100), "ETH", "native"),
      on(t("0x3", "d", "a", 3, 300), "ETH", "native"),
    ];
    const batch = new LedgerIndex();
    const oneByOne = new LedgerIndex();
    expect(batch.add(mixed)).toBe(4);
    expect(mixed.reduce((n, r) => n + oneByOne.add([r]), 0)).toBe(4);
    for (const [network, tokenId] of [
      ["ETH", "native"],
      ["TRON", "native"],
      ["ETH", "usdt"],
    ] as const) {
      const read = (index: LedgerIndex) =>
        index.ledgerIncoming(network, tokenId, [{ address: "a", before: 1000 }], 10);
      expect(await read(batch)).toEqual(await read(oneByOne));
    }
    expect(batch.byTxHash("TRON", "0x1")).toEqual([on(t("0x1", "b", "a", 1, 100), "TRON", "native")]);
    expect((await batch.ledgerIncoming("ETH", "native", [{ address: "a", before: 1000 }], 10)).length).toBe(
      2,
    );
  });

  it("lists a transaction's transfers by log index", () => {
    const index = new LedgerIndex();
    index.add([rows[3]!, rows[2]!]);
    expect(index.byTxHash("ETH", "0x2").map((r) => r.logIndex)).toEqual([0, 1]);
    expect(index.byTxHash("ETH", "0x9")).toEqual([]);
  });

  it("reads incoming strictly before, latest first, limited per address", async () => {
    const index = new LedgerIndex();
    index.add(rows);
    const all = await index.ledgerIncoming("ETH", "native", [{ address: "a", before: 300 }], 10);
    expect(all.map((r) => r.txHash)).toEqual(["0x2", "0x1"]);
    const one = await index.ledgerIncoming("ETH", "native", [{ address: "a", before: 301 }], 1);
    expect(one.map((r) => r.txHash)).toEqual(["0x3"]);
    expect(await index.ledgerIncoming("ETH", "usdt", [{ address: "a", before: 999 }], 10)).toEqual([]);
  });

  it("reads outgoing strictly after, earliest first", async () => {
    const index = new LedgerIndex();
    index.add([...rows, t("0x4", "a", "f", 1, 400), t("0x5", "a", "g", 1, 500)]);
    const out = await index.ledgerOutgoing("ETH", "native", [{ address: "a", after: 200 }], 10);
    expect(out.map((r) => r.txHash)).toEqual(["0x4", "0x5"]);
    const limited = await index.ledgerOutgoing("ETH", "native", [{ address: "a", after: 0 }], 2);
    expect(limited.map((r) => r.txHash)).toEqual(["0x2", "0x4"]);
  });
});

/** What a read answers, from the rows alone (docs: LedgerReader). */
function expectedReads(rows: ReadonlyArray<LedgerTransfer>, address: string, at: number, limit: number) {
  const unique = new Map(rows.map((r) => [`${r.txHash}/${r.logIndex}`, r]));
  const all = [...unique.values()].sort(compareLedgerTransfers);
  return {
    incoming: all
      .filter((r) => r.to === address && r.occurredAt < at)
      .reverse()
      .slice(0, limit),
    outgoing: all.filter((r) => r.from === address && r.occurredAt > at).slice(0, limit),
  };
}

describe("LedgerIndex against a model, rows added in batches between reads", () => {
  const ADDRESSES = ["a", "b", "c", "d", "e"];
  const row = fc
    .record({
      tx: fc.integer({ min: 0, max: 40 }),
      logIndex: fc.integer({ min: -1, max: 2 }),
      from: fc.constantFrom(...ADDRESSES),
      to: fc.constantFrom(...ADDRESSES),
      at: fc.integer({ min: 0, max: 30 }),
      block: fc.option(fc.integer({ min: 1, max: 9 }), { nil: null }),
      valueUsd: fc.option(fc.double({ min: 0, max: 1e6, noNaN: true }), { nil: null }),
    })
    .map(
      (r): LedgerTransfer => ({
        ...t(`0x${r.tx}`, r.from, r.to, r.tx + 1, r.at, r.logIndex),
        block: r.block,
        valueUsd: r.valueUsd,
      }),
    );
  const step = fc.record({
    rows: fc.array(row, { maxLength: 12 }),
    address: fc.constantFrom(...ADDRESSES),
    at: fc.integer({ min: -1, max: 31 }),
    limit: fc.integer({ min: 1, max: 8 }),
  });

  it.each([1, 3, 10_000])(
    "reads what the model reads (compacting past %i recent rows)",
    async (compactAt) => {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
          const index = new LedgerIndex({ compactAt });
          const added: LedgerTransfer[] = [];
          for (const s of steps) {
            for (const r of s.rows) {
              // The first row of a (hash, log index) stays: a duplicate is ignored.
              if (!added.some((a) => a.txHash === r.txHash && a.logIndex === r.logIndex)) added.push(r);
            }
            index.add(s.rows);
            const want = expectedReads(added, s.address, s.at, s.limit);
            const q = [{ address: s.address, before: s.at }];
            expect(await index.ledgerIncoming("ETH", "native", q, s.limit)).toEqual(want.incoming);
            expect(
              await index.ledgerOutgoing("ETH", "native", [{ address: s.address, after: s.at }], s.limit),
            ).toEqual(want.outgoing);
            // The counts are those of the reads without a limit.
            expect(await index.ledgerIncomingCounts("ETH", "native", q)).toEqual([
              added.filter((r) => r.to === s.address && r.occurredAt < s.at).length,
            ]);
            expect(
              await index.ledgerOutgoingCounts("ETH", "native", [{ address: s.address, after: s.at }]),
            ).toEqual([added.filter((r) => r.from === s.address && r.occurredAt > s.at).length]);
            // The senders' siblings: its senders' other rows at the times they sent to it.
            const pairs = new Set(
              added
                .filter((r) => r.to === s.address && r.from !== s.address)
                .map((r) => `${r.from} ${r.occurredAt}`),
            );
            const siblings = added.filter(
              (r) => r.to !== s.address && pairs.has(`${r.from} ${r.occurredAt}`),
            );
            expect(index.senderSiblingsSync("ETH", "native", s.address).sort(compareLedgerTransfers)).toEqual(
              siblings.sort(compareLedgerTransfers),
            );
            expect(index.size).toBe(added.length);
            const some = added[0];
            if (some) {
              expect(index.byTxHash("ETH", some.txHash)).toEqual(
                added.filter((a) => a.txHash === some.txHash).sort((x, y) => x.logIndex - y.logIndex),
              );
            }
          }
        }),
        { numRuns: 200 },
      );
    },
  );
});
