/**
 * The literals of ch-escape.ts: pure properties (ASCII only, no unescaped quote, refusals), and
 * a real server reading every generated string literal back as the same string.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ChClient,
  type LocalClickHouse,
  openChClient,
  parseClickHouseUrl,
  sqlIdentifier,
  sqlInt,
  sqlString,
  sqlStringList,
  startLocalClickHouse,
} from "../src/index.js";
import { CLICKHOUSE_MISSING } from "./ch-test-server.js";

/** Any well-formed string, from ASCII through control characters to astral code points. */
const anyText = fc.string({ unit: "grapheme-composite", maxLength: 40 });
const nasty = fc.oneof(
  anyText,
  fc.string({
    unit: fc.constantFrom("'", "\\", "\n", "\t", "\r", "\0", "`", '"', "é", "😀", "\u2028"),
    maxLength: 30,
  }),
);

describe("ClickHouse literals", () => {
  it("writes every string as printable ASCII inside quotes, with no quote that ends it early", () => {
    fc.assert(
      fc.property(nasty, (value) => {
        const literal = sqlString(value);
        expect(literal).toMatch(/^'[\x20-\x7e]*'$/);
        // Every quote inside is escaped: removing escape pairs leaves no quote.
        expect(literal.slice(1, -1).replace(/\\./g, "")).not.toContain("'");
      }),
    );
  });

  it("refuses lone surrogates, unsafe integers and identifiers that are not plain names", () => {
    expect(() => sqlString("a\uD800b")).toThrow(/surrogate/);
    for (const bad of [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])
      expect(() => sqlInt(bad)).toThrow(/integer/);
    expect(sqlInt(-12)).toBe("-12");
    for (const bad of ["", "1abc", "a-b", "a b", "a;drop", "x".repeat(65)])
      expect(() => sqlIdentifier(bad)).toThrow();
    expect(sqlIdentifier("ledger_1")).toBe("ledger_1");
    expect(() => sqlStringList([])).toThrow(/at least one/);
  });

  it("parses clickhouse:// URLs and names what is wrong", () => {
    expect(parseClickHouseUrl("clickhouse://u:p%40ss@10.0.0.1:9123/kyt?cluster=two")).toEqual({
      url: "http://10.0.0.1:9123",
      database: "kyt",
      username: "u",
      password: "p@ss",
      cluster: "two",
      shards: [],
    });
    expect(parseClickHouseUrl("clickhouse://h/db?cluster=c&shards=a:1,b").shards).toEqual([
      "http://a:1",
      "http://b:8123",
    ]);
    expect(() => parseClickHouseUrl("clickhouse://h/db?shards=a/b")).toThrow(/host:port/);
    expect(parseClickHouseUrl("clickhouse://localhost").url).toBe("http://localhost:8123");
    expect(parseClickHouseUrl("clickhouse://localhost").database).toBe("default");
    expect(() => parseClickHouseUrl("postgres://x/y")).toThrow(/--ledger/);
    expect(() => parseClickHouseUrl("clickhouse://h/bad-name")).toThrow(/database name/);
    expect(() => parseClickHouseUrl("clickhouse://h/db?cluster=a;b")).toThrow(/cluster name/);
  });
});

describe.skipIf(CLICKHOUSE_MISSING !== null)("ClickHouse literals on a real server", () => {
  let server: LocalClickHouse;
  let client: ChClient;
  beforeAll(async () => {
    server = await startLocalClickHouse();
    client = openChClient(parseClickHouseUrl(server.ledgerUrl("default")));
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it("reads every string literal back as the same string, and integers as the same numbers", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(nasty, { minLength: 1, maxLength: 20 }),
        fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
        async (values, n) => {
          const rows = await client.rows<{ s: string; n: number }>(
            values.map((v) => `SELECT ${sqlString(v)} AS s, toInt64(${sqlInt(n)}) AS n`).join(" UNION ALL "),
          );
          expect(rows.map((r) => r.s).sort()).toEqual([...values].sort());
          for (const r of rows) expect(Number(r.n)).toBe(n);
        },
      ),
      { numRuns: 40 },
    );
  });
});
