/**
 * Running `openkyt`: the real binary spawned from its TypeScript sources, with its output read,
 * or a command run in this process with its output collected.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Store } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { type CliIo, COMMANDS, runCli } from "../src/index.js";

/** The binary. */
export const BIN = fileURLToPath(new URL("../bin/openkyt.js", import.meta.url));

/** Starts `openkyt ...args` from sources with piped output. */
export function start(args: ReadonlyArray<string>, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, OPENKYT_FROM_SOURCE: "1", OPENKYT_DB: "", OPENKYT_VAULT_KEY: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** The first line the child prints on stdout. */
export function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    let errors = "";
    child.stderr?.on("data", (d) => {
      errors += d;
    });
    child.stdout?.on("data", (d) => {
      text += d;
      const end = text.indexOf("\n");
      if (end !== -1) resolve(text.slice(0, end));
    });
    child.on("close", (code) => reject(new Error(`exited ${code} before printing: ${errors}`)));
  });
}

/** Resolves with the exit code once the child exits. */
export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.on("exit", (code) => resolve(code));
  });
}

/** Runs `openkyt ...argv` in this process with `env`; its exit code and what it printed. */
export async function runInProcess(
  argv: ReadonlyArray<string>,
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  const result = { code: 0, out: "", err: "" };
  const io: CliIo = {
    env,
    stdout: (t) => {
      result.out += t;
    },
    stderr: (t) => {
      result.err += t;
    },
    untilSignal: () => new Promise(() => {}),
  };
  result.code = await runCli([...argv], io, COMMANDS);
  return result;
}

/** Polls `probe` every 50 ms until it returns true, failing after `ms`. */
export async function until(what: string, probe: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Reads the SQLite database another process (a follower, a server) writes. */
export async function withStore<T>(db: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await createSqliteStore({ filename: db, migrate: false });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
