/**
 * @openkyt/datasets: streaming importers of public and private data into an OpenKYT store:
 * sanctions lists, address labels, ledger transfers, tokens and daily prices.
 *
 * `importFile(store, { kind, file })` recognises the format from the header, reads the file in
 * constant memory, writes in batches (one transaction each), and answers an {@link ImportSummary}.
 */

export { detectFormat, detectFormatOfHead, FORMATS, type FormatInfo, formatOf } from "./format-registry.js";
export { DEFAULT_BATCH_SIZE, DEFAULT_MAX_REPORTED, importFile } from "./import-file.js";
export {
  IMPORT_KINDS,
  IMPORT_PHASES,
  type ImportKind,
  type ImportOptions,
  type ImportPhase,
  type ImportProgress,
  type ImportSummary,
  isImportKind,
  type LedgerWriter,
  type RowProblem,
} from "./import-types.js";
export {
  categoryRank,
  ETH_LABELS_CATEGORIES,
  TAGPACK_ABUSES,
  TAGPACK_CATEGORIES,
} from "./labels-categories.js";
export { ETH_LABELS_SOURCE, TAGPACK_SOURCE } from "./labels-rows.js";
export { storeLedgerWriter } from "./ledger-writer.js";
export {
  ETH_LABELS_CHAINS,
  ETHEREUM_LISTS_CHAINS,
  OFAC_ASSET_NETWORKS,
  TAGPACK_CURRENCIES,
  TOKEN_ASSETS,
} from "./network-mappings.js";
export { DEFAULT_LIST_NAME } from "./sanctions-import.js";
