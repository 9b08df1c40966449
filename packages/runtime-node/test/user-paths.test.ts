import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existingDatabase, invocationDir, userPath } from "../src/user-paths.js";

describe("paths as the user typed them", () => {
  let dir: string;
  let pkg: string;
  let typed: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "openkyt-paths-"));
    pkg = join(dir, "examples", "x");
    typed = join(dir, "elsewhere");
    const { mkdir } = await import("node:fs/promises");
    await mkdir(pkg, { recursive: true });
    await mkdir(typed, { recursive: true });
    await writeFile(join(typed, "demo.db"), "");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  /** The environment npm and pnpm give the script of the package in `pkg`, typed in `typed`. */
  const script = () => ({
    INIT_CWD: typed,
    npm_package_json: join(pkg, "package.json"),
    npm_lifecycle_event: "start",
  });

  it("a package script resolves a relative path against where the command was typed", () => {
    expect(invocationDir(script(), pkg)).toBe(typed);
    expect(userPath("demo.db", script(), pkg)).toBe(join(typed, "demo.db"));
    expect(userPath("/abs/demo.db", script(), pkg)).toBe("/abs/demo.db");
  });

  it("anywhere else (a process below the script, in another folder, or no script) the working directory counts", () => {
    expect(invocationDir(script(), dir)).toBe(dir);
    expect(userPath("demo.db", script(), dir)).toBe("demo.db");
    expect(userPath("demo.db", {}, pkg)).toBe("demo.db");
    expect(userPath("demo.db", { INIT_CWD: typed }, pkg)).toBe("demo.db");
  });

  it("a database that must exist: found where typed, else an error saying where it looked and how to make one", () => {
    expect(existingDatabase("demo.db", "make it", script(), pkg)).toBe(join(typed, "demo.db"));
    expect(existingDatabase(":memory:", "make it", script(), pkg)).toBe(":memory:");
    expect(() => existingDatabase("nope.db", "run openkyt demo", script(), pkg)).toThrow(
      `no database at ${join(typed, "nope.db")} (nope.db is relative to ${typed}, where the command was typed): run openkyt demo`,
    );
  });
});
