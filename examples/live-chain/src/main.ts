/**
 * A live chain end to end: a local anvil node (chain id 1, so it passes as ETH), `openkyt follow
 * ETH` writing its blocks into the ledger, and `openkyt serve --chain ETH=URL` binding through the
 * node. A deposit is sent on the chain after both started, registered over HTTP by its hash, and
 * bound and checked within seconds, with no import step. Everything stops at the end.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createKytClient } from "@openkyt/client";
import { createPublicClient, createWalletClient, http, parseEther } from "viem";
import { mainnet } from "viem/chains";
import { startAnvil } from "../../../packages/chain-evm/test/anvil-node.js";

const OPENKYT = fileURLToPath(new URL("../../../packages/cli/bin/openkyt.js", import.meta.url));
const KEY = { keyId: "live-chain-key", secret: "live-chain-secret-0123456789", account: "exchange" };

/** Starts `openkyt ...args` and resolves with it and its first line of output (JSON). */
async function openkyt(
  args: string[],
  env: Record<string, string> = {},
): Promise<[ChildProcess, Record<string, unknown>]> {
  const child = spawn(process.execPath, [OPENKYT, ...args, "--json"], {
    env: { ...process.env, OPENKYT_FROM_SOURCE: "1", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((done, fail) => {
    let text = "";
    child.stdout?.on("data", (chunk) => {
      text += chunk;
      if (text.includes("\n")) done(text.slice(0, text.indexOf("\n")));
    });
    child.once("exit", (code) => fail(new Error(`openkyt ${args[0]} exited ${code}`)));
  });
  return [child, JSON.parse(line) as Record<string, unknown>];
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once("exit", () => done());
    child.kill("SIGTERM");
  });
}

const db = resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2] ?? "live-chain.db");
await rm(db, { force: true });
const node = await startAnvil({ chainId: 1 });
const children: ChildProcess[] = [];
try {
  const chain = { ...mainnet, rpcUrls: { default: { http: [node.rpcUrl] } } };
  const reader = createPublicClient({ chain, transport: http(node.rpcUrl) });
  const [follower, following] = await openkyt([
    "follow",
    "ETH",
    "--rpc",
    node.rpcUrl,
    "--poll-ms",
    "200",
    "--db",
    db,
    "--log-level",
    "warn",
  ]);
  children.push(follower);
  const [server, serving] = await openkyt(
    [
      "serve",
      "--port",
      "0",
      "--db",
      db,
      "--chain",
      `ETH=${node.rpcUrl}`,
      "--bind-poll-ms",
      "200",
      "--no-console",
      "--log-level",
      "warn",
    ],
    { OPENKYT_API_KEYS: `${KEY.keyId}:${KEY.secret}:${KEY.account}` },
  );
  children.push(server);
  console.log(
    `anvil at ${node.rpcUrl}; following ${following.follow} into ${following.db}; serving ${serving.url}`,
  );

  // A customer deposits 1.5 ETH to the exchange's address; the exchange registers it by hash.
  const wallet = createWalletClient({ chain, transport: http(node.rpcUrl) });
  const [customer, exchange] = await wallet.getAddresses();
  if (!customer || !exchange) throw new Error("anvil has funded accounts");
  const hash = await wallet.sendTransaction({ account: customer, to: exchange, value: parseEther("1.5") });
  const sentAt = Date.now();
  const block = (await reader.waitForTransactionReceipt({ hash, pollingInterval: 50 })).blockNumber;
  console.log(`deposit ${hash} sent in block ${block}`);
  const kyt = createKytClient({ baseUrl: String(serving.url), keyId: KEY.keyId, secret: KEY.secret });
  const { id } = await kyt.registerTransfer({
    direction: "incoming",
    network: "ETH",
    tx_hash: hash,
    output_address: exchange.toLowerCase(),
  });
  const done = await kyt.waitUntilChecked(id, { timeoutMs: 20_000, intervalMs: 50 });
  console.log(
    `registered ${id}: tx_status ${done.tx_status}, ${done.amount} ETH from ${done.input_address}, risk ${done.risk_level}, checked ${((Date.now() - sentAt) / 1000).toFixed(1)} s after it was sent`,
  );
} finally {
  for (const child of children.reverse()) await stop(child);
  await node.stop();
}
