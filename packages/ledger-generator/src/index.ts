/**
 * @openkyt/ledger-generator: a seeded ledger of realistic shape and the labels and sanctions
 * that go with it. `openkyt demo` builds its background ledger with it at runtime, which is why
 * it is a package of its own rather than part of @openkyt/testkit (a test package the CLI must
 * not load); testkit re-exports it for tests and benchmarks.
 */
export {
  type GeneratedLedger,
  generatedAddress,
  generatedTxHash,
  generateLedger,
  type LedgerShapeName,
  type LedgerShapeOptions,
  ledgerReferenceData,
  ledgerRows,
  seededRandom,
} from "./ledger-generator.js";
export { REAL_SHAPE } from "./real-shape.js";
export {
  generatedHotWallet,
  generatedUtxoAddress,
  generateUtxoLedger,
  type UtxoLedgerShapeOptions,
} from "./utxo-ledger-generator.js";
