/**
 * Core is pure: no module of `packages/core/src` imports a Node builtin (`node:net`,
 * `node:crypto`, or the same without the `node:` prefix), so the engine runs wherever
 * JavaScript does and every side effect comes in through a port (docs/architecture.md).
 * `wire-entry.test.ts` holds the browser entry to a stricter rule: no package at all.
 */
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = resolve(fileURLToPath(new URL(".", import.meta.url)), "../src");
/** Static imports and re-exports, dynamic imports and requires: every way a module names another. */
const SPECIFIERS = [
  /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+["']([^"']+)["']/g,
  /(?:^|\n)\s*import\s+["']([^"']+)["']/g,
  /\bimport\(\s*["']([^"']+)["']\s*\)/g,
  /\brequire\(\s*["']([^"']+)["']\s*\)/g,
];
const BUILTINS = new Set(builtinModules.flatMap((name) => [name, name.split("/")[0] ?? name]));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

/** The Node builtins `text` names, as written. */
function builtinImports(text: string): string[] {
  const found: string[] = [];
  for (const pattern of SPECIFIERS) {
    for (const [, spec] of text.matchAll(pattern)) {
      if (spec !== undefined && (spec.startsWith("node:") || BUILTINS.has(spec))) found.push(spec);
    }
  }
  return found;
}

describe("@openkyt/core", () => {
  it("no source module imports a Node builtin", () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.flatMap((file) =>
      builtinImports(readFileSync(file, "utf8")).map((spec) => `${relative(SRC, file)}: ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it("the check sees every way of naming a builtin", () => {
    expect(
      builtinImports(
        [
          'import { BlockList, isIP } from "node:net";',
          'import type { X } from "crypto";',
          'export { a } from "node:fs/promises";',
          'import "node:process";',
          'const m = await import("node:os");',
          'const r = require("path");',
          'import { z } from "zod";',
          'import { x } from "./net.js";',
        ].join("\n"),
      ),
    ).toEqual(["node:net", "crypto", "node:fs/promises", "node:process", "node:os", "path"]);
  });
});
