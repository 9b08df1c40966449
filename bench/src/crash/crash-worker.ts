/**
 * A crash-run worker: a separate Node process that opens the store, runs the engine's job
 * runner (the ledger-backed default chain source) until it is killed, and on SIGTERM or SIGINT
 * stops gracefully: it finishes the jobs in hand, claims no new ones, closes the store and
 * exits 0. Prints "ready" once it runs and "stopped" when it stopped.
 *
 *   node --conditions=source --import tsx crash-worker.ts --db <postgres-url|sqlite-file> [--schema s]
 */
import { createEngine } from "@openkyt/core";
import { settingsFromArgs } from "./crash-settings.js";
import { openCrashStore } from "./crash-store.js";

const settings = settingsFromArgs(process.argv.slice(2));
const store = await openCrashStore(settings, false);
const engine = createEngine({
  store,
  jobs: {
    leaseMs: settings.leaseMs,
    concurrency: settings.concurrency,
    pollIntervalMs: 100,
    workerId: `crash-worker-${process.pid}`,
  },
  binding: { windowMs: settings.bindingWindowMs, pollMs: settings.bindingPollMs },
});

let stopping: Promise<void> | null = null;
/** Finishes the jobs in hand, claims nothing more, closes the store and exits. */
function shutdown(): Promise<void> {
  stopping ??= (async () => {
    await engine.stop();
    await store.close();
    process.stdout.write("stopped\n");
    process.exit(0);
  })();
  return stopping;
}
process.once("SIGTERM", () => void shutdown());
process.once("SIGINT", () => void shutdown());

// Failures go to stderr, where the driver keeps the last lines for its report.
engine.events.on("job.failed", (failure) => {
  process.stderr.write(
    `job ${failure.kind} ${failure.subjectId} failed (final: ${failure.final}): ${failure.reason}\n`,
  );
});
engine.start();
process.stdout.write("ready\n");
