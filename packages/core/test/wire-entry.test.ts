/**
 * `@openkyt/core/wire` is the entry the analyst console bundles for a browser: every module it
 * reaches (types included) must import only other modules of core, never zod, a `node:` builtin
 * or any other package.
 */
import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as wire from "../src/wire.js";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../src");
const SPECIFIER = /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/g;

/** Every module reachable from `entry` by its imports and re-exports, with the bare specifiers met. */
function reach(entry: string): { modules: string[]; bare: string[] } {
  const modules = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string): void => {
    if (modules.has(file)) return;
    modules.add(file);
    for (const [, spec] of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      if (spec === undefined) continue;
      if (spec.startsWith(".")) visit(resolve(dirname(file), spec.replace(/\.js$/, ".ts")));
      else bare.add(spec);
    }
  };
  visit(entry);
  return { modules: [...modules].map((m) => relative(SRC, m)).sort(), bare: [...bare].sort() };
}

describe("@openkyt/core/wire", () => {
  it("reaches no package and no node: builtin", () => {
    const { modules, bare } = reach(resolve(SRC, "wire.ts"));
    expect(bare).toEqual([]);
    expect(modules).toContain("errors.ts");
    expect(modules.some((m) => m.startsWith("engine/") || m.startsWith("schemas/index"))).toBe(false);
  });

  it("offers the tables the console reads", () => {
    expect(wire.ALERT_STATUS_MACHINE.transitions.done).toEqual(["open"]);
    expect(wire.WEBHOOK_EVENT_TYPES).toContain("alert.created");
    expect(wire.RULE_RISK_LEVELS).toEqual(["low", "medium", "high", "severe"]);
  });
});
