// Runs before `pnpm pack` / `pnpm publish` of a package (its `prepack` script): copies the
// repository's LICENSE into the package folder, so that every tarball carries the licence text
// Apache-2.0 asks to pass on. The copies are not kept in git (.gitignore).
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
copyFileSync(join(root, "LICENSE"), join(process.cwd(), "LICENSE"));
