/** Starting a PDF pool worker thread (`pdf-pool-worker`), built or from the sources. */

import type { Worker } from "node:worker_threads";
import { startModuleThread } from "@openkyt/runtime-node";
import type { PoolWorkerData } from "./pdf-pool-messages.js";

/** What a worker thread is started with. */
export interface PoolThreadOptions {
  readonly workerData: PoolWorkerData;
  /** Upper bound of the thread's young generation: fewer scavenges for a render's garbage. */
  readonly youngGenerationMb: number;
}

/** Starts one worker thread running `pdf-pool-worker`. */
export function startPoolThread(options: PoolThreadOptions): Worker {
  return startModuleThread(import.meta.url, "pdf-pool-worker", {
    workerData: options.workerData,
    resourceLimits: { maxYoungGenerationSizeMb: options.youngGenerationMb },
  });
}
