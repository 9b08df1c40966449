/**
 * The running count of one import: a plain object owned by that import, frozen into its
 * {@link ImportSummary} at the end.
 */
import type {
  ImportKind,
  ImportPreview,
  ImportRefusal,
  ImportSummary,
  RowProblem,
  UtxoImportCounts,
} from "./import-types.js";

/** Counters and problem lists of one import. */
export interface ImportTally {
  readonly kind: ImportKind;
  readonly format: string;
  readonly file: string;
  rowsRead: number;
  added: number;
  updated: number;
  unchanged: number;
  duplicates: number;
  skipped: number;
  rejected: number;
  delisted: number;
  relisted: number;
  asOf: number | null;
  /** True when the import writes nothing (a dry run). */
  dryRun: boolean;
  /** Sanctions: the first addresses of each outcome. */
  preview: ImportPreview | null;
  /** A dry run that a real run would refuse: why. */
  refusal: { readonly code: ImportRefusal; readonly message: string } | null;
  /** A UTXO ledger import: what its accepted transactions held. */
  utxo: UtxoImportCounts | null;
  /** Counts a skipped row under `reason`. */
  skip(reason: string): void;
  /** Counts a rejected row and lists it while fewer than `maxReported` are listed. */
  reject(line: number, reason: string): void;
  /** The first rejection listed, if any. */
  firstRejection(): RowProblem | undefined;
  /** Lists a remark about an accepted row (counted in `warnings` while room is left). */
  warn(line: number, reason: string): void;
  /**
   * Adds the counts and lists of a tally kept elsewhere (the parse thread's), as if its rows had
   * been counted here; listed problems beyond `maxReported` are left out, as by `reject`.
   */
  add(report: TallyReport): void;
}

/** The counters of a tally. */
export const TALLY_COUNTERS = [
  "rowsRead",
  "added",
  "updated",
  "unchanged",
  "duplicates",
  "skipped",
  "rejected",
  "delisted",
  "relisted",
] as const;
/** A counter of a tally. */
export type TallyCounter = (typeof TALLY_COUNTERS)[number];

/** A tally as plain data, to hand to another thread (structured clone). */
export interface TallyReport {
  readonly counts: Readonly<Record<TallyCounter, number>>;
  /** Skip reasons with their counts, in the order first met. */
  readonly skippedBy: ReadonlyArray<readonly [string, number]>;
  readonly rejections: ReadonlyArray<RowProblem>;
  readonly warnings: ReadonlyArray<RowProblem>;
}

/** What starts a tally. */
export interface TallyStart {
  readonly kind: ImportKind;
  readonly format: string;
  readonly file: string;
  readonly maxReported: number;
}

/** Longest reason listed: a reason may quote a row's value, which can be a megabyte long. */
export const MAX_REASON_CHARS = 300;

/** `reason`, cut to {@link MAX_REASON_CHARS} with the length it had. */
function shortReason(reason: string): string {
  return reason.length <= MAX_REASON_CHARS
    ? reason
    : `${reason.slice(0, MAX_REASON_CHARS)}... (${reason.length} characters)`;
}

/** A fresh tally. */
export function createTally(start: TallyStart): ImportTally & { readonly snapshot: TallySnapshot } {
  const skippedBy = new Map<string, number>();
  const rejections: RowProblem[] = [];
  const warnings: RowProblem[] = [];
  const problem = (line: number, reason: string): RowProblem =>
    Object.freeze({ file: start.file, line, reason: shortReason(reason) });
  return {
    kind: start.kind,
    format: start.format,
    file: start.file,
    rowsRead: 0,
    added: 0,
    updated: 0,
    unchanged: 0,
    duplicates: 0,
    skipped: 0,
    rejected: 0,
    delisted: 0,
    relisted: 0,
    asOf: null,
    dryRun: false,
    preview: null,
    refusal: null,
    utxo: null,
    skip(reason) {
      this.skipped++;
      skippedBy.set(reason, (skippedBy.get(reason) ?? 0) + 1);
    },
    reject(line, reason) {
      this.rejected++;
      if (rejections.length < start.maxReported) rejections.push(problem(line, reason));
    },
    firstRejection: () => rejections[0],
    warn(line, reason) {
      if (warnings.length < start.maxReported) warnings.push(problem(line, reason));
    },
    add(report) {
      for (const counter of TALLY_COUNTERS) this[counter] += report.counts[counter];
      for (const [reason, count] of report.skippedBy)
        skippedBy.set(reason, (skippedBy.get(reason) ?? 0) + count);
      for (const p of report.rejections)
        if (rejections.length < start.maxReported) rejections.push(problem(p.line, p.reason));
      for (const p of report.warnings)
        if (warnings.length < start.maxReported) warnings.push(problem(p.line, p.reason));
    },
    snapshot: { skippedBy, rejections, warnings },
  };
}

/** The lists a tally keeps beside its counters. */
export interface TallySnapshot {
  readonly skippedBy: ReadonlyMap<string, number>;
  readonly rejections: ReadonlyArray<RowProblem>;
  readonly warnings: ReadonlyArray<RowProblem>;
}

/** A tally as plain data (see {@link TallyReport}). */
export function reportOf(tally: ImportTally & { readonly snapshot: TallySnapshot }): TallyReport {
  const counts = Object.fromEntries(TALLY_COUNTERS.map((c) => [c, tally[c]])) as Record<TallyCounter, number>;
  return {
    counts,
    skippedBy: [...tally.snapshot.skippedBy],
    rejections: tally.snapshot.rejections.map(({ file, line, reason }) => ({ file, line, reason })),
    warnings: tally.snapshot.warnings.map(({ file, line, reason }) => ({ file, line, reason })),
  };
}

/** The frozen summary of a finished tally. */
export function summaryOf(
  tally: ImportTally & { readonly snapshot: TallySnapshot },
  io: { readonly bytesRead: number; readonly readingMs: number; readonly durationMs: number },
): ImportSummary {
  const skipped = [...tally.snapshot.skippedBy].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return Object.freeze({
    kind: tally.kind,
    format: tally.format,
    file: tally.file,
    rowsRead: tally.rowsRead,
    added: tally.added,
    updated: tally.updated,
    unchanged: tally.unchanged,
    duplicates: tally.duplicates,
    skipped: tally.skipped,
    rejected: tally.rejected,
    delisted: tally.delisted,
    relisted: tally.relisted,
    dryRun: tally.dryRun,
    preview: tally.preview,
    refusal: tally.refusal,
    skippedBy: Object.freeze(Object.fromEntries(skipped)),
    rejections: Object.freeze([...tally.snapshot.rejections]),
    warnings: Object.freeze([...tally.snapshot.warnings]),
    asOf: tally.asOf,
    utxo: tally.utxo === null ? null : Object.freeze({ ...tally.utxo }),
    bytesRead: io.bytesRead,
    readingMs: io.readingMs,
    durationMs: io.durationMs,
  });
}
