/**
 * The undo log of the in-memory store. Every write goes through `setEntry` / `deleteEntry`
 * with a journal; inside a transaction the journal remembers how to undo the write, outside
 * one it remembers nothing.
 */

/** Where a write records how to undo itself. */
export interface Journal {
  /** Remembers `undo`, to be run (in reverse order with the others) if the transaction fails. */
  record(undo: () => void): void;
}

/** The journal of root-level writes: they are final, so nothing is remembered. */
export const finalJournal: Journal = Object.freeze({ record: () => {} });

/** A journal that keeps undo steps, for one transaction. */
export interface UndoLog extends Journal {
  /** Runs every recorded step, newest first, and forgets them. */
  rollback(): void;
}

/** Creates an empty {@link UndoLog}. */
export function createUndoLog(): UndoLog {
  const steps: Array<() => void> = [];
  return {
    record: (undo) => {
      steps.push(undo);
    },
    rollback: () => {
      for (let i = steps.length - 1; i >= 0; i--) steps[i]!();
      steps.length = 0;
    },
  };
}

/** Sets `map[key] = value`, recording how to restore the previous entry (or its absence). */
export function setEntry<K, V>(journal: Journal, map: Map<K, V>, key: K, value: V): void {
  const had = map.has(key);
  const previous = map.get(key);
  map.set(key, value);
  journal.record(() => {
    if (had) map.set(key, previous as V);
    else map.delete(key);
  });
}

/** Deletes `map[key]`, recording how to put it back. */
export function deleteEntry<K, V>(journal: Journal, map: Map<K, V>, key: K): void {
  if (!map.has(key)) return;
  const previous = map.get(key) as V;
  map.delete(key);
  journal.record(() => {
    map.set(key, previous);
  });
}
