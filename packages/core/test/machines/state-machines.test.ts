import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ALERT_STATUSES, CHECK_STATES, MANUAL_CHECK_STATUSES, TX_STATUSES } from "../../src/domain/enums.js";
import { isKytError } from "../../src/errors.js";
import {
  ALERT_STATUS_MACHINE,
  allowedNext,
  CHECK_STATE_MACHINE,
  MANUAL_CHECK_MACHINE,
  type StateMachine,
  TX_STATUS_MACHINE,
  transition,
} from "../../src/machines/index.js";

/**
 * The allowed moves written independently of the tables, as the spec and architecture say
 * them; the tables must agree with these exactly.
 */
const EXPECTED: Record<string, ReadonlyArray<readonly [string, string]>> = {
  tx_status: [
    ["none", "binding"],
    ["binding", "bound"],
    ["binding", "not_found"],
    ["binding", "error"],
    ["not_found", "binding"],
    ["error", "binding"],
  ],
  check_state: [
    ["none", "queued"],
    ["queued", "checking"],
    ["queued", "none"],
    ["checking", "checked"],
    ["checking", "error"],
    ["checking", "queued"],
    ["checked", "queued"],
    ["error", "queued"],
  ],
  check_status: [
    ["checking", "checked"],
    ["checking", "error"],
  ],
  alert_status: [
    ["open", "in_progress"],
    ["in_progress", "awaiting_response"],
    ["awaiting_response", "in_progress"],
    ["in_progress", "done"],
    ["done", "open"],
  ],
};

const MACHINES: ReadonlyArray<[StateMachine<string>, ReadonlyArray<string>]> = [
  [TX_STATUS_MACHINE, TX_STATUSES],
  [CHECK_STATE_MACHINE, CHECK_STATES],
  [MANUAL_CHECK_MACHINE, MANUAL_CHECK_STATUSES],
  [ALERT_STATUS_MACHINE, ALERT_STATUSES],
];

for (const [machine, states] of MACHINES) {
  const allowed = new Set((EXPECTED[machine.name] ?? []).map(([a, b]) => `${a}>${b}`));

  describe(`${machine.name} machine`, () => {
    it("has a row for every state of its enum and nothing else", () => {
      expect(Object.keys(machine.transitions).sort()).toEqual([...states].sort());
    });

    it("allows exactly the expected transitions and refuses every other with ILLEGAL_TRANSITION", () => {
      for (const from of states) {
        for (const to of states) {
          if (allowed.has(`${from}>${to}`)) {
            expect(transition(machine, from, to)).toBe(to);
          } else {
            const error = (() => {
              try {
                transition(machine, from, to);
                return null;
              } catch (e) {
                return e;
              }
            })();
            expect(isKytError(error, "ILLEGAL_TRANSITION"), `${from} -> ${to}`).toBe(true);
            if (isKytError(error)) expect(error.details.allowed).toEqual(allowedNext(machine, from));
          }
        }
      }
    });

    it("model-based: any sequence of attempted moves leaves the real state where the model says", () => {
      type Model = { state: string; moves: number };
      type Real = { state: string };
      class Attempt implements fc.Command<Model, Real> {
        constructor(readonly to: string) {}
        check() {
          return true;
        }
        run(model: Model, real: Real) {
          const legal = allowed.has(`${model.state}>${this.to}`);
          let refused = false;
          try {
            real.state = transition(machine, real.state, this.to);
          } catch (error) {
            refused = isKytError(error, "ILLEGAL_TRANSITION");
          }
          expect(refused).toBe(!legal);
          if (legal) {
            model.state = this.to;
            model.moves += 1;
          }
          expect(real.state).toBe(model.state);
        }
        toString() {
          return `-> ${this.to}`;
        }
      }
      const commands = fc.commands(
        states.map((s) => fc.constant(new Attempt(s))),
        { maxCommands: 40 },
      );
      fc.assert(
        fc.property(fc.constantFrom(...states), commands, (start, cmds) => {
          fc.modelRun(() => ({ model: { state: start, moves: 0 }, real: { state: start } }), cmds);
        }),
        { numRuns: 300 },
      );
    });
  });
}
