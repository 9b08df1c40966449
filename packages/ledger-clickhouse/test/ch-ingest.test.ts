/**
 * The RowBinary write path: any row the ledger accepts reads back exactly as written (strings of
 * any Unicode, lengths past one LEB128 byte, negative and 53-bit integers, nulls), whether sent by
 * `appendLedgerTransfers` or streamed by `ingestLedgerRows` across several INSERTs; a bad row is
 * refused with its field named and nothing sent. The encoder's shortcuts (amounts written digit by
 * digit, buffers given back) change no byte, and one INSERT is one block (one part) even on a
 * server whose max_insert_block_size is smaller.
 */
import { KytError, type LedgerTransfer } from "@openkyt/core";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalClickHouse, openChClient, RowBinaryEncoder, startLocalClickHouse } from "../src/index.js";
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

describe("RowBinary encoder's shortcuts", () => {
  /** Every chunk of `rows` pushed into `encoder`, then its flush, as one buffer. */
  const encodeAll = (encoder: RowBinaryEncoder, rows: ReadonlyArray<LedgerTransfer>) => {
    const chunks: Buffer[] = [];
    for (const r of rows) {
      const chunk = encoder.push(r);
      if (chunk) chunks.push(Buffer.from(chunk));
    }
    chunks.push(Buffer.from(encoder.flush()));
    return Buffer.concat(chunks);
  };

  it("writes an amount as String(amount) would, whether digit by digit or through String", () => {
    // The row as RowBinary built the plain way: every string with Buffer.from, amounts by String.
    const text = (t: string) => {
      const bytes = Buffer.from(t, "utf8");
      return Buffer.concat([Buffer.from([bytes.length]), bytes]);
    };
    const int64 = (n: number) => {
      const b = Buffer.alloc(8);
      b.writeBigInt64LE(BigInt(n));
      return b;
    };
    const expected = (r: LedgerTransfer) =>
      Buffer.concat([
        text(r.network),
        text(r.txHash),
        Buffer.from(Int32Array.of(r.logIndex).buffer),
        text(r.tokenId),
        text(r.from),
        text(r.to),
        text(String(r.amount)),
        int64(r.occurredAt),
        Buffer.from([1]),
        r.valueUsd === null ? Buffer.from([1]) : Buffer.concat([Buffer.from([0]), text(String(r.valueUsd))]),
      ]);
    const sixDecimals = fc
      .tuple(fc.integer({ min: -(2 ** 31) + 1, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 999_999 }))
      .map(([whole, micro]) => (whole * 1e6 + (whole < 0 ? -micro : micro)) / 1e6);
    const amount = fc.oneof(
      sixDecimals,
      fc
        .double({ noNaN: true, noDefaultInfinity: true, min: -1e10, max: 1e10 })
        .map((x) => Math.round(x * 1e6) / 1e6),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(0, -0, 1e-6, -1e-6, 5e-7, 2 ** 31 - 1e-6, 2 ** 31, 0.1, 0.3, 1e21, 123456.000001),
    );
    fc.assert(
      fc.property(amount, fc.option(amount), (a, v) => {
        const r = { ...row, amount: a, valueUsd: v };
        expect(encodeAll(new RowBinaryEncoder(), [r]).toString("hex")).toBe(expected(r).toString("hex"));
      }),
      { numRuns: 5_000 },
    );
  });

  it("encodes into the buffers of recycled chunks, and their bytes are the rows' own", () => {
    const rows = Array.from({ length: 3_000 }, (_, i) => ({ ...row, txHash: `0x${i}`, logIndex: i }));
    const fresh = encodeAll(new RowBinaryEncoder(8_192), rows);
    const encoder = new RowBinaryEncoder(8_192);
    const owners = new Set<ArrayBufferLike>();
    const bytes: Buffer[] = [];
    let reused = 0;
    for (const r of rows) {
      const chunk = encoder.push(r);
      if (!chunk) continue;
      if (owners.has(chunk.buffer)) reused += 1;
      owners.add(chunk.buffer);
      bytes.push(Buffer.from(chunk)); // copied before it is given back
      encoder.recycle([chunk]);
    }
    bytes.push(Buffer.from(encoder.flush()));
    expect(bytes.length).toBeGreaterThan(5);
    // Each chunk given back is the buffer the one after next is encoded in: two buffers in all.
    expect(owners.size).toBe(2);
    expect(reused).toBe(bytes.length - 3);
    expect(Buffer.concat(bytes).equals(fresh)).toBe(true);
  });
});

describe.skipIf(CLICKHOUSE_MISSING !== null)("RowBinary ingest into ClickHouse", () => {
  let server: LocalClickHouse;
  beforeAll(async () => {
    // Blocks of 8 rows, not squashed together again, unless an INSERT says otherwise: the
    // one-block-per-INSERT test needs them.
    server = await startLocalClickHouse({
      profile: { max_insert_block_size: 8, min_insert_block_size_rows: 8, min_insert_block_size_bytes: 1 },
    });
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

  it("stores each INSERT as one block (one part) when it holds more rows than the server's block", async () => {
    const ledger = await freshLedger(server);
    const admin = openChClient(ledger.target);
    try {
      await admin.command(`SYSTEM STOP MERGES ${ledger.target.database}.ledger_tx`);
      const rows = Array.from({ length: 45 }, (_, i) => ({ ...row, txHash: `0x${i}` }));
      expect(await ledger.ingestLedgerRows(rows, { rowsPerInsert: 15 })).toBe(45);
      const [parts] = await admin.rows<{ parts: number | string; rows: number | string }>(
        `SELECT count() AS parts, sum(rows) AS rows FROM system.parts
         WHERE database = '${ledger.target.database}' AND table = 'ledger_tx' AND active`,
      );
      // Three INSERTs of 15 rows: three parts (blocks of 8 would make 2 + 2 + 2).
      expect({ parts: Number(parts?.parts), rows: Number(parts?.rows) }).toEqual({ parts: 3, rows: 45 });
    } finally {
      await admin.close();
      await dropLedger(ledger);
    }
  }, 60_000);

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
