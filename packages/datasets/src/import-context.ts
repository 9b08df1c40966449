/** What every kind's importer is given: the store, the opened file, its format and the bookkeeping. */
import type { Clock, Store } from "@openkyt/core";
import type { TextFile } from "./file-text.js";
import type { ImportTally } from "./import-tally.js";
import type { ImportOptions } from "./import-types.js";

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
  /** Reports progress to the caller's `onProgress`, if any. */
  readonly progress: () => void;
  readonly clock: Clock;
}
