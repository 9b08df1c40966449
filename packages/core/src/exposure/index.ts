/** Exposure tracing: the in-memory ledger index, entity resolution, transfer and address tracing, sanctions. */
export { compareLedgerTransfers, LedgerIndex } from "./ledger-index.js";
