/**
 * State machines as tables. A machine is a frozen map from each state to the states it may
 * move to; `transition` is pure and refuses anything the table does not list with a typed
 * ILLEGAL_TRANSITION error that carries the allowed next states.
 */
import { KytError } from "../errors.js";

/** A state machine over the states `S`. */
export interface StateMachine<S extends string> {
  readonly name: string;
  readonly transitions: Readonly<Record<S, ReadonlyArray<S>>>;
}

/** Defines a machine; the table is frozen. Free of side effects, so a bundler drops a machine nobody uses. */
/* @__NO_SIDE_EFFECTS__ */
export function defineMachine<S extends string>(
  name: string,
  transitions: Record<S, ReadonlyArray<S>>,
): StateMachine<S> {
  const frozen = Object.fromEntries(
    Object.entries(transitions).map(([from, to]) => [from, Object.freeze([...(to as S[])])]),
  ) as Record<S, ReadonlyArray<S>>;
  return Object.freeze({ name, transitions: Object.freeze(frozen) });
}

/** The states `from` may move to. */
export function allowedNext<S extends string>(machine: StateMachine<S>, from: S): ReadonlyArray<S> {
  return machine.transitions[from] ?? [];
}

/** True when the table lists `from -> to`. */
export function canTransition<S extends string>(machine: StateMachine<S>, from: S, to: S): boolean {
  return allowedNext(machine, from).includes(to);
}

/** Returns `to` when `from -> to` is allowed; otherwise throws ILLEGAL_TRANSITION. */
export function transition<S extends string>(machine: StateMachine<S>, from: S, to: S): S {
  if (canTransition(machine, from, to)) return to;
  const allowed = allowedNext(machine, from);
  throw new KytError(
    "ILLEGAL_TRANSITION",
    `${machine.name}: cannot go from ${from} to ${to} (allowed: ${allowed.length ? allowed.join(", ") : "none"})`,
    { details: { machine: machine.name, from, to, allowed } },
  );
}

/**
 * The shortest way from `from` to `to` through the machine's table (the states after `from`,
 * ending with `to`): empty when they are the same, null when the table has no way.
 */
export function pathBetween<S extends string>(
  machine: StateMachine<S>,
  from: S,
  to: S,
): ReadonlyArray<S> | null {
  if (from === to) return [];
  const previous = new Map<S, S>([[from, from]]);
  const queue: S[] = [from];
  while (queue.length > 0) {
    const at = queue.shift() as S;
    for (const next of allowedNext(machine, at)) {
      if (previous.has(next)) continue;
      previous.set(next, at);
      if (next === to) {
        const path: S[] = [to];
        for (let s = at; s !== from; s = previous.get(s) as S) path.unshift(s);
        return path;
      }
      queue.push(next);
    }
  }
  return null;
}
