/**
 * Numbered lines to CSV records (RFC 4180), streaming. A record ends at a line end where the
 * count of `"` so far is even, so a quoted field may hold commas, quotes (`""`) and line breaks.
 *
 * Records without any quote, which is nearly all rows of machine-written data, are split on
 * commas directly; records with quotes go through csv-parse (its sync parser, a run of such
 * records at a time). csv-parse alone reads about 130,000 rows per CPU second here, which
 * would cap a ledger import well below its target; the split is exact for unquoted records.
 */

import { describeError } from "@openkyt/core";
import { parse } from "csv-parse/sync";
import { unreadable } from "./file-text.js";
import type { TextLine } from "./text-lines.js";

/** One CSV record: its fields, or why it could not be read. */
export interface CsvRecord {
  /** Line where the record starts. */
  readonly line: number;
  readonly fields: ReadonlyArray<string>;
  /** Set when the record's quoting is broken; `fields` is then empty. */
  readonly problem?: string;
}

/** Longest quoted record accepted, in lines; past it the file's quoting is taken as broken. */
const MAX_RECORD_LINES = 10_000;

/** How many `"` characters `text` holds. */
function quotesIn(text: string): number {
  let count = 0;
  let at = text.indexOf('"');
  while (at !== -1) {
    count++;
    at = text.indexOf('"', at + 1);
  }
  return count;
}

/** Parses one quoted record alone. */
function parseOne(text: string): { fields: string[] } | { problem: string } {
  try {
    const rows = parse(text, { relax_column_count: true }) as string[][];
    return rows.length === 1 && rows[0] ? { fields: rows[0] } : { problem: "not one CSV record" };
  } catch (error) {
    return { problem: `malformed CSV (${describeError(error)})` };
  }
}

/** Parses the quoted records of a batch, in one call when they all parse, else one by one. */
function parseQuoted(texts: ReadonlyArray<string>): Array<{ fields: string[] } | { problem: string }> {
  try {
    const rows = parse(texts.join("\n"), { relax_column_count: true }) as string[][];
    if (rows.length === texts.length) return rows.map((fields) => ({ fields }));
  } catch {
    // fall through: find the broken record(s)
  }
  return texts.map(parseOne);
}

/** A record in the making: text and start line of a quoted record spanning lines. */
interface Pending {
  text: string;
  line: number;
  lines: number;
  quotes: number;
}

/** The CSV records of `lines`, batched like the lines; blank lines are left out. */
export async function* csvRecordBatches(
  lines: AsyncIterable<ReadonlyArray<TextLine>>,
  path: string,
): AsyncGenerator<CsvRecord[]> {
  let pending: Pending | null = null;
  for await (const batch of lines) {
    const out: CsvRecord[] = [];
    const quoted: Array<{ at: number; line: number; text: string }> = [];
    for (const { line, text, problem } of batch) {
      if (problem !== undefined) {
        // A line too long to keep: its row is rejected, and a quoted record it was part of too.
        if (pending !== null) out.push({ line: pending.line, fields: [], problem });
        else out.push({ line, fields: [], problem });
        pending = null;
        continue;
      }
      if (pending !== null) {
        pending.text += `\n${text}`;
        pending.lines++;
        pending.quotes += quotesIn(text);
        if (pending.quotes % 2 === 0) {
          quoted.push({ at: out.length, line: pending.line, text: pending.text });
          out.push({ line: pending.line, fields: [] });
          pending = null;
        } else if (pending.lines > MAX_RECORD_LINES) {
          throw unreadable(path, `line ${pending.line}: a quoted field is never closed`);
        }
        continue;
      }
      if (text.length === 0) continue;
      if (text.indexOf('"') === -1) {
        out.push({ line, fields: text.split(",") });
        continue;
      }
      const quotes = quotesIn(text);
      if (quotes % 2 === 1) {
        pending = { text, line, lines: 1, quotes };
        continue;
      }
      quoted.push({ at: out.length, line, text });
      out.push({ line, fields: [] });
    }
    if (quoted.length > 0) {
      const parsed = parseQuoted(quoted.map((q) => q.text));
      quoted.forEach((q, i) => {
        const result = parsed[i] ?? { problem: "not read" };
        out[q.at] =
          "fields" in result
            ? { line: q.line, fields: result.fields }
            : { line: q.line, fields: [], ...result };
      });
    }
    if (out.length > 0) yield out;
  }
  if (pending !== null) yield [{ line: pending.line, fields: [], problem: "a quoted field is never closed" }];
}
