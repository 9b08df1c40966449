/**
 * `importFile`: the one entry point of the importers. It opens the file, recognises (or checks)
 * its format, runs the kind's importer and answers a summary. A missing file, an unknown format
 * (refused, `UNKNOWN_FORMAT`) or a header without the format's columns fails with a KytError
 * naming the file before anything is written; bad rows are counted and listed, not thrown. A
 * sanctions import is one store transaction, and refuses a run that could lose listings (see
 * sanctions-import.ts).
 */
import { KytError, type Store, systemClock } from "@openkyt/core";
import { openTextFile } from "./file-text.js";
import { checkFormatFits, detectFormat, FORMATS, formatOf } from "./format-registry.js";
import type { ImportContext, ReadPosition } from "./import-context.js";
import { createTally, summaryOf } from "./import-tally.js";
import {
  type ImportKind,
  type ImportOptions,
  type ImportPhase,
  type ImportSummary,
  isImportKind,
} from "./import-types.js";
import { importLabels } from "./labels-import.js";
import { importLedger } from "./ledger-import.js";
import { importPrices } from "./prices-import.js";
import { importSanctions } from "./sanctions-import.js";
import { importTokens } from "./tokens-import.js";

/** Rows per store transaction unless told otherwise. */
export const DEFAULT_BATCH_SIZE = 5_000;
/** Rejections and warnings listed in a summary unless told otherwise. */
export const DEFAULT_MAX_REPORTED = 20;

const IMPORTERS: Readonly<Record<ImportKind, (ctx: ImportContext) => Promise<void>>> = Object.freeze({
  sanctions: importSanctions,
  labels: importLabels,
  ledger: importLedger,
  tokens: importTokens,
  prices: importPrices,
});

/** A usage error (bad option), naming the option. */
function badOption(option: string, message: string): KytError {
  return new KytError("VALIDATION_ERROR", `${option}: ${message}`, { errors: { [option]: [message] } });
}

/** A positive integer option, or its default. */
function positive(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw badOption(option, "must be a positive integer");
  return value;
}

/** Imports one file into `store` and answers what it did. */
export async function importFile(store: Store, options: ImportOptions): Promise<ImportSummary> {
  const started = performance.now();
  if (!isImportKind(options.kind)) throw badOption("kind", `unknown kind "${String(options.kind)}"`);
  const batchSize = positive("batchSize", options.batchSize, DEFAULT_BATCH_SIZE);
  if (options.dryRun && options.kind !== "sanctions")
    throw badOption("dryRun", "only a sanctions import has a dry run");
  const maxReported = options.maxReported ?? DEFAULT_MAX_REPORTED;
  const file = await openTextFile(options.file);
  const format =
    options.format === undefined
      ? await detectFormat(options.file, options.kind)
      : formatOf(options.kind, options.format);
  if (format === undefined) {
    const known = FORMATS.filter((f) => f.kind === options.kind).map((f) => f.id);
    throw badOption(
      "format",
      `unknown ${options.kind} format "${options.format}" (known: ${known.join(", ")})`,
    );
  }
  if (options.format !== undefined) await checkFormatFits(options.file, format);
  const tally = createTally({ kind: options.kind, format: format.id, file: options.file, maxReported });
  tally.dryRun = options.dryRun === true;
  // Where reading stands when another thread reads the file (see ImportContext.progress).
  let elsewhere: ReadPosition | undefined;
  const bytesRead = () => elsewhere?.bytesRead ?? file.bytesRead();
  let phase: ImportPhase = "reading";
  let readEnded: number | undefined;
  const report = () =>
    options.onProgress?.({
      phase,
      rowsRead: elsewhere?.rowsRead ?? tally.rowsRead,
      bytesRead: bytesRead(),
      totalBytes: file.totalBytes,
    });
  const ctx: ImportContext = {
    store,
    file,
    format: format.id,
    options,
    tally,
    batchSize,
    maxReported,
    clock: options.clock ?? systemClock,
    progress: (at) => {
      if (at !== undefined) elsewhere = at;
      report();
    },
    finishing: () => {
      if (phase === "finishing") return;
      phase = "finishing";
      readEnded = performance.now();
      report();
    },
  };
  await IMPORTERS[options.kind](ctx);
  const ended = performance.now();
  return summaryOf(tally, {
    bytesRead: bytesRead(),
    readingMs: (readEnded ?? ended) - started,
    durationMs: ended - started,
  });
}
