/** The version of @openkyt/cli, as `openkyt --version` prints it. */
import { readFileSync } from "node:fs";

/**
 * The `version` of the package's package.json, read from beside `src/` or `dist/` (both one
 * level under the package). Throws when it is missing or not a string.
 */
export function cliVersion(): string {
  const file = new URL("../package.json", import.meta.url);
  const { version } = JSON.parse(readFileSync(file, "utf8")) as { version?: unknown };
  if (typeof version !== "string" || version === "") {
    throw new Error(`${file.pathname} has no "version"`);
  }
  return version;
}
