/**
 * What an import is asked to do and what it answers: the options of {@link importFile}, its
 * progress reports and its summary.
 */
import { type Clock, type ClusteringSummary, KytError, type LedgerTransfer } from "@openkyt/core";

/** The kinds of data an import loads. */
export const IMPORT_KINDS = ["sanctions", "labels", "ledger", "tokens", "prices"] as const;
/** A kind of data an import loads. */
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** True when `value` is an import kind. */
export function isImportKind(value: unknown): value is ImportKind {
  return typeof value === "string" && (IMPORT_KINDS as ReadonlyArray<string>).includes(value);
}

/**
 * Where an import stands: `reading` the file (rows are written as they are read), or
 * `finishing`: every row is read and handed over, and the writer is making them durable (for a
 * store's bulk ledger load, building the ledger's indexes and committing, which on millions of
 * rows takes about as long as the reading).
 */
export const IMPORT_PHASES = ["reading", "finishing"] as const;
/** A phase of an import (see {@link IMPORT_PHASES}). */
export type ImportPhase = (typeof IMPORT_PHASES)[number];

/** How far an import has come, for a progress bar (rows/s, ETA from bytes). */
export interface ImportProgress {
  readonly phase: ImportPhase;
  /** Data rows read so far (header, comments and blank lines not counted). */
  readonly rowsRead: number;
  /** Bytes of the file read so far. */
  readonly bytesRead: number;
  /** Size of the file in bytes. */
  readonly totalBytes: number;
}

/** The first addresses (at most {@link PREVIEW_SIZE} each) a sanctions import adds, changes, reopens and ends. */
export interface ImportPreview {
  readonly added: ReadonlyArray<string>;
  readonly updated: ReadonlyArray<string>;
  readonly relisted: ReadonlyArray<string>;
  readonly delisted: ReadonlyArray<string>;
}

/** Addresses listed per outcome in an {@link ImportPreview}. */
export const PREVIEW_SIZE = 5;

/**
 * Why an import was refused before it wrote anything. Every refusal is a KytError
 * `VALIDATION_ERROR` with `details.refusal` set to one of these (see {@link refusalOf}):
 * - `UNKNOWN_FORMAT`: the file is none of the kind's formats (its first line is quoted);
 * - `INCOMPLETE_SNAPSHOT`: a complete-list snapshot that does not look whole would delist addresses:
 *   it has no row the import could take, rejected rows, a last line not ended by a newline (a
 *   file cut mid-line), or a skipped row that is the start of an address it would delist (an
 *   address cut short, which reads as an address of no supported network);
 * - `MASS_DELIST`: a run would delist more than {@link massDelistLimit} without `allowMassDelist`;
 * - `PARTIAL_LIST_DELIST`: `delist: true` asked of a per-asset list, which is not a complete list.
 */
export const IMPORT_REFUSALS = [
  "UNKNOWN_FORMAT",
  "INCOMPLETE_SNAPSHOT",
  "MASS_DELIST",
  "PARTIAL_LIST_DELIST",
] as const;
/** A reason an import was refused (see {@link IMPORT_REFUSALS}). */
export type ImportRefusal = (typeof IMPORT_REFUSALS)[number];

/** The refusal an error of {@link importFile} carries, or null for any other failure. */
export function refusalOf(error: unknown): ImportRefusal | null {
  if (!(error instanceof KytError) || error.code !== "VALIDATION_ERROR") return null;
  const refusal = error.details.refusal;
  return (IMPORT_REFUSALS as ReadonlyArray<unknown>).includes(refusal) ? (refusal as ImportRefusal) : null;
}

/** The KytError of a refusal, naming the file. */
export function refusal(code: ImportRefusal, file: string, message: string): KytError {
  return new KytError("VALIDATION_ERROR", `${file}: ${message}`, {
    errors: { file: [message] },
    details: { file, refusal: code },
  });
}

