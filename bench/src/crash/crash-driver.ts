/**
 * A crash run: loads a generated world into a store, starts worker processes, registers the
 * world's transfers while they work, SIGKILLs workers at random moments (each restarted at
 * once), waits until every transfer settled, stops the workers with SIGTERM and checks the store.
 */
import { createEngine, type Store } from "@openkyt/core";
import { createWorkerFleet } from "./crash-fleet.js";
import { type CrashWorkerSettings, DEFAULT_WORKER_SETTINGS } from "./crash-settings.js";
import { type CrashDatabase, openCrashStore } from "./crash-store.js";
import {
  type CrashFindings,
  isSettled,
  type RegisteredTransfer,
  readTransfers,
  verifyCrashRun,
} from "./crash-verify.js";
import { buildCrashWorld, loadCrashWorld } from "./crash-world.js";

/** The account every crash transfer belongs to. */
const ACCOUNT = "crash-run";

/** What to run. */
export interface CrashOptions extends CrashDatabase {
  /** Transfers to register. */
  readonly transfers: number;
  /** Worker processes at once (1 for SQLite). */
  readonly workers: number;
  /** SIGKILLs to deal. */
  readonly kills: number;
  /** A kill comes a random delay in [min, max] ms after the previous one's worker was ready again. */
  readonly killDelayMs?: { readonly min: number; readonly max: number };
  /** Give up waiting for the transfers to settle after this long (default 5 minutes). */
  readonly timeoutMs?: number;
  /** Worker settings other than the database. */
  readonly worker?: Partial<Omit<CrashWorkerSettings, "db" | "schema">>;
  /** Seed of the world and of the kill schedule. */
  readonly seed?: number;
  /** Progress lines. */
  readonly log?: (line: string) => void;
}

/** What a run did and what the checks found. */
export interface CrashReport extends CrashFindings {
  readonly workers: number;
  readonly kills: number;
  /** Exit codes of the workers stopped with SIGTERM at the end (0: graceful). */
  readonly stopCodes: ReadonlyArray<number | null>;
  /** False when the transfers had not all settled when the timeout ran out. */
  readonly settled: boolean;
  readonly elapsedMs: number;
  /** The last lines the workers wrote to stderr. */
  readonly stderrTail: ReadonlyArray<string>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until every transfer settled and no job is left, or `deadline`; true when settled.
 * Each poll reads only the transfers not settled yet, so polling stays cheap for the workers.
 */
async function waitSettled(store: Store, ids: ReadonlyArray<string>, deadline: number): Promise<boolean> {
  let pending = [...ids];
  while (Date.now() < deadline) {
    const settled = new Set((await readTransfers(store, pending)).filter(isSettled).map((t) => t.id));
    pending = pending.filter((id) => !settled.has(id));
    if (pending.length === 0 && (await store.nextJobAt()) === null) return true;
    await sleep(500);
  }
  return false;
}

/** Runs a crash test and reports. The store's data stays (the caller drops the schema or file). */
export async function runCrash(options: CrashOptions): Promise<CrashReport> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const seed = options.seed ?? 1;
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const target: CrashDatabase = { db: options.db, ...(options.schema ? { schema: options.schema } : {}) };
  const store = await openCrashStore(target, true);
  const fleet = createWorkerFleet({ ...DEFAULT_WORKER_SETTINGS, ...options.worker, ...target });
  try {
    const engine = createEngine({ store });
    const world = buildCrashWorld(options.transfers, seed);
    await loadCrashWorld(engine, world);
    log(
      `world loaded: ${world.ledger.length} ledger rows, ${world.registrations.length} transfers to register`,
    );
    await fleet.start(options.workers);
    log(`${options.workers} worker(s) ready`);
    const registered: RegisteredTransfer[] = [];
    const api = engine.forAccount(ACCOUNT);
    const registering = (async () => {
      for (let i = 0; i < world.registrations.length; i += 10) {
        const batch = world.registrations.slice(i, i + 10);
        const results = await Promise.all(batch.map((r) => api.registerTransfer(r.body)));
        for (const [k, { transfer }] of results.entries()) {
          registered.push({ id: transfer.id, expect: batch[k]?.expect ?? null });
        }
      }
      log(`registered ${registered.length} transfers`);
    })();
    const { min, max } = options.killDelayMs ?? { min: 500, max: 2_000 };
    for (let k = 1; k <= options.kills; k++) {
      await sleep(min + random() * (max - min));
      await fleet.killOneAndRestart(random);
      log(`kill ${k}/${options.kills}: a worker was SIGKILLed and restarted`);
    }
    await registering;
    const ids = registered.map((r) => r.id);
    const settled = await waitSettled(store, ids, Date.now() + (options.timeoutMs ?? 300_000));
    log(settled ? "every transfer settled" : "timed out waiting for the transfers to settle");
    const stopCodes = await fleet.stopAll();
    const findings = await verifyCrashRun(store, ACCOUNT, registered);
    return {
      ...findings,
      workers: options.workers,
      kills: options.kills,
      stopCodes,
      settled,
      elapsedMs: Date.now() - started,
      stderrTail: fleet.stderrTail(),
    };
  } finally {
    await fleet.stopAll();
    await store.close();
  }
}
