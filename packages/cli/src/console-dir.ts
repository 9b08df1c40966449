/**
 * Where the built console is: the `dist` folder of the installed @openkyt/console package (a
 * dependency of the CLI), found through its package.json, or null when it is not built.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The folder holding the console's index.html, or null when the package is absent or not built. */
export function consoleAssetsDir(): string | null {
  try {
    const manifest = createRequire(import.meta.url).resolve("@openkyt/console/package.json");
    const dir = join(dirname(manifest), "dist");
    return existsSync(join(dir, "index.html")) ? dir : null;
  } catch {
    return null;
  }
}
