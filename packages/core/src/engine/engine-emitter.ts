/**
 * The engine's event emitter: a small typed emitter with Node's semantics (listeners run
 * synchronously in the order they were added; a listener removed or added during an emit does
 * not change that emit; a throwing listener throws out of `emit`). Its own, rather than a
 * package's, so that the types a program sees are ours and hold under every module resolution.
 */
import type { EngineEventEmitter, EngineEventName, EngineEvents } from "./engine-events.js";

type Listener = (...args: unknown[]) => void;
/** A listener as held: the function called, and the one given (they differ for `once`). */
interface Entry {
  readonly call: Listener;
  readonly given: Listener;
}

/** A new emitter with no listeners. */
export function createEngineEmitter(): EngineEventEmitter {
  const listeners = new Map<EngineEventName, Entry[]>();
  const add = (event: EngineEventName, entry: Entry) => {
    listeners.set(event, [...(listeners.get(event) ?? []), entry]);
  };
  const remove = (event: EngineEventName, given?: Listener) => {
    const kept = given === undefined ? [] : (listeners.get(event) ?? []).filter((e) => e.given !== given);
    if (kept.length === 0) listeners.delete(event);
    else listeners.set(event, kept);
  };
  const emitter: EngineEventEmitter = {
    on(event, listener) {
      add(event, { call: listener as Listener, given: listener as Listener });
      return emitter;
    },
    addListener(event, listener) {
      return emitter.on(event, listener);
    },
    once(event, listener) {
      const given = listener as Listener;
      const call = (...args: unknown[]) => {
        remove(event, given);
        given(...args);
      };
      add(event, { call, given });
      return emitter;
    },
    off(event, listener) {
      remove(event, listener as Listener | undefined);
      return emitter;
    },
    removeListener(event, listener) {
      return emitter.off(event, listener);
    },
    removeAllListeners(event) {
      if (event === undefined) listeners.clear();
      else listeners.delete(event);
      return emitter;
    },
    emit<E extends EngineEventName>(event: E, ...args: Parameters<EngineEvents[E]>) {
      const current = listeners.get(event);
      if (current === undefined) return false;
      // The array is replaced on every change, never changed in place: this emit keeps its own.
      for (const entry of current) entry.call(...args);
      return true;
    },
    listenerCount(event) {
      return listeners.get(event)?.length ?? 0;
    },
  };
  return emitter;
}
