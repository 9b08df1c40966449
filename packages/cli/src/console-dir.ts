/**
 * Where the built console is: $OPENKYT_CONSOLE_DIR when set (a folder with index.html: another
 * build, or a customised one), else the `dist` folder of the installed @openkyt/console package
 * (a dependency of the CLI), found through its package.json; null when it is not built.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { UsageError } from "./cli-command.js";

/** The folder holding the console's index.html, or null when the package is absent or not built. */
export function consoleAssetsDir(env: Readonly<Record<string, string | undefined>> = {}): string | null {
  const given = env.OPENKYT_CONSOLE_DIR;
  if (given) {
    const dir = resolve(given);
    if (!existsSync(join(dir, "index.html"))) {
      throw new UsageError(`OPENKYT_CONSOLE_DIR=${given} has no index.html (build the console into it)`);
    }
    return dir;
  }
  try {
    const manifest = createRequire(import.meta.url).resolve("@openkyt/console/package.json");
    const dir = join(dirname(manifest), "dist");
    return existsSync(join(dir, "index.html")) ? dir : null;
  } catch {
    return null;
  }
}
