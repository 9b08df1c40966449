/**
 * The fleet's processes: `openkyt serve --no-workers` and `openkyt worker`, started from the
 * repository's CLI (its built JavaScript when built, else its TypeScript through tsx), each
 * waited for until it says it is ready (its first `--json` line), and stopped with SIGTERM.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** The `openkyt` binary of this repository. */
export const OPENKYT_BIN = fileURLToPath(new URL("../../../packages/cli/bin/openkyt.js", import.meta.url));

/** A started process and its ready line. */
export interface FleetProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** The first line it printed on stdout (`--json`), parsed. */
  readonly ready: Record<string, unknown>;
  /** Sends SIGTERM and resolves with the exit code once it exited. */
  stop(): Promise<number | null>;
}

/** Starts `openkyt ARGS --json` and waits (at most `timeoutMs`) for its ready line. */
export async function startOpenkyt(
  name: string,
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>>,
  timeoutMs = 60_000,
): Promise<FleetProcess> {
  const child = spawn(process.execPath, [OPENKYT_BIN, ...args, "--json"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4_000);
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const lines = createInterface({ input: child.stdout! });
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} not ready after ${timeoutMs} ms:\n${stderr}`)),
      timeoutMs,
    );
    lines.once("line", (line) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line) as Record<string, unknown>);
      } catch {
        reject(new Error(`${name} printed ${line}`));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited ${code} before it was ready:\n${stderr}`));
    });
  });
  return {
    name,
    child,
    ready,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