/**
 * Share of a list's open listings one run may delist without `allowMassDelist`: 5%. There is no
 * floor, so a list of 19 listings or fewer may lose none unasked. OFAC delists a handful of
 * addresses a year from about a thousand, so a real update stays well under it, while a file cut
 * at a line boundary (which nothing in the file betrays) loses more than it the moment the cut
 * drops a twentieth of the list.
 */
export const MASS_DELIST_SHARE = 0.05;

/**
 * How many listings a run may end without `allowMassDelist`: 5% of the listings of the list that
 * were open before the run, rounded down (0 for a list of fewer than 20).
 */
export function massDelistLimit(openListings: number): number {
  return Math.floor(openListings * MASS_DELIST_SHARE);
}

/** What the transactions a UTXO ledger import accepted held. */
export interface UtxoImportCounts {
  /** Distinct blocks they belong to. */
  blocks: number;
  inputs: number;
  outputs: number;
  /** Outputs whose script pays no address (OP_RETURN, bare multisig, non-standard): kept, address null. */
  outputsWithoutAddress: number;
  /**
   * The common-input clustering of the transactions taken, summed over the batches (each batch
   * merged in its own store transaction); conflicts listed once per cluster, as last seen. Null
   * when `ImportOptions.clustering` is false.
   */
  clustering: ClusteringSummary | null;
}

/** A row the import could not take, or took with a remark. */
export interface RowProblem {
  readonly file: string;
  /** Line of the file where the row starts (1 = the first line). */
  readonly line: number;
  readonly reason: string;
}

/**
 * Where ledger rows go. The default writes each batch through `Store.putLedgerTransfers` in one
 * transaction; a store may offer a faster bulk path with the same contract.
 */
export interface LedgerWriter {
  /** Takes one batch of normalised rows. Rows already stored (same network, txHash, logIndex) are ignored. */
  write(rows: ReadonlyArray<LedgerTransfer>): Promise<void>;
  /** Makes every written row durable and answers how many of them were new. */
  finish(): Promise<number>;
  /** Gives up after a failure; what a batch already committed may stay. */
  abort(): Promise<void>;
}

/** Options of {@link importFile}. */
export interface ImportOptions {
  readonly kind: ImportKind;
  /** Path of the file to read. */
  readonly file: string;
  /** A format id of the kind (see `FORMATS`); recognised from the header when omitted. */
  readonly format?: string;
  /** Network of a per-asset address list, of a Yahoo-style price file, or of a UTXO ledger (`BTC`, the default, or `LTC`). */
  readonly network?: string;
  /**
   * UTXO ledger: which network of the chain the data comes from, `main` (default), `test` or
   * `regtest`: the address prefixes output scripts are written with. A blk*.dat file's magic
   * says it; given as well, it must agree.
   */
  readonly chain?: string;
  /**
   * `bitcoin-blocks`: the undo data of the blocks. Default: beside the file, `revNNNNN.dat` for
   * `blkNNNNN.dat`, `NAME-undo.EXT` for `NAME.EXT`.
   */
  readonly undoFile?: string;
  /** Token of a Yahoo-style price file: `native` (default), a contract, or a symbol in the token table. */
  readonly token?: string;
  /** Sanctions: the list's name (default "OFAC SDN"). */
  readonly listName?: string;
  /** Sanctions: the snapshot's date, epoch ms or ISO 8601 (default: from the file, else now). */
  readonly asOf?: number | string;
  /**
   * Sanctions: mark open listings of the list that this snapshot lacks as delisted. Default: true
   * for complete lists (the OFAC CSV, an address list without a network), false for per-asset lists.
   */
  readonly delist?: boolean;
  /**
   * Sanctions: apply a run that would delist more than {@link massDelistLimit} of the list's
   * listed addresses (without it such a run is refused, `MASS_DELIST`). Default false.
   */
  readonly allowMassDelist?: boolean;
  /**
   * Sanctions: read the file and plan the import, write nothing, and answer what it would do
   * (counts and {@link ImportSummary.preview}; a run that would be refused answers its
   * {@link ImportSummary.refusal} instead of throwing). Other kinds refuse the option.
   */
  readonly dryRun?: boolean;
  /**
   * UTXO ledger: merge the address clusters (common-input ownership) of each batch in the batch's
   * own store transaction, so a batch and its clustering land together. Default true.
   */
  readonly clustering?: boolean;
  /** Rows per store transaction (default 5,000). */
  readonly batchSize?: number;
  /** How many rejections and warnings the summary lists (default 20; all are counted). */
  readonly maxReported?: number;
  /** Called after every batch read and at the end. */
  readonly onProgress?: (progress: ImportProgress) => void;
  /** Ledger: where rows go (default: the store, one transaction per batch). */
  readonly ledgerWriter?: LedgerWriter;
  /**
   * Ledger: read, decode and validate rows on a worker thread of their own while this thread
   * deduplicates and writes them (every writer call stays on this thread, in order; the summary is
   * the same). Default: on for account-ledger files of at least 8 MiB, off for smaller ones and
   * for the UTXO formats; `false` keeps everything on this thread, `true` uses the thread
   * whatever the size or format.
   */
  readonly parseThread?: boolean;
  /**
   * Ledger: the caller uses the store for nothing else until the import returns (as `openkyt
   * import` does), so the store's bulk load may hold the store for the whole import and write
   * rows straight into place (`LedgerBulkOptions.exclusive`; on SQLite, into an empty ledger,
   * it skips the staging table). Default false.
   */
  readonly exclusiveStore?: boolean;
  /** Time source for the default snapshot date (default: the system clock). */
  readonly clock?: Clock;
}

