/**
 * Child processes of the fault tests: a TypeScript script run by Node with tsx (from these
 * sources), its stdout read line by line, and ways to wait for a line, send one, or SIGKILL it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

/** A running child and its output. */
export interface FaultProcess {
  readonly child: ChildProcess;
  /** Every line printed on stdout so far. */
  readonly lines: string[];
  /** Resolves with the first line (from now or already printed) that `match` accepts. */
  waitFor(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Writes a line to the child's stdin. */
  send(line: string): void;
  /** SIGKILLs the child and resolves once it is gone. */
  kill(): Promise<void>;
  /** Resolves with the exit code once the child has exited. */
  exited(): Promise<number | null>;
}

/** Starts `script` (a path next to this file) with `args`. */
export function startFaultProcess(script: string, args: ReadonlyArray<string>): FaultProcess {
  const path = fileURLToPath(new URL(script, import.meta.url));
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", path, ...args], {
    cwd: dirname(path),
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  let stderr = "";
  let buffer = "";
  child.stderr?.setEncoding("utf8").on("data", (text: string) => {
    stderr = (stderr + text).slice(-4_000);
  });
  child.stdout?.setEncoding("utf8").on("data", (text: string) => {
    buffer += text;
    for (let end = buffer.indexOf("\n"); end !== -1; end = buffer.indexOf("\n")) {
      lines.push(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
    }
    for (const wake of waiters) wake();
  });
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    lines,
    waitFor(match, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const line = lines.find(match);
          if (line === undefined) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(line);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the child printed no expected line within ${timeoutMs} ms: ${stderr}`));
        }, timeoutMs);
        waiters.add(check);
        if (!check()) void exit.then(() => check() || reject(new Error(`the child exited: ${stderr}`)));
      });
    },
    send(line) {
      child.stdin?.write(`${line}\n`);
    },
    async kill() {
      child.kill("SIGKILL");
      await exit;
    },
    exited: () => exit,
  };
}
