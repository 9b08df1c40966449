/**
 * @openkyt/core: the pure core of OpenKYT. Domain enums and records, wire schemas, state
 * machines, risk models, exposure tracing, the ports every adapter implements, and the engine.
 */

export * from "./domain/addresses.js";
export * from "./domain/backtest-words.js";
export * from "./domain/backtests.js";
export * from "./domain/casework.js";
export * from "./domain/coinjoin.js";
export * from "./domain/entity-categories.js";
export * from "./domain/enums.js";
export * from "./domain/explorer-templates.js";
export * from "./domain/model-approval.js";
export * from "./domain/money.js";
export * from "./domain/networks.js";
export * from "./domain/node-url.js";
export * from "./domain/records.js";
export * from "./domain/risk-model-diff.js";
export * from "./domain/users.js";
export * from "./domain/utxo.js";
export * from "./domain/utxo-binding.js";
export * from "./engine/index.js";
export * from "./errors.js";
export * from "./exposure/index.js";
export * from "./follow/chain-follower.js";
export * from "./machines/index.js";
export * from "./ports/block-source.js";
export * from "./ports/chain-source.js";
export * from "./ports/ledger-reader.js";
export * from "./ports/reference-sources.js";
export * from "./ports/replay-guard.js";
export * from "./ports/report-renderer.js";
export * from "./ports/runtime.js";
export * from "./ports/store.js";
export * from "./ports/store-backtests.js";
export * from "./ports/store-casework.js";
export * from "./ports/store-chain-follow.js";
export * from "./ports/store-contract.js";
export * from "./ports/store-operations.js";
export * from "./ports/store-users.js";
export * from "./ports/trace-executor.js";
export * from "./ports/tracer.js";
export * from "./ports/utxo-clusters.js";
export * from "./ports/utxo-ledger.js";
export * from "./ports/webhook-transport.js";
export * from "./risk/index.js";
export * from "./schemas/index.js";
export * from "./store/index.js";