/**
 * What an import did. Every data row is counted once:
 * `rowsRead = added + updated + unchanged + duplicates + skipped + rejected`. Rows of one record
 * met again later in the same file (another batch included) are duplicates, never "unchanged".
 */
export interface ImportSummary {
  readonly kind: ImportKind;
  readonly format: string;
  readonly file: string;
  readonly rowsRead: number;
  /** Rows whose record was new. */
  readonly added: number;
  /** Rows that replaced a stored record with different values. */
  readonly updated: number;
  /** Rows whose record was already stored as it is (a second import of a file: all of them). */
  readonly unchanged: number;
  /** Rows that repeat (or merge into) a record met earlier in the same batch or list. */
  readonly duplicates: number;
  /** Rows outside what OpenKYT covers (a network or label it has no code for); not errors. */
  readonly skipped: number;
  /** Bad rows, left out; the first `maxReported` are listed in `rejections`. */
  readonly rejected: number;
  /** Sanctions: stored listings this snapshot ended. */
  readonly delisted: number;
  /**
   * Sanctions: listings this snapshot reopened, counted in `updated` too: listings it contains
   * that were ended by a run dated on or after the snapshot's date, or by the list's most recent
   * delisting run (see sanctions-snapshot.ts), with no later listing of the address.
   */
  readonly relisted: number;
  /** True when nothing was written (`dryRun`). */
  readonly dryRun: boolean;
  /** Sanctions: the first few addresses of each outcome (see {@link ImportPreview}); null for other kinds. */
  readonly preview: ImportPreview | null;
  /** A dry run that a real run would refuse: why (`dryRun` only; a real run throws instead). */
  readonly refusal: { readonly code: ImportRefusal; readonly message: string } | null;
  /** Why rows were skipped, with counts, most frequent first (for example `label friend-tech-users`). */
  readonly skippedBy: Readonly<Record<string, number>>;
  readonly rejections: ReadonlyArray<RowProblem>;
  /** Rows taken with a remark (for example an address listed under another asset than its format). */
  readonly warnings: ReadonlyArray<RowProblem>;
  /** Sanctions: the snapshot date used, epoch ms. */
  readonly asOf: number | null;
  /** A UTXO ledger import (rows are transactions): what its accepted transactions held; null for other imports. */
  readonly utxo: UtxoImportCounts | null;
  readonly bytesRead: number;
  /** Milliseconds until every row was read and handed to the writer (the reading phase). */
  readonly readingMs: number;
  /** Milliseconds of the whole import: reading, then finishing (see {@link ImportPhase}). */
  readonly durationMs: number;
}
