/**
 * Where the documentation's blocks run: a directory under test-output/ that looks like the
 * repository root (a link to each of its top-level entries but outputs and database files), so
 * commands written for the root work, while the files they write (openkyt-demo.db, kyt.db) stay
 * in the sandbox. `examples/` is made of folders of links, one per example, so an example's
 * README also runs from its own folder and what it writes there stays in the sandbox too. Programs are written to its `.snippets/` folder, where every workspace package
 * resolves by name.
 *
 * What the sandbox changes for every block, and why:
 * - `npm run setup` is not repeated (`npm test` runs it before the doc test): a line
 *   `npm run NAME [-- ARGS]` runs package.json's script NAME without a leading
 *   `npm run setup &&`, and `npm run setup` alone does nothing.
 * - curl runs with `--fail-with-body` (a .curlrc in CURL_HOME), so an HTTP error fails the block.
 * - The CLI runs from the TypeScript sources (OPENKYT_FROM_SOURCE=1), as every other test does,
 *   and the test runner's own variables (VITEST*, NODE_ENV=test) are not passed on.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";

/** A sandbox and the environment blocks start with. */
export interface Sandbox {
  /** The directory blocks run in. */
  readonly dir: string;
  /** Where programs are written. */
  readonly snippets: string;
  /** The environment of the first block of a file. */
  readonly env: Readonly<Record<string, string>>;
  /** Removes the sandbox (its links first, never what they point at). */
  remove(): void;
}

/**
 * Entries of the repository root that are not linked into the sandbox: git's, outputs, and
 * databases (a block writing `openkyt.db` must create its own, not write through a link).
 */
const NOT_LINKED = new Set([".git", "test-output", ".turbo", "coverage", "examples"]);
const DATABASE_FILE = /\.db(-wal|-shm|-journal)?$/;

/** The environment of a user's shell: this process's, without the test runner's variables. */
function userEnvironment(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || name.startsWith("VITEST") || name === "TEST") continue;
    if (name === "NODE_ENV" && value === "test") continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

/** Creates a sandbox under `root`/test-output/doc-test/. */
export function createSandbox(root: string): Sandbox {
  const base = join(root, "test-output", "doc-test");
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, "run-"));
  const links: string[] = [];
  const link = (target: string, path: string) => {
    symlinkSync(relative(join(path, ".."), target), path);
    links.push(path);
  };
  for (const entry of readdirSync(root)) {
    if (!NOT_LINKED.has(entry) && !DATABASE_FILE.test(entry)) link(join(root, entry), join(dir, entry));
  }
  for (const example of readdirSync(join(root, "examples"))) {
    const from = join(root, "examples", example);
    mkdirSync(join(dir, "examples", example), { recursive: true });
    for (const entry of readdirSync(from)) {
      if (!DATABASE_FILE.test(entry)) link(join(from, entry), join(dir, "examples", example, entry));
    }
  }
  const snippets = join(dir, ".snippets");
  mkdirSync(join(snippets, "node_modules", "@openkyt"), { recursive: true });
  writeFileSync(join(snippets, "package.json"), `${JSON.stringify({ private: true, type: "module" })}\n`);
  for (const folder of readdirSync(join(root, "packages"))) {
    const manifest = join(root, "packages", folder, "package.json");
    let name: unknown;
    try {
      name = JSON.parse(readFileSync(manifest, "utf8")).name;
    } catch {
      continue;
    }
    if (typeof name === "string" && name.startsWith("@openkyt/")) {
      link(join(root, "packages", folder), join(snippets, "node_modules", name));
    }
  }
  const curlHome = join(dir, ".curl");
  mkdirSync(curlHome);
  writeFileSync(join(curlHome, ".curlrc"), "fail-with-body\n");
  return {
    dir,
    snippets,
    env: Object.freeze(userEnvironment({ CURL_HOME: curlHome, OPENKYT_FROM_SOURCE: "1", NO_COLOR: "1" })),
    remove() {
      for (const path of links.reverse()) unlinkSync(path);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The npm scripts of the repository root's package.json. */
export function npmScripts(root: string): Readonly<Record<string, string>> {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    scripts?: Record<string, string>;
  };
  return manifest.scripts ?? {};
}

const NPM_RUN = /^(\s*)npm run ([\w:.-]+)(.*)$/;

/** Rewrites `npm run NAME [-- ARGS]` lines so that the set-up is not run again (see above). */
export function withoutSetup(code: string, scripts: Readonly<Record<string, string>>): string {
  return code
    .split("\n")
    .map((line) => {
      const match = NPM_RUN.exec(line);
      if (!match) return line;
      const [, indent = "", name = "", rest = ""] = match;
      if (name === "setup") return `${indent}: # npm run setup: done by npm test before the doc test`;
      const script = scripts[name];
      if (script === undefined) return line;
      const body = script.replace(/^npm run setup\s*&&\s*/, "");
      return `${indent}${body}${rest.replace(/^\s+--(?=\s|$)/, "")}`;
    })
    .join("\n");
}

/**
 * Points the file's blocks at the server's port: the address as written (`127.0.0.1:8080`, or
 * the port a `server PORT` marker names) and `PORT=`; for `openkyt serve` (8080) its `--port`.
 */
export function withPort(code: string, port: number, written = 8080): string {
  const moved = code
    .replace(new RegExp(`\\b(127\\.0\\.0\\.1|localhost):${written}\\b`, "g"), `127.0.0.1:${port}`)
    .replace(new RegExp(`\\bPORT=${written}\\b`, "g"), `PORT=${port}`);
  if (written !== 8080) return moved;
  return moved
    .replace(/--port[ =]\d+/g, `--port ${port}`)
    .replace(/\b(openkyt(?:\.js)? serve)\b(?![^\n]*--port)/g, `$1 --port ${port}`);
}
