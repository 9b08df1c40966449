/**
 * @openkyt/datasets: streaming importers of public and private data into an OpenKYT store:
 * sanctions lists, address labels, ledger transfers, tokens and daily prices.
 *
 * `importFile(store, { kind, file })` recognises the format from the header (refusing a file of
 * no known format), reads the file in constant memory, writes in batches (one transaction each;
 * a sanctions list in one transaction), and answers an {@link ImportSummary}.
 */

export { quotedFirstLine } from "./format-first-line.js";
export {
  checkFormatFits,
  detectFormat,
  detectFormatOfHead,
  FORMATS,
  type FormatInfo,
  formatOf,
} from "./format-registry.js";
export { DEFAULT_BATCH_SIZE, DEFAULT_MAX_REPORTED, importFile } from "./import-file.js";
export {
  IMPORT_KINDS,
  IMPORT_PHASES,
  IMPORT_REFUSALS,
  type ImportKind,
  type ImportOptions,
  type ImportPhase,
  type ImportPreview,
  type ImportProgress,
  type ImportRefusal,
  type ImportSummary,
  isImportKind,
  type LedgerWriter,
  MASS_DELIST_SHARE,
  massDelistLimit,
  PREVIEW_SIZE,
  type RowProblem,
  refusalOf,
  type UtxoImportCounts,
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
export { looksLikeAddressList } from "./sanctions-address-list.js";
export { DEFAULT_LIST_NAME } from "./sanctions-import.js";
export { isUtxoLedgerFormat, UTXO_LEDGER_FORMATS, undoFileOf } from "./utxo-import.js";
