/**
 * The shared ledger image reads exactly as a LedgerIndex holding the same rows, whether the rows
 * are all in the image or split between the image and the delta of later rows.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LedgerTransfer } from "../../src/domain/records.js";
import { createEntityResolver } from "../../src/exposure/entity-resolver.js";
import { heldAttributionSource, heldSanctionsSource } from "../../src/exposure/held-reference.js";
import { LedgerImageBuilder } from "../../src/exposure/ledger-image.js";
import { LedgerImageReader } from "../../src/exposure/ledger-image-reader.js";
import { LedgerIndex } from "../../src/exposure/ledger-index.js";
import { buildSharedStrings, sharedStringAt, sharedStringIndex } from "../../src/exposure/shared-strings.js";
import { traceTransferExposure } from "../../src/exposure/transfer-exposure.js";
import type { LedgerReader } from "../../src/ports/ledger-reader.js";
import { attr, ledgerOf, tr } from "./trace-fixtures.js";

const ADDRESSES = ["a", "b", "c", "d", "e", "0xAb", "é-wide-ü", "€"];

const row = fc.record({
  network: fc.constantFrom("ETH", "TRX"),
  tokenId: fc.constantFrom("native", "usdt"),
  txHash: fc.constantFrom("0x1", "0x2", "0x3", "0x4", "0x5", "0x6"),
  logIndex: fc.integer({ min: 0, max: 3 }),
  from: fc.constantFrom(...ADDRESSES),
  to: fc.constantFrom(...ADDRESSES),
  amount: fc.integer({ min: 1, max: 1000 }),
  occurredAt: fc.integer({ min: 0, max: 20 }),
  block: fc.option(fc.integer({ min: 1, max: 9 }), { nil: null }),
  valueUsd: fc.option(fc.integer({ min: 0, max: 99 }), { nil: null }),
});

/** Rows distinct by (network, txHash, logIndex), as a store holds them. */
function distinct(rows: LedgerTransfer[]): LedgerTransfer[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const key = `${r.network}/${r.txHash}/${r.logIndex}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `reader`'s reads and counts (where it has them), counting the rows it presents into "hub". */
function countingReader(reader: LedgerImageReader, hubRows: { read: number }): LedgerReader {
  const counted = (rows: ReadonlyArray<LedgerTransfer>) => {
    hubRows.read += rows.filter((r) => r.to === "hub").length;
    return rows;
  };
  const { ledgerIncomingCounts, ledgerOutgoingCounts } = reader as LedgerReader;
  return {
    ledgerIncoming: async (...a) => counted(await reader.ledgerIncoming(...a)),
    ledgerOutgoing: async (...a) => counted(await reader.ledgerOutgoing(...a)),
    ...(ledgerIncomingCounts ? { ledgerIncomingCounts: ledgerIncomingCounts.bind(reader) } : {}),
    ...(ledgerOutgoingCounts ? { ledgerOutgoingCounts: ledgerOutgoingCounts.bind(reader) } : {}),
  };
}

describe("shared strings", () => {
  it("numbers, finds and decodes narrow and wide strings", () => {
    for (const strings of [
      ["0xab", "bc1q", ""],
      ["€uro", "a", "ü"],
    ]) {
      const table = buildSharedStrings(strings, (n) => new SharedArrayBuffer(n), true);
      strings.forEach((s, i) => {
        expect(sharedStringAt(table, i)).toBe(s);
        expect(sharedStringIndex(table, s)).toBe(i);
      });
      expect(sharedStringIndex(table, "missing")).toBe(-1);
    }
  });
});

describe("LedgerImageReader", () => {
  it("reads as a LedgerIndex of the same rows, with any split between image and delta", () => {
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 60 }),
        fc.nat(),
        fc.constantFrom(...ADDRESSES, "nobody"),
        fc.integer({ min: -1, max: 22 }),
        fc.integer({ min: 1, max: 5 }),
        (given, cut, address, at, limit) => {
          const rows = distinct(given);
          const split = rows.length === 0 ? 0 : cut % (rows.length + 1);
          const builder = new LedgerImageBuilder();
          builder.add(rows.slice(0, split));
          const reader = new LedgerImageReader(builder.build());
          reader.append(rows.slice(split));
          const index = new LedgerIndex({ compactAt: 3 });
          index.add(rows);
          expect(reader.size).toBe(rows.length);
          for (const hash of ["0x1", "0x4", "0x9"]) {
            for (const network of ["ETH", "TRX"]) {
              expect(reader.byTxHash(network, hash)).toEqual(index.byTxHash(network, hash));
            }
          }
          for (const [network, token] of [
            ["ETH", "native"],
            ["TRX", "usdt"],
            ["ETH", "usdt"],
          ] as const) {
            expect(
              reader.incomingSync(
                network,
                token,
                [
                  { address, before: at },
                  { address: "a", before: at },
                ],
                limit,
              ),
            ).toEqual(
              index.incomingSync(
                network,
                token,
                [
                  { address, before: at },
                  { address: "a", before: at },
                ],
                limit,
              ),
            );
            expect(reader.outgoingSync(network, token, [{ address, after: at }], limit)).toEqual(
              index.outgoingSync(network, token, [{ address, after: at }], limit),
            );
            // Hop counts: the index's, and the number of rows a read without a limit returns.
            const incoming = [
              { address, before: at },
              { address: "a", before: at },
              { address: "nobody", before: at },
            ];
            const outgoing = incoming.map((q) => ({ address: q.address, after: at }));
            const counts = reader.incomingCountsSync(network, token, incoming);
            expect(counts).toEqual(index.incomingCountsSync(network, token, incoming));
            expect(counts).toEqual(
              incoming.map((q) => reader.incomingSync(network, token, [q], Infinity).length),
            );
            const outCounts = reader.outgoingCountsSync(network, token, outgoing);
            expect(outCounts).toEqual(index.outgoingCountsSync(network, token, outgoing));
            expect(outCounts).toEqual(
              outgoing.map((q) => reader.outgoingSync(network, token, [q], Infinity).length),
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("counts a hub's rows, so a trace does not present the rows of a visit over the budget left", async () => {
    // "hub" has 300 rows (250 in the image, 50 in the delta): more than the budget of 100.
    const rows = [
      ...Array.from({ length: 300 }, (_, i) => tr(`s${i}`, "hub", 1 + (i % 7), i)),
      tr("hub", "start", 5, 500),
      tr("x", "start", 5, 501),
      tr("y", "x", 1, 400),
    ];
    const builder = new LedgerImageBuilder();
    builder.add(rows.slice(0, 250));
    builder.add(rows.slice(300));
    const reader = new LedgerImageReader(builder.build());
    reader.append(rows.slice(250, 300));
    const index = ledgerOf(rows);
    const hubRows = { read: 0 };
    const resolver = createEntityResolver({
      attributions: heldAttributionSource([attr("y", "exchange")]),
      sanctions: heldSanctionsSource([]),
    });
    const trace = (ledger: LedgerReader) =>
      traceTransferExposure({
        ledger,
        resolver,
        network: "ETH",
        tokenId: "native",
        direction: "incoming",
        counterparty: "start",
        at: 600,
        value: 1000,
        span: { from: 600, to: 600 },
        edgeBudget: 100,
      });
    const fromReader = await trace(countingReader(reader, hubRows));
    expect(fromReader).toEqual(await trace(index));
    expect(fromReader.truncated).toBe(true);
    // Counted, not read: none of the hub's 300 rows was presented.
    expect(hubRows.read).toBe(0);
  });

  it("swaps to a new image and keeps reading the same rows", () => {
    const rows: LedgerTransfer[] = [1, 2, 3].map((n) => ({
      network: "ETH",
      txHash: `0x${n}`,
      logIndex: 0,
      tokenId: "native",
      from: "b",
      to: "a",
      amount: n,
      occurredAt: n * 10,
      block: null,
      valueUsd: null,
    }));
    const first = new LedgerImageBuilder();
    first.add(rows.slice(0, 1));
    const reader = new LedgerImageReader(first.build());
    reader.append(rows.slice(1));
    const before = reader.incomingSync("ETH", "native", [{ address: "a", before: 99 }], 10);
    const second = new LedgerImageBuilder();
    second.add(rows.slice(0, 2));
    reader.replace(second.build(), rows.slice(2));
    expect(reader.deltaSize).toBe(1);
    expect(reader.incomingSync("ETH", "native", [{ address: "a", before: 99 }], 10)).toEqual(before);
    expect(before.map((r) => r.amount)).toEqual([3, 2, 1]);
  });

  it("reads a new image's transaction hashes, not those decoded from the old one", () => {
    // Row 0 of each image is another transaction: the hashes decoded from the first are dropped.
    const old = tr("b", "a", 1, 10);
    const next = tr("c", "a", 2, 5);
    const first = new LedgerImageBuilder();
    first.add([old]);
    const reader = new LedgerImageReader(first.build());
    const query = [{ address: "a", before: 99 }];
    expect(reader.incomingSync("ETH", "native", query, 10).map((r) => r.txHash)).toEqual([old.txHash]);
    const second = new LedgerImageBuilder();
    second.add([next, old]);
    reader.replace(second.build());
    expect(reader.incomingSync("ETH", "native", query, 10)).toEqual(
      ledgerOf([next, old]).incomingSync("ETH", "native", query, 10),
    );
  });

  it("finds addresses by a new image's numbers, not those looked up in the old one", () => {
    // "a" is number 1 of the first image (after "b") and 0 of the second, whose number 1 is "c".
    const first = new LedgerImageBuilder();
    first.add([tr("b", "a", 1, 10)]);
    const reader = new LedgerImageReader(first.build());
    const query = [{ address: "a", before: 99 }];
    expect(reader.incomingSync("ETH", "native", query, 10)).toHaveLength(1);
    const rows = [tr("a", "c", 2, 5), tr("d", "a", 3, 20)];
    const second = new LedgerImageBuilder();
    second.add(rows);
    reader.replace(second.build());
    const expected = ledgerOf(rows);
    expect(reader.incomingSync("ETH", "native", query, 10)).toEqual(
      expected.incomingSync("ETH", "native", query, 10),
    );
    expect(reader.incomingCountsSync("ETH", "native", query)).toEqual([1]);
    expect(reader.outgoingSync("ETH", "native", [{ address: "a", after: 0 }], 10)).toEqual(
      expected.outgoingSync("ETH", "native", [{ address: "a", after: 0 }], 10),
    );
  });
});
