/**
 * The RowBinary write path: any row the ledger accepts reads back exactly as written (strings of
 * any Unicode, lengths past one LEB128 byte, negative and 53-bit integers, nulls), whether sent by
 * `appendLedgerTransfers` or streamed by `ingestLedgerRows` across several INSERTs; a bad row is
 * refused with its field named and nothing sent.
 */
import { KytError, type LedgerTransfer } from "@openkyt/core";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalClickHouse, RowBinaryEncoder, startLocalClickHouse } from "../src/index.js";
import { CLICKHOUSE_MISSING, dropLedger, freshLedger } from "./ch-test-server.js";

const text = fc.oneof(
  fc.string({ maxLength: 5 }),
  fc.string({ unit: "grapheme", maxLength: 60 }),
  fc.string({ minLength: 120, maxLength: 400 }),
);
const int64 = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });

const transfer = fc.record({
  network: fc.constant("ETH"),
  txHash: text,
  logIndex: fc.integer({ min: -0x80000000, max: 0x7fffffff }),
  tokenId: text,
  from: text,
  to: text,
  // -0 is stored as "0", as in every store: the sign of a zero amount is not kept.
  amount: fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (x === 0 ? 0 : x)),
  occurredAt: int64,
  block: fc.option(int64),
  valueUsd: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (x === 0 ? 0 : x))),
}) satisfies fc.Arbitrary<LedgerTransfer>;

const row: LedgerTransfer = {
  network: "ETH",
  txHash: "0x1",
  logIndex: 0,
  tokenId: "native",
  from: "0xa",
  to: "0xb",
  amount: 1.5,
  occurredAt: 1,
  block: null,
  valueUsd: null,
};

describe("RowBinary encoder", () => {
  it.each([
    ["logIndex", { logIndex: 2 ** 31 }, /logIndex: expected a 32-bit integer/],
    ["occurredAt", { occurredAt: 1.5 }, /occurredAt: expected a safe integer/],
    ["block", { block: 2 ** 60 }, /block: expected a safe integer/],
    ["amount", { amount: Number.NaN }, /amount: expected a finite number/],
    ["from", { from: "0x\uD800" }, /from: expected a well-formed string/],
    ["to", { to: 7 as unknown as string }, /to: expected a string/],
  ])("refuses a bad %s, naming the row and the field", (_, change, message) => {
    const encoder = new RowBinaryEncoder();
    encoder.push(row);
    const error = (() => {
      try {
        encoder.push({ ...row, ...change });
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(KytError);
    expect((error as KytError).code).toBe("VALIDATION_ERROR");
    expect((error as KytError).message).toMatch(/^ledger row 2: /);
    expect((error as KytError).message).toMatch(message);
  });
});

describe.skipIf(CLICKHOUSE_MISSING !== null)("RowBinary ingest into ClickHouse", () => {
  let server: LocalClickHouse;
  beforeAll(async () => {
    server = await startLocalClickHouse();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("reads back every row exactly as written, appended or streamed over several INSERTs", async () => {
    const ledger = await freshLedger(server);
    let round = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(transfer, { minLength: 1, maxLength: 25 }), async (drawn) => {
          round += 1;
          // Unique keys: the property is about values, not duplicates (ch-ledger.test.ts has those).
          const rows = drawn.map((r, i) => ({ ...r, network: `R${round}`, txHash: `${r.txHash}#${i}` }));
          const half = Math.floor(rows.length / 2);
          expect(await ledger.appendLedgerTransfers(rows.slice(0, half))).toBe(half);
          async function* stream() {
            yield* rows.slice(half);
          }
          expect(await ledger.ingestLedgerRows(stream(), { rowsPerInsert: 3, inFlight: 2 })).toBe(
            rows.length - half,
          );
          for (const r of rows) {
            expect(await ledger.ledgerByTxHash(r.network, r.txHash)).toEqual([r]);
          }
        }),
        { numRuns: 15 },
      );
    } finally {
      await dropLedger(ledger);
    }
  }, 180_000);

  it("sends nothing of a stream whose row is bad before the first INSERT is full", async () => {
    const ledger = await freshLedger(server);
    try {
      const rows = [row, { ...row, txHash: "0x2", logIndex: 1.5 }];
      await expect(ledger.ingestLedgerRows(rows)).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
      expect(await ledger.ledgerByTxHash("ETH", "0x1")).toEqual([]);
    } finally {
      await dropLedger(ledger);
    }
  }, 60_000);
});
