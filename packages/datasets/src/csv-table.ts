/**
 * A CSV file as a header and a stream of record batches, and columns found by name (any case,
 * any order, extra columns ignored).
 */
import { type CsvRecord, csvRecordBatches } from "./csv-records.js";
import { type TextFile, unreadable } from "./file-text.js";
import { lineBatches } from "./text-lines.js";

/** A CSV file opened for reading: its header (names trimmed, lower-cased) and its records. */
export interface CsvTable {
  readonly header: ReadonlyArray<string>;
  readonly records: AsyncIterable<ReadonlyArray<CsvRecord>>;
}

/**
 * Reads the header of a CSV file; the records follow it. A file without a header, or whose header
 * lacks a `required` column (see {@link missingColumns}), fails before any record is read.
 */
export async function openCsvTable(file: TextFile, required: ReadonlyArray<string>): Promise<CsvTable> {
  const batches = csvRecordBatches(lineBatches(file.chunks()), file.path);
  let first = await batches.next();
  while (!first.done && first.value.length === 0) first = await batches.next();
  const head = first.done ? undefined : first.value[0];
  const header =
    head?.problem === undefined ? head?.fields.map((name) => name.trim().toLowerCase()) : undefined;
  const missing = header === undefined ? [] : missingColumns(header, required);
  if (header === undefined || missing.length > 0) {
    await batches.return(undefined);
    if (header === undefined) throw unreadable(file.path, "no CSV header");
    throw unreadable(file.path, `the header lacks ${missing.join(", ")} (header: ${header.join(",")})`);
  }
  const rest = first.done ? [] : first.value.slice(1);
  async function* records(): AsyncGenerator<CsvRecord[]> {
    if (rest.length > 0) yield rest;
    yield* batches;
  }
  return { header, records: records() };
}

/** Positions of named columns in a header; -1 for a column that is absent. */
export type ColumnIndex<K extends string> = Readonly<Record<K, number>>;

/** Finds `names` in `header` (already lower-cased). */
export function columnIndex<K extends string>(
  header: ReadonlyArray<string>,
  names: ReadonlyArray<K>,
): ColumnIndex<K> {
  return Object.freeze(
    Object.fromEntries(names.map((name) => [name, header.indexOf(name)])),
  ) as ColumnIndex<K>;
}

/** True when `header` has a column matching `pattern`: a name, `name*` (a prefix) or `a|b` (either). */
function hasColumn(header: ReadonlyArray<string>, pattern: string): boolean {
  return pattern
    .split("|")
    .some((name) =>
      name.endsWith("*") ? header.some((h) => h.startsWith(name.slice(0, -1))) : header.includes(name),
    );
}

/** The column patterns of `required` that `header` lacks (see {@link hasColumn}). */
export function missingColumns(header: ReadonlyArray<string>, required: ReadonlyArray<string>): string[] {
  return required.filter((pattern) => !hasColumn(header, pattern));
}

/** A field of a record by column position: the text, or undefined when the column or field is absent. */
export function fieldAt(fields: ReadonlyArray<string>, column: number): string | undefined {
  return column < 0 ? undefined : fields[column];
}
