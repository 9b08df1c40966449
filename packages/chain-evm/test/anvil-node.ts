/**
 * Starts a real `anvil` node (from the @foundry-rs/anvil devDependency, nothing downloaded) on
 * 127.0.0.1 and a free port, and stops it after the test.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";

/** A running node. */
export interface AnvilNode {
  readonly rpcUrl: string;
  readonly port: number;
  /** Stops the node (SIGTERM, then SIGKILL after 3 s) and waits for it to exit. Idempotent. */
  stop(): Promise<void>;
}

/** Options of {@link startAnvil}. */
export interface AnvilOptions {
  /** Seconds between blocks; default: none (a block per transaction, "automine"). */
  readonly blockTime?: number;
  /** The chain id the node reports; default anvil's 31337 (1 makes it pass for ETH). */
  readonly chainId?: number;
}

const PLATFORM_ARCH: Readonly<Record<string, string>> = { x64: "amd64", arm64: "arm64" };

/** The anvil executable: the platform binary when installed, else the package's node wrapper. */
export function anvilCommand(): { command: string; args: string[] } {
  const require = createRequire(import.meta.url);
  const wrapperPackage = require.resolve("@foundry-rs/anvil/package.json");
  const arch = PLATFORM_ARCH[process.arch];
  if (arch) {
    try {
      const fromWrapper = createRequire(wrapperPackage);
      const binary = fromWrapper.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/bin/anvil`);
      if (existsSync(binary)) return { command: binary, args: [] };
    } catch {
      // fall back to the wrapper, which finds the binary itself
    }
  }
  return { command: process.execPath, args: [join(dirname(wrapperPackage), "bin.mjs")] };
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function answers(rpcUrl: string): Promise<boolean> {
  try {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
    });
    return response.ok;
  } catch {
    return false;
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const killer = setTimeout(() => child.kill("SIGKILL"), 3_000);
  await exited(child);
  clearTimeout(killer);
}

/** Starts anvil and resolves once it answers JSON-RPC (tries another port if one was taken). */
export async function startAnvil(options: AnvilOptions = {}): Promise<AnvilNode> {
  const { command, args } = anvilCommand();
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const port = await freePort();
    const flags = ["--host", "127.0.0.1", "--port", String(port), "--silent"];
    if (options.blockTime !== undefined) flags.push("--block-time", String(options.blockTime));
    if (options.chainId !== undefined) flags.push("--chain-id", String(options.chainId));
    const child = spawn(command, [...args, ...flags], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const rpcUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && child.exitCode === null && !(await answers(rpcUrl))) {
      await new Promise((r) => setTimeout(r, 50));
    }
    if (child.exitCode === null && (await answers(rpcUrl))) {
      return { rpcUrl, port, stop: () => stopChild(child) };
    }
    await stopChild(child);
    if (attempt === 3) throw new Error(`anvil did not start on port ${port}: ${stderr.trim()}`);
  }
  throw new Error("unreachable");
}
