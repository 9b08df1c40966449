/**
 * Every publishable package is ready to publish (docs/using-the-packages.md): the fields npm
 * and its users read, one repository and one engine range for all, and a published `exports`
 * that is the repository's without the `source` condition (tests and the examples run the
 * TypeScript sources through it; the tarballs ship only `dist`). scripts/check-packages.sh
 * checks the packed tarballs themselves.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
type Manifest = Record<string, unknown> & {
  name: string;
  private?: boolean;
  exports?: unknown;
  files?: string[];
  publishConfig?: Record<string, unknown>;
  scripts?: Record<string, string>;
};
const read = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Manifest;
const root = read(join(ROOT, "package.json"));
const PACKAGES = readdirSync(join(ROOT, "packages"))
  .map((dir) => ({ dir, manifest: read(join(ROOT, "packages", dir, "package.json")) }))
  .filter((p) => p.manifest.private !== true);

/** `exports` without its `source` conditions. */
function withoutSource(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "source")
      .map(([key, inner]) => [key, withoutSource(inner)]),
  );
}

/** Every path an exports value points at. */
function targets(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap(targets);
}

describe("the publishable packages", () => {
  it("are all there", () => {
    expect(PACKAGES.map((p) => p.manifest.name)).toContain("@openkyt/core");
    expect(PACKAGES.length).toBeGreaterThanOrEqual(14);
  });

  for (const { dir, manifest } of PACKAGES) {
    it(`${manifest.name}: publishing fields, and a published exports without source`, () => {
      expect(manifest.license).toBe("Apache-2.0");
      expect(manifest.engines).toEqual(root.engines);
      expect(manifest.repository).toEqual({ ...(root.repository as object), directory: `packages/${dir}` });
      expect(manifest.files?.length).toBeGreaterThan(0);
      expect(manifest.publishConfig).toMatchObject({ access: "public", provenance: true });
      expect(manifest.scripts?.prepack).toBe("node ../../scripts/copy-license.mjs");
      if (manifest.exports === undefined) return;
      expect(manifest.publishConfig?.exports).toEqual(withoutSource(manifest.exports));
      const shipped = targets(manifest.publishConfig?.exports);
      for (const target of shipped) {
        const top = target.replace(/^\.\//, "").split("/")[0];
        expect(target === "./package.json" || manifest.files?.includes(top ?? ""), target).toBe(true);
      }
      if (shipped.some((t) => t.endsWith(".js") && t.includes("dist/"))) {
        expect(manifest.types, "types").toMatch(/^\.\/dist\/.*\.d\.ts$/);
      }
    });
  }
});
