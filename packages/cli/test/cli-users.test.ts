/**
 * `openkyt users`: create with a password from standard input or generated once, list, disable;
 * the hashed password signs in through a served app, and a disabled user no longer does.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHttpApp } from "@openkyt/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../src/db-target.js";
import { createCliEngine } from "../src/engine-setup.js";
import { BIN, exited, firstLine, start } from "./cli-process.js";

describe("openkyt users", () => {
  let dir: string;
  let db: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "openkyt-users-"));
    db = join(dir, "users.db");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const users = (args: ReadonlyArray<string>, input?: string) =>
    spawnSync(process.execPath, [BIN, "users", ...args, "--db", db], {
      env: { ...process.env, OPENKYT_FROM_SOURCE: "1", OPENKYT_DB: "" },
      encoding: "utf8",
      input: input ?? "",
    });

  /** Signs in through the app over the same database; the HTTP status. */
  const signIn = async (email: string, password: string): Promise<number> => {
    const store = await openStore({ kind: "sqlite", filename: db }, { migrateSqlite: true });
    try {
      const app = createHttpApp({ engine: createCliEngine(store, {}) });
      const response = await app.request("/v1/session", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password }),
      });
      return response.status;
    } finally {
      await store.close();
    }
  };

  it("creates a user with the password read from standard input; it signs in", async () => {
    const made = users(
      [
        "create",
        "--account",
        "acme",
        "--email",
        "Ana@Acme.test",
        "--role",
        "analyst",
        "--password-stdin",
        "--json",
      ],
      "a long enough password\n",
    );
    expect(made.status, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({
      account: "acme",
      email: "ana@acme.test",
      role: "analyst",
    });
    expect(made.stdout).not.toContain("a long enough password");
    expect(await signIn("ana@acme.test", "a long enough password")).toBe(200);
    expect(await signIn("ana@acme.test", "another password")).toBe(401);
  });

  it("generates a password when given none, prints it once, and it signs in", async () => {
    const made = users(["create", "--account", "acme", "--email", "boss@acme.test", "--role", "admin"]);
    expect(made.status, made.stderr).toBe(0);
    const password = /^password: (\S+)$/m.exec(made.stdout)?.[1] ?? "";
    expect(password).toHaveLength(20);
    expect(made.stderr).toContain("not shown again");
    expect(await signIn("boss@acme.test", password)).toBe(200);
  });

  // Three CLI runs in a row, each starting a process: 18 s alone, over 30 s on a loaded machine.
  it("refuses a short password, an unknown role and a taken e-mail, naming what is wrong", {
    timeout: 90_000,
  }, () => {
    const short = users(
      ["create", "--account", "acme", "--email", "c@acme.test", "--role", "analyst", "--password-stdin"],
      "short\n",
    );
    expect(short.status).toBe(1);
    expect(short.stderr).toContain("password: must be at least 12 characters");
    const role = users([
      "create",
      "--account",
      "acme",
      "--email",
      "c@acme.test",
      "--role",
      "boss",
      "--generate",
    ]);
    expect(role.stderr).toContain("role: must be analyst or admin");
    const taken = users([
      "create",
      "--account",
      "other",
      "--email",
      "ANA@acme.test",
      "--role",
      "admin",
      "--generate",
    ]);
    expect(taken.status).toBe(1);
    expect(taken.stderr).toContain("a user with e-mail ana@acme.test exists");
  });

  it("serve marks the session cookie Secure with OPENKYT_SECURE_COOKIE=1, and accepts no sign-in with --no-console", async () => {
    const made = users(
      ["create", "--account", "acme", "--email", "cookie@acme.test", "--role", "analyst", "--password-stdin"],
      "a long enough password\n",
    );
    expect(made.status, made.stderr).toBe(0);
    const signInOver = async (args: string[], env: Record<string, string>) => {
      const server = start(["serve", "--db", db, "--port", "0", "--json", "--no-workers", ...args], env);
      try {
        const { url } = JSON.parse(await firstLine(server)) as { url: string };
        return await fetch(`${url}/v1/session`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "cookie@acme.test", password: "a long enough password" }),
        });
      } finally {
        server.kill("SIGTERM");
        await exited(server);
      }
    };
    const secure = await signInOver([], { OPENKYT_SECURE_COOKIE: "1" });
    expect(secure.status).toBe(200);
    expect(secure.headers.get("set-cookie")).toMatch(/; HttpOnly; SameSite=Strict; .*; Secure$/);
    expect((await signInOver(["--no-console"], {})).status).toBe(404);
  });

  it("lists an account's users and disables one, whose sign-in then fails", async () => {
    const listed = users(["list", "--account", "acme", "--json"]);
    expect((JSON.parse(listed.stdout) as Array<{ email: string }>).map((u) => u.email)).toEqual([
      "ana@acme.test",
      "boss@acme.test",
      "cookie@acme.test",
    ]);
    const disabled = users(["disable", "ana@acme.test"]);
    expect(disabled.stdout).toBe("disabled ana@acme.test\n");
    expect(users(["disable", "ana@acme.test"]).status).toBe(1);
    expect(await signIn("ana@acme.test", "a long enough password")).toBe(401);
    expect(users(["list", "--account", "acme"]).stdout).toMatch(
      /ana@acme\.test {2}analyst {2}account acme .*disabled /,
    );
  });
});
