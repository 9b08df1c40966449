/**
 * @openkyt/testkit: the conformance suites every adapter must pass, and record factories for
 * tests elsewhere.
 */

// The generated ledger: its own package (the demo uses it at runtime), re-exported for tests and benchmarks.
export * from "@openkyt/ledger-generator";
export * from "./backtest-history.js";
export * from "./backtest-oracle.js";
export * from "./engine-backtest-scenarios.js";
export * from "./engine-harness.js";
export * from "./engine-model-alerts.js";
export * from "./engine-model-transfers.js";
export * from "./engine-scenarios.js";
export {
  B as BITCOIN_ADDRESSES,
  BITCOIN_LEDGER,
  BTC_USD,
  BTX as BITCOIN_TXIDS,
  runBitcoinScenarios,
} from "./engine-scenarios-bitcoin.js";
export * from "./engine-world.js";
export * from "./prometheus-text.js";
export {
  type ConformanceContext,
  expectKytError,
  runStoreConformance,
  type StoreConformanceOptions,
} from "./store-conformance.js";
export { runLedgerConformance } from "./store-conformance-ledger-only.js";
export { runUtxoLedgerConformance } from "./store-conformance-utxo-only.js";
export {
  BASE_TIME,
  checkedStates,
  makeAlert,
  makeExposure,
  makeJob,
  makeLedgerTransfer,
  makeManualCheck,
  makeRisk,
  makeRule,
  makeTransfer,
  randomAddress,
  randomId,
  randomTxHash,
} from "./store-factories.js";
export {
  COINBASE_INPUT,
  makeUtxoTransaction,
  randomTxid,
  spend,
  txidOf,
  type UtxoTransactionSpec,
} from "./utxo-factories.js";
export { runWarmReorgScenario, type WarmReorgOptions, type WarmReorgStores } from "./warm-reorg-scenario.js";
