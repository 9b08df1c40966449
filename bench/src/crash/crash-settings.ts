/** Settings a crash worker runs with, passed on its command line. */
import type { CrashDatabase } from "./crash-store.js";

/** What a worker process needs to know. */
export interface CrashWorkerSettings extends CrashDatabase {
  /** Lease of a claimed job: a killed worker's jobs are taken over after it. */
  readonly leaseMs: number;
  /** Jobs run at once per worker. */
  readonly concurrency: number;
  /** How long an unknown hash is looked for before not_found. */
  readonly bindingWindowMs: number;
  /** Delay between lookups of an unknown hash. */
  readonly bindingPollMs: number;
}

/** Default worker settings: short leases and a short binding window, so a run ends quickly. */
export const DEFAULT_WORKER_SETTINGS = Object.freeze({
  leaseMs: 3_000,
  concurrency: 8,
  bindingWindowMs: 3_000,
  bindingPollMs: 500,
});

/** The settings as command-line arguments. */
export function settingsToArgs(settings: CrashWorkerSettings): string[] {
  return [
    ...["--db", settings.db],
    ...(settings.schema === undefined ? [] : ["--schema", settings.schema]),
    ...["--lease-ms", String(settings.leaseMs), "--concurrency", String(settings.concurrency)],
    ...["--window-ms", String(settings.bindingWindowMs), "--poll-ms", String(settings.bindingPollMs)],
  ];
}

/** Settings from command-line arguments (as {@link settingsToArgs} writes them). */
export function settingsFromArgs(argv: ReadonlyArray<string>): CrashWorkerSettings {
  const value = (flag: string): string | undefined => {
    const at = argv.indexOf(flag);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const db = value("--db");
  if (db === undefined) throw new Error("crash worker: --db is required");
  const schema = value("--schema");
  const number = (flag: string, fallback: number) => Number(value(flag) ?? fallback);
  return {
    db,
    ...(schema === undefined ? {} : { schema }),
    leaseMs: number("--lease-ms", DEFAULT_WORKER_SETTINGS.leaseMs),
    concurrency: number("--concurrency", DEFAULT_WORKER_SETTINGS.concurrency),
    bindingWindowMs: number("--window-ms", DEFAULT_WORKER_SETTINGS.bindingWindowMs),
    bindingPollMs: number("--poll-ms", DEFAULT_WORKER_SETTINGS.bindingPollMs),
  };
}
