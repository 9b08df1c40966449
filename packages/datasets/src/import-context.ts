/** What every kind's importer is given: the store, the opened file, its format and the bookkeeping. */
import type { Clock, Store } from "@openkyt/core";
import type { TextFile } from "./file-text.js";
import type { ImportTally } from "./import-tally.js";
import type { ImportOptions } from "./import-types.js";

/** Where reading a file stands: rows and bytes read so far. */
export interface ReadPosition {
  readonly rowsRead: number;
  readonly bytesRead: number;
}

/** One import in progress. */
export interface ImportContext {
  readonly store: Store;
  readonly file: TextFile;
  /** The format id, given or recognised. */
  readonly format: string;
  readonly options: ImportOptions;
  readonly tally: ImportTally;
  /** Rows per store transaction. */
  readonly batchSize: number;
  /** How many rejections and warnings the summary lists. */
  readonly maxReported: number;
  /**
   * Reports progress to the caller's `onProgress`, if any: this import's own reading, or `at`
   * when the file is read on another thread (the ledger parse thread); the last `at` reported
   * is then also the summary's `bytesRead`.
   */
  readonly progress: (at?: ReadPosition) => void;
  /**
   * Says that every row is read and handed to the writer, which is about to make them durable:
   * reported to `onProgress` at once (phase `finishing`); the summary's `readingMs` ends here.
   */
  readonly finishing: () => void;
  readonly clock: Clock;
}
