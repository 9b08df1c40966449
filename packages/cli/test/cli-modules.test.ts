import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS, cliVersion, type LazyCliCommand } from "../src/index.js";
import { BIN } from "./cli-process.js";

const HOOKS = fileURLToPath(new URL("./module-trace-register.mjs", import.meta.url));
const PACKAGE = fileURLToPath(new URL("../", import.meta.url));
const PACKAGES = fileURLToPath(new URL("../../", import.meta.url));

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "openkyt-modules-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs node with the module trace; answers the exit status, stdout and the file paths of every module loaded. */
async function traced(name: string, args: ReadonlyArray<string>) {
  const trace = join(dir, `${name}.txt`);
  const run = spawnSync(process.execPath, ["--import", HOOKS, ...args], {
    cwd: PACKAGE,
    encoding: "utf8",
    env: { ...process.env, OPENKYT_FROM_SOURCE: "1", OPENKYT_MODULE_TRACE: trace },
  });
  const urls = (await readFile(trace, "utf8")).split("\n").filter((u) => u.startsWith("file:"));
  return {
    status: run.status,
    stdout: run.stdout,
    stderr: run.stderr,
    files: urls.map((u) => fileURLToPath(u)),
  };
}

const TEST_TOOLING =
  /[\\/]node_modules[\\/](\.pnpm[\\/])?(vitest|vite|@vitest|fast-check)[@\\/]|[\\/]testkit[\\/]/;

describe("what the CLI loads", () => {
  it("every command's module and the package index load no test runner, no vite and no testkit", async () => {
    const script = `const m = await import(${JSON.stringify(join(PACKAGE, "src/index.ts"))}); for (const c of Object.values(m.COMMANDS)) await c.load(); console.log("loaded");`;
    const run = await traced("all", [
      "--conditions=source",
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      script,
    ]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("loaded\n");
    // The trace sees the command modules (so it would see vitest if they loaded it).
    expect(run.files).toContain(join(PACKAGE, "src/command-demo.ts"));
    expect(run.files).toContain(join(PACKAGES, "ledger-generator/src/ledger-generator.ts"));
    expect(run.files.filter((f) => TEST_TOOLING.test(f))).toEqual([]);
  });

  it("the CLI's runtime dependencies, through every @openkyt package they name, hold no test runner", async () => {
    const seen = new Map<string, string[]>();
    const visit = async (dir: string): Promise<void> => {
      const pkg = JSON.parse(await readFile(join(PACKAGES, dir, "package.json"), "utf8")) as {
        name: string;
        dependencies?: Record<string, string>;
        peerDependencies?: Record<string, string>;
      };
      if (seen.has(pkg.name)) return;
      const names = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})];
      seen.set(pkg.name, names);
      for (const name of names) if (name.startsWith("@openkyt/")) await visit(name.slice("@openkyt/".length));
    };
    await visit("cli");
    expect([...seen.keys()]).toContain("@openkyt/ledger-generator");
    const runtime = [...seen.values()].flat();
    for (const tool of ["vitest", "vite", "@vitest/runner", "@openkyt/testkit", "fast-check", "tsx"]) {
      expect(runtime, tool).not.toContain(tool);
    }
  });

  it("the trace sees vitest where it is loaded: testkit's index", async () => {
    const testkit = join(PACKAGES, "testkit/src/index.ts");
    const script = `await import(${JSON.stringify(testkit)}); console.log("loaded");`;
    const run = await traced("testkit", [
      "--conditions=source",
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      script,
    ]);
    expect(run.stdout).toBe("loaded\n");
    expect(run.files.some((f) => /[\\/]vitest[@\\/]/.test(f))).toBe(true);
  });

  it("openkyt --help loads only the dispatch table: no command module, no @openkyt package", async () => {
    const run = await traced("help", [BIN, "--help"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("usage: openkyt COMMAND");
    const ours = run.files.filter((f) => f.startsWith(PACKAGES)).map((f) => f.slice(PACKAGES.length));
    expect(ours.sort()).toEqual(
      [
        "cli/bin/openkyt.js",
        "cli/bin/source-conditions.mjs",
        "cli/src/cli-command.ts",
        "cli/src/cli-run.ts",
        "cli/src/cli-version.ts",
        "cli/src/commands.ts",
        "cli/src/main.ts",
      ].sort(),
    );
    expect(run.files.filter((f) => TEST_TOOLING.test(f))).toEqual([]);
  });

  it("each entry of the lazy table names and summarises the command it loads", async () => {
    for (const [name, entry] of Object.entries(COMMANDS)) {
      const command = await (entry as LazyCliCommand).load();
      expect({ name: entry.name, summary: entry.summary }, name).toEqual({
        name: command.name,
        summary: command.summary,
      });
      expect(command.name).toBe(name);
    }
  });

  it("openkyt --version and -v print the version of the CLI's package.json", async () => {
    const pkg = JSON.parse(await readFile(join(PACKAGE, "package.json"), "utf8")) as { version: string };
    expect(cliVersion()).toBe(pkg.version);
    for (const flag of ["--version", "-v"]) {
      const run = spawnSync(process.execPath, [BIN, flag], {
        encoding: "utf8",
        env: { ...process.env, OPENKYT_FROM_SOURCE: "1" },
      });
      expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 0, stdout: `${pkg.version}\n` });
    }
  });
});
