/** Clock, ids and logging: injected so that tests are deterministic. */

/** The time source. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

/** Id source. */
export interface IdGenerator {
  /** A new unique id (a UUID by default). */
  next(): string;
}

/** Structured fields of a log line. Never put secrets here. */
export type LogFields = Readonly<Record<string, unknown>>;

/** A minimal structured logger (pino satisfies it). */
export interface Logger {
  debug(fields: LogFields, message: string): void;
  info(fields: LogFields, message: string): void;
  warn(fields: LogFields, message: string): void;
  error(fields: LogFields, message: string): void;
}

/** A wait that can be ended early. */
export interface Sleep {
  /** Resolves when the time is up or `wake()` was called, whichever comes first. */
  readonly done: Promise<void>;
  /** Ends the wait now (idempotent). */
  wake(): void;
}

/**
 * Real elapsed time, for waits and deadlines (polling, `?wait=`). Apart from {@link Clock}, the
 * domain's time, so that a test's manual clock stays where it is put while waits still end.
 */
export interface Timer {
  /** Milliseconds on a monotonic scale; only differences mean anything. */
  elapsed(): number;
  /** Waits `ms` milliseconds (a pending wait never keeps a stopped engine alive past it). */
  sleep(ms: number): Sleep;
  /** Runs `fn` on the next turn of the event loop, after the work already queued (batching). */
  soon(fn: () => void): void;
}

/** The system timer: `performance.now()` and `setTimeout`. */
export const systemTimer: Timer = Object.freeze({
  elapsed: () => performance.now(),
  sleep(ms: number): Sleep {
    let wake: () => void = () => {};
    let handle: ReturnType<typeof setTimeout> | undefined;
    const done = new Promise<void>((resolve) => {
      wake = resolve;
      handle = setTimeout(resolve, ms);
    }).then(() => clearTimeout(handle));
    return { done, wake: () => wake() };
  },
  soon: (fn: () => void) => {
    setImmediate(fn);
  },
});

/** The system clock. */
export const systemClock: Clock = Object.freeze({ now: () => Date.now() });

/** UUID v4 ids from node:crypto's global `crypto`. */
export const uuidGenerator: IdGenerator = Object.freeze({ next: () => globalThis.crypto.randomUUID() });

/** A logger that drops everything. */
export const silentLogger: Logger = Object.freeze({
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
});

/** A clock tests move by hand. */
export interface ManualClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

/** Creates a {@link ManualClock} starting at `start`. */
export function manualClock(start: number): ManualClock {
  let t = start;
  return {
    now: () => t,
    set: (ms) => {
      t = ms;
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

/** Ids `prefix-1`, `prefix-2`, ... as UUID-shaped strings, for deterministic tests. */
export function sequentialIds(seed = 0): IdGenerator {
  let n = seed;
  return {
    next: () => {
      n += 1;
      const hex = n.toString(16).padStart(12, "0");
      return `00000000-0000-4000-8000-${hex}`;
    },
  };
}
