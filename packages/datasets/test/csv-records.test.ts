import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CsvRecord, csvRecordBatches } from "../src/csv-records.js";
import { lineBatches } from "../src/text-lines.js";

/** The records of `chunks` read through the streaming reader. */
async function recordsOf(chunks: string[]): Promise<CsvRecord[]> {
  async function* source() {
    yield* chunks;
  }
  const out: CsvRecord[] = [];
  for await (const batch of csvRecordBatches(lineBatches(source()), "test.csv")) out.push(...batch);
  return out;
}

/** `text` cut at the given positions. */
function cut(text: string, at: number[]): string[] {
  const points = [...new Set(at.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const parts: string[] = [];
  let from = 0;
  for (const p of points) {
    parts.push(text.slice(from, p));
    from = p;
  }
  parts.push(text.slice(from));
  return parts.filter((p) => p !== "");
}

const field = fc.oneof(
  fc.stringMatching(/^[a-z0-9 .]{0,6}$/),
  fc.stringMatching(/^[a-z,"\n ]{1,6}$/).map((s) => `"${s.replaceAll('"', '""')}"`),
);
const record = fc.array(field, { minLength: 1, maxLength: 4 }).map((fields) => fields.join(","));

describe("csv records", () => {
  it("read the same records as csv-parse, wherever the chunks are cut", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(record, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (records, cuts) => {
          const kept = records.filter((r) => r !== "");
          const text = `${kept.join("\n")}\n`;
          const expected = (
            parse(text, { relax_column_count: true, skip_empty_lines: true }) as string[][]
          ).filter((r) => !(r.length === 1 && r[0] === ""));
          const got = (await recordsOf(cut(text, cuts))).map((r) => r.fields);
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("number records by the line they start on, across CRLF and multi-line quoted fields", async () => {
    const records = await recordsOf(['a,b\r\n1,"two\r\nlines"\r\n', "\r\n", '3,"say ""hi"""\r\n4,x']);
    expect(records).toEqual([
      { line: 1, fields: ["a", "b"] },
      { line: 2, fields: ["1", "two\nlines"] },
      { line: 5, fields: ["3", 'say "hi"'] },
      { line: 6, fields: ["4", "x"] },
    ]);
  });

  it("report a record whose quoting is broken, and one whose quote never closes", async () => {
    const records = await recordsOf(['h1,h2\n1,"bad"quote\n2,ok\n3,"never closed\n4,x\n']);
    expect(records[1]).toMatchObject({ line: 2, fields: [] });
    expect(records[1]?.problem).toMatch(/malformed CSV/);
    expect(records[2]).toEqual({ line: 3, fields: ["2", "ok"] });
    expect(records.at(-1)).toEqual({ line: 4, fields: [], problem: "a quoted field is never closed" });
  });
});
