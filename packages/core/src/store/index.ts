/** The in-memory store: the reference implementation of the Store port. */
export {
  createMemoryReplayGuard,
  MEMORY_REPLAY_DEFAULTS,
  type MemoryReplayGuard,
  type MemoryReplayOptions,
} from "./memory-replay.js";
export { createMemoryStore, MEMORY_STORE_CAPABILITIES } from "./memory-store.js";
