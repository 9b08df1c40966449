/**
 * Readiness of a process for traffic, as `/readyz` answers it: not ready until each start-up step
 * it waits for is done (the store opened and migrated, warm sources loaded, ...), ready while a
 * cheap read of the store answers, and not ready again from the moment it starts draining
 * (SIGTERM), so that a load balancer stops sending requests before the server stops accepting.
 * Liveness (`/healthz`) is separate: it says only that the process answers.
 */

/** What `/readyz` answers. */
export type ReadinessAnswer =
  | { readonly ready: true; readonly status: "ready" }
  | { readonly ready: false; readonly status: "starting"; readonly waiting: ReadonlyArray<string> }
  | { readonly ready: false; readonly status: "draining" }
  | { readonly ready: false; readonly status: "store_unreachable"; readonly detail: string }
  | { readonly ready: false; readonly status: "lagging"; readonly detail: string };

/** Options of {@link createReadiness}. */
export interface ReadinessOptions {
  /** The start-up steps to wait for, by name (for example `store`, `warm_sources`). */
  readonly steps: ReadonlyArray<string>;
  /** A cheap read of the store, once the steps are done; default none. */
  readonly probe?: () => Promise<unknown>;
  /** How long the probe may take before it counts as failed; default 2,000 ms. */
  readonly probeTimeoutMs?: number;
  /** How long a probe's answer is reused, ms; default 1,000 (probes of every load balancer cost one read). */
  readonly probeCacheMs?: number;
  /** Milliseconds since an arbitrary origin; default performance.now(). */
  readonly monotonicNow?: () => number;
  /**
   * Why the process is too far behind to be relied on (a chain follower past its allowed lag),
   * or null when it is not; asked after the store probe. Default: never behind.
   */
  readonly lagging?: () => string | null;
  /** Hears each change of readiness (for the `openkyt_ready` gauge). */
  readonly onChange?: (ready: boolean) => void;
}

/** A process's readiness. */
export interface Readiness {
  /** Marks a start-up step done. Unknown steps are a programming error (thrown). */
  done(step: string): void;
  /** Not ready from now on (shutting down). Idempotent. */
  drain(): void;
  /** The answer now (probing the store when every step is done). */
  check(): Promise<ReadinessAnswer>;
}

/** Creates a readiness that waits for `options.steps`. */
export function createReadiness(options: ReadinessOptions): Readiness {
  const waiting = new Set(options.steps);
  const timeoutMs = options.probeTimeoutMs ?? 2_000;
  const cacheMs = options.probeCacheMs ?? 1_000;
  const now = options.monotonicNow ?? (() => performance.now());
  let draining = false;
  let last: { at: number; answer: Promise<string | null> } | null = null;
  let shown: boolean | null = null;

  function tell(ready: boolean): void {
    if (shown !== ready) {
      shown = ready;
      options.onChange?.(ready);
    }
  }

  /** null when the store answered in time, else why not. */
  async function probe(): Promise<string | null> {
    if (!options.probe) return null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`the store did not answer within ${timeoutMs} ms`), timeoutMs);
    });
    const answered = options.probe().then(
      () => null,
      (error: unknown) => `the store failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    try {
      return await Promise.race([answered, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  tell(false);
  return {
    done(step) {
      if (!options.steps.includes(step)) throw new RangeError(`readiness: unknown step ${step}`);
      waiting.delete(step);
    },
    drain() {
      draining = true;
      tell(false);
    },
    async check() {
      if (draining) return { ready: false, status: "draining" };
      if (waiting.size > 0) return { ready: false, status: "starting", waiting: [...waiting] };
      const at = now();
      if (last === null || at - last.at >= cacheMs) last = { at, answer: probe() };
      const problem = await last.answer;
      if (draining) return { ready: false, status: "draining" };
      if (problem !== null) {
        tell(false);
        return { ready: false, status: "store_unreachable", detail: problem };
      }
      const behind = options.lagging?.() ?? null;
      if (behind !== null) {
        tell(false);
        return { ready: false, status: "lagging", detail: behind };
      }
      tell(true);
      return { ready: true, status: "ready" };
    },
  };
}
