/** The in-memory store: the reference implementation of the Store port. */
export { createMemoryStore, MEMORY_STORE_CAPABILITIES } from "./memory-store.js";
