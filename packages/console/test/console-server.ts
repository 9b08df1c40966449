/**
 * A real `openkyt serve` for the browser tests: the demo database built by `openkyt demo
 * --no-serve` (its console users included), served on a free loopback port with the console
 * freshly built from its sources into a folder of the test's own.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

/** The repository root. */
export const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../../..");
const CONSOLE = resolve(ROOT, "packages/console");
const BIN = resolve(ROOT, "packages/cli/bin/openkyt.js");
/** Run the CLI from its sources: the test checks the code as it is, built or not. */
const ENV = { ...process.env, OPENKYT_FROM_SOURCE: "1", OPENKYT_VAULT_KEY: "" };

/** A served demo database. */
export interface ConsoleServer {
  readonly url: string;
  /** The sanctioned address the demo prints for a manual check. */
  readonly sanctionedAddress: string;
  /** The deposit of the demo ledger the demo prints to register (hash and the client's address). */
  readonly deposit: { readonly txHash: string; readonly outputAddress: string };
  readonly db: string;
  /** Runs the CLI on the same database; resolves with its stdout. */
  cli(args: ReadonlyArray<string>, input?: string): string;
  close(): Promise<void>;
}

/**
 * Builds the console from its sources into `outDir`, which the server is then pointed at
 * (OPENKYT_CONSOLE_DIR): packages/console/dist, which other tests' servers read, is left alone.
 */
async function buildConsole(outDir: string): Promise<void> {
  await build({
    root: CONSOLE,
    configFile: join(CONSOLE, "vite.config.ts"),
    logLevel: "warn",
    build: { outDir, emptyOutDir: true },
  });
}

/** What a test adds to the server: more `openkyt serve` arguments and environment. */
export interface ConsoleServerOptions {
  /** Files the server reads (e.g. a reports config), written into the server's folder first. */
  readonly files?: Readonly<Record<string, string>>;
  readonly serveArgs?: ReadonlyArray<string>;
  readonly env?: Readonly<Record<string, string>>;
}

/** Builds the console and the demo database, and serves them. */
export async function startConsoleServer(options: ConsoleServerOptions = {}): Promise<ConsoleServer> {
  const dir = mkdtempSync(join(tmpdir(), "openkyt-console-"));
  const db = join(dir, "demo.db");
  const assets = join(dir, "console");
  await buildConsole(assets);
  const cli = (args: ReadonlyArray<string>, input?: string) => {
    const run = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, env: ENV, encoding: "utf8", input });
    if (run.status !== 0) throw new Error(`openkyt ${args.join(" ")} failed: ${run.stderr}`);
    return run.stdout;
  };
  const demo = cli(["demo", "--no-serve", "--db", db]);
  const sanctionedAddress = /"address":"(0x[0-9a-f]{40})"/.exec(demo)?.[1];
  if (!sanctionedAddress) throw new Error(`the demo printed no address to check:\n${demo}`);
  const txHash = /"tx_hash":"(0x[0-9a-f]{64})"/.exec(demo)?.[1];
  const outputAddress = /"output_address":"(0x[0-9a-f]{40})"/.exec(demo)?.[1];
  if (!txHash || !outputAddress) throw new Error(`the demo printed no deposit to register:\n${demo}`);
  for (const [name, text] of Object.entries(options.files ?? {})) writeFileSync(join(dir, name), text);
  const serve = [BIN, "serve", "--db", db, "--port", "0", "--json", ...(options.serveArgs ?? [])];
  const child: ChildProcess = spawn(process.execPath, serve, {
    cwd: dir,
    env: { ...ENV, OPENKYT_FAILED_AUTH_LIMIT: "0", OPENKYT_CONSOLE_DIR: assets, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const url = await new Promise<string>((done, fail) => {
    let out = "";
    const timer = setTimeout(() => fail(new Error(`openkyt serve did not start:\n${stderr}`)), 90_000);
    child.stdout?.on("data", (chunk) => {
      out += String(chunk);
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) {
        clearTimeout(timer);
        const answer = JSON.parse(line) as { url: string; console: string | null };
        if (!answer.console) fail(new Error(`openkyt serve serves no console:\n${stderr}`));
        else done(answer.url);
      }
    });
    child.once("exit", (code) => fail(new Error(`openkyt serve exited with ${code}:\n${stderr}`)));
  });
  return {
    url,
    db,
    sanctionedAddress,
    deposit: { txHash, outputAddress },
    cli,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((done) => child.once("exit", done));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
