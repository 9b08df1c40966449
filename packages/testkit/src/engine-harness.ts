/** An engine over a given store, a manual clock and the hand-made world, for scenarios. */

import {
  type ChainSource,
  createEngine,
  type Engine,
  type EngineConfig,
  type ManualClock,
  manualClock,
  type Store,
} from "@openkyt/core";
import { nodeWebhookTransport } from "@openkyt/runtime-node";
import { afterEach, beforeEach } from "vitest";
import { HOUR, loadWorld, T0 } from "./engine-world.js";

/** How a suite gets a fresh store. */
export interface StoreFactory {
  /** Suite name, e.g. "memory" or "sqlite". */
  readonly name: string;
  readonly createStore: () => Promise<Store>;
  readonly destroyStore?: (store: Store) => Promise<void>;
}

/** An engine with its clock and two accounts. */
export interface Harness {
  readonly engine: Engine;
  readonly store: Store;
  readonly clock: ManualClock;
  /** Account "acme". */
  readonly acme: ReturnType<Engine["forAccount"]>;
  /** Account "other", used to try to reach acme's data. */
  readonly other: ReturnType<Engine["forAccount"]>;
  close(): Promise<void>;
}

/** The time every harness starts at: a day after the world began. */
export const NOW = T0 + 24 * HOUR;

/** The job settings of a harness, unless its overrides give `jobs` (which then replace them). */
export const HARNESS_JOBS = Object.freeze({ backoffBaseMs: 1_000, backoffMaxMs: 10_000, maxAttempts: 3 });

/** Builds a harness: fresh store, world loaded, clock at {@link NOW}. */
export async function createHarness(
  factory: StoreFactory,
  overrides: Partial<EngineConfig> = {},
): Promise<Harness> {
  const store = await factory.createStore();
  const clock = manualClock(NOW);
  const engine = createEngine({
    store,
    clock,
    binding: { windowMs: HOUR, pollMs: 60_000 },
    jobs: HARNESS_JOBS,
    ...overrides,
    webhooks: { transport: nodeWebhookTransport, ...overrides.webhooks },
  });
  await loadWorld(engine);
  return {
    engine,
    store,
    clock,
    acme: engine.forAccount("acme"),
    other: engine.forAccount("other"),
    async close() {
      await engine.stop();
      if (factory.destroyStore) await factory.destroyStore(store);
      else await store.close();
    },
  };
}

/** The harness of the test that is running, as {@link useHarness} gives it. */
export interface TestHarness extends Omit<Harness, "close"> {
  /** Closes the running test's harness and opens one with `overrides` instead, closed after the test too. */
  reopen(overrides: Partial<EngineConfig>): Promise<void>;
}

/**
 * A fresh harness for every test of the enclosing `describe`: {@link createHarness} with
 * `overrides` before each test, closed after it. Each member reads the running test's harness,
 * so the value can be kept in the suite's scope and passed on (to {@link runFor}) as it is.
 * Call it in a `describe` body; hooks registered before it run their `afterEach` after it.
 */
export function useHarness(factory: StoreFactory, overrides: Partial<EngineConfig> = {}): TestHarness {
  let current: Harness | null = null;
  const running = (): Harness => {
    if (current === null) throw new Error("useHarness: there is a harness only while a test runs");
    return current;
  };
  const close = async (): Promise<void> => {
    const h = current;
    current = null;
    await h?.close();
  };
  beforeEach(async () => {
    current = await createHarness(factory, overrides);
  });
  afterEach(close);
  return {
    get engine() {
      return running().engine;
    },
    get store() {
      return running().store;
    },
    get clock() {
      return running().clock;
    },
    get acme() {
      return running().acme;
    },
    get other() {
      return running().other;
    },
    async reopen(changed) {
      await close();
      current = await createHarness(factory, changed);
    },
  };
}

/** A chain source that always fails, counting its calls. */
export function failingChainSource(message = "node unreachable"): ChainSource & { calls: number } {
  const source = {
    calls: 0,
    async lookup() {
      source.calls += 1;
      throw new Error(message);
    },
  };
  return source;
}

/** Advances the clock step by step, draining the engine after each step. */
export async function runFor(
  h: Pick<Harness, "engine" | "clock">,
  totalMs: number,
  stepMs: number,
): Promise<void> {
  await h.engine.drain();
  for (let t = 0; t < totalMs; t += stepMs) {
    h.clock.advance(stepMs);
    await h.engine.drain();
  }
}
