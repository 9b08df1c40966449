/**
 * Runs one documentation block in a sandbox: a program through tsx, commands through bash, or a
 * server in the background until stopped. Every run has a time limit, and its output is kept
 * for the failure message.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { DocBlock } from "./doc-blocks.js";
import type { Sandbox } from "./doc-sandbox.js";

/** What a finished block printed. */
export interface BlockRun {
  readonly output: string;
  readonly ms: number;
}

/** A server started by a block. */
export interface RunningServer {
  /** What it printed so far. */
  output(): string;
  /** SIGTERM to its process group, then SIGKILL after 10 s; resolves when it has exited. */
  stop(): Promise<void>;
}

/** Variables of a bash session that say nothing about what a block exported. */
const SHELL_OWN = new Set(["PWD", "OLDPWD", "SHLVL", "_"]);

function slug(block: DocBlock): string {
  return `${block.file.replace(/[^\w]+/g, "-")}-L${block.line}`;
}

/** The last lines of an output, for an error message. */
function tail(text: string, lines = 40): string {
  return text.split("\n").slice(-lines).join("\n");
}

/** Spawns a process group and resolves with its exit code and output; kills it at the time limit. */
function runProcess(
  command: string,
  args: ReadonlyArray<string>,
  options: { cwd: string; env: Record<string, string>; timeoutMs: number; what: string },
): Promise<BlockRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    }, options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const ms = Date.now() - started;
      if (timedOut) {
        reject(
          new Error(
            `${options.what} did not finish within ${options.timeoutMs} ms (a server? mark it ` +
              `<!-- doc-test: server --> or skip it with a reason):\n${tail(output)}`,
          ),
        );
      } else if (code !== 0) {
        reject(new Error(`${options.what} exited with ${code ?? signal}:\n${tail(output)}`));
      } else {
        resolve({ output, ms });
      }
    });
  });
}

/** Runs a ts/js block (its `code`, the port rewritten) as a program in the sandbox. */
export function runProgram(
  block: DocBlock,
  code: string,
  sandbox: Sandbox,
  env: Record<string, string>,
  timeoutMs: number,
  cwd: string = sandbox.dir,
): Promise<BlockRun> {
  const file = join(sandbox.snippets, `${slug(block)}.${block.lang.startsWith("t") ? "ts" : "mjs"}`);
  writeFileSync(file, code);
  return runProcess(process.execPath, ["--conditions=source", "--import", "tsx", file], {
    cwd,
    env,
    timeoutMs,
    what: `${block.file}:${block.line}`,
  });
}

/** The bash script of a block; on exit it writes the session's variables to `$1`. */
function shellScript(code: string): string {
  return `trap 'env -0 > "$1"' EXIT\nset -eo pipefail\n${code}`;
}

/**
 * Runs an sh block in the sandbox with the session's variables, and updates them with what the
 * block exported (the blocks of a file share one terminal session).
 */
export async function runShell(
  block: DocBlock,
  code: string,
  sandbox: Sandbox,
  session: Record<string, string>,
  timeoutMs: number,
  cwd: string = sandbox.dir,
): Promise<BlockRun> {
  const script = join(sandbox.dir, `.${slug(block)}.sh`);
  const envOut = `${script}.env`;
  writeFileSync(script, shellScript(code));
  const run = await runProcess("bash", [script, envOut], {
    cwd,
    env: session,
    timeoutMs,
    what: `${block.file}:${block.line}`,
  });
  for (const name of Object.keys(session)) delete session[name];
  for (const entry of readFileSync(envOut, "utf8").split("\0")) {
    const at = entry.indexOf("=");
    if (at > 0 && !SHELL_OWN.has(entry.slice(0, at))) session[entry.slice(0, at)] = entry.slice(at + 1);
  }
  rmSync(envOut, { force: true });
  return run;
}

/**
 * Resolves once the server on the port answers /readyz 200 (`openkyt serve`), or answers at all
 * when `anyAnswer` (a server of its own, such as an example's); rejects if `exited` settles
 * first or time runs out.
 */
async function waitForHttp(
  port: number,
  exited: Promise<unknown>,
  timeoutMs: number,
  output: () => string,
  anyAnswer: boolean,
) {
  let gone = false;
  exited.then(
    () => {
      gone = true;
    },
    () => {
      gone = true;
    },
  );
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gone) throw new Error(`the server block exited before it served:\n${tail(output())}`);
    try {
      // Ready, not only listening: serve answers /readyz 503 while it opens its store and loads.
      const answer = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(1_000) });
      if (answer.ok || anyAnswer) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`nothing served on port ${port} within ${timeoutMs} ms:\n${tail(output())}`);
}

/** Starts a server block in the background and resolves once it answers on `port`. */
export async function startServer(
  block: DocBlock,
  code: string,
  sandbox: Sandbox,
  session: Record<string, string>,
  port: number,
  timeoutMs: number,
  cwd: string = sandbox.dir,
): Promise<RunningServer> {
  const script = join(sandbox.dir, `.${slug(block)}.sh`);
  writeFileSync(script, `set -eo pipefail\n${code}`);
  const child = spawn("bash", [script], { cwd, env: session, detached: true });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString("utf8");
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, name);
    } catch {
      // already gone
    }
  };
  const server: RunningServer = {
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      signal("SIGTERM");
      const timer = setTimeout(() => signal("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  try {
    const written = block.action.kind === "server" ? block.action.port : 8080;
    await waitForHttp(port, exited, timeoutMs, () => output, written !== 8080);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/**
 * Type-checks the TypeScript programs as a user's strict project would (the repository's
 * compiler options, workspace packages through their "source" condition): resolves with the
 * compiler's time, rejects with its errors.
 */
export function typeCheckPrograms(
  blocks: ReadonlyArray<DocBlock>,
  sandbox: Sandbox,
  root: string,
  timeoutMs: number,
): Promise<BlockRun> {
  const dir = join(sandbox.snippets, "typecheck");
  mkdirSync(dir, { recursive: true });
  for (const block of blocks) writeFileSync(join(dir, `${slug(block)}.ts`), block.code);
  const config = {
    extends: join(root, "tsconfig.base.json"),
    compilerOptions: { noEmit: true, declaration: false, sourceMap: false },
    include: ["*.ts"],
  };
  writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify(config, null, 2)}\n`);
  const tsc = join(
    dirname(createRequire(join(root, "package.json")).resolve("typescript/package.json")),
    "bin",
    "tsc",
  );
  return runProcess(process.execPath, [tsc, "-p", join(dir, "tsconfig.json")], {
    cwd: dir,
    env: sandbox.env as Record<string, string>,
    timeoutMs,
    what: "the type check of the TypeScript programs",
  });
}
