/** Starting the ledger parse thread (`ledger-thread-worker`), built or from the sources. */

import type { Worker } from "node:worker_threads";
import { startModuleThread } from "@openkyt/runtime-node";
import type { LedgerThreadData } from "./ledger-thread-messages.js";

/** Starts a parse thread reading the ledger file of `data`. */
export function startLedgerThread(data: LedgerThreadData): Worker {
  return startModuleThread(import.meta.url, "ledger-thread-worker", { workerData: data });
}
