/** The async mutex that serialises the in-memory store's transactions and root operations. */

/** Runs async tasks one at a time, in call order. */
export interface Mutex {
  /** Runs `task` once every task queued before it has settled; resolves with its result. */
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** Creates a {@link Mutex}. */
export function createMutex(): Mutex {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      const result = tail.then(task);
      tail = result.then(
        () => undefined,
        () => undefined,
      );
      return result;
    },
  };
}
