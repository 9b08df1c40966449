/**
 * A real regtest node in this process: bcoin 1.0.2's full node on its memory database, with
 * its JSON-RPC server on a free local port and the transaction index on. Its pure-JavaScript
 * backends are used (NODE_BACKEND=js), so no native addon has to build. Coins are moved by
 * transactions signed here with bcoin's own MTX and keys, sent to its mempool and mined with
 * `generatetoaddress`.
 */
import { createServer } from "node:net";
import type { FollowStep } from "@openkyt/core";
import { type BitcoinParams, type BitcoinRpc, bitcoinParams, createBitcoinRpc } from "../src/index.js";

// biome-ignore lint/suspicious/noExplicitAny: bcoin has no types.
type Any = any;

/**
 * bcoin's regtest addresses: not Core's. Segwit `rb` (Core `bcrt`), P2PKH version 0x3c (`R...`,
 * Core 0x6f), P2SH 0x26 (`G...`, Core 0xc4); the network magic is the same.
 */
export const BCOIN_REGTEST: BitcoinParams = Object.freeze({
  ...bitcoinParams("BTC", "regtest"),
  bech32: "rb",
  pubKeyHash: 0x3c,
  scriptHash: 0x26,
});

/** A key of the scenario, with its P2WPKH address. */
export interface Wallet {
  readonly name: string;
  readonly ring: Any;
  readonly address: string;
}

/** A coin a wallet can spend: the output of a transaction signed or mined here. */
export interface Coin {
  readonly txid: string;
  readonly vout: number;
  readonly value: number;
  readonly owner: Wallet;
  readonly coin: Any;
}

export interface RegtestNode {
  readonly url: string;
  readonly rpc: BitcoinRpc;
  readonly bcoin: Any;
  readonly node: Any;
  /**
   * A new key: P2PKH (`R...` on bcoin's regtest) by default; `segwit` for P2WPKH (`rb1q...`), which only
   * receives here (spending it needs segwit active, after about 432 regtest blocks on bcoin).
   */
  wallet(name: string, segwit?: boolean): Wallet;
  /** Mines `n` blocks paying `to`; answers their hashes. */
  mine(n: number, to: Wallet): Promise<string[]>;
  /** The coinbase output of block `height`, paying its miner. */
  coinbaseCoin(height: number, owner: Wallet): Promise<Coin>;
  /** Signs and sends a transaction spending `inputs` to `outputs` (wallet, satoshis); answers its output coins. */
  send(
    inputs: ReadonlyArray<Coin>,
    outputs: ReadonlyArray<readonly [Wallet, number]>,
  ): Promise<{ txid: string; coins: Coin[] }>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts the node. */
export async function startRegtest(): Promise<RegtestNode> {
  process.env.NODE_BACKEND = "js";
  const bcoin: Any = (await import("bcoin")).default;
  const port = await freePort();
  const apiKey = "openkyt-regtest";
  const node: Any = new bcoin.FullNode({
    network: "regtest",
    memory: true,
    workers: false,
    listen: false,
    httpHost: "127.0.0.1",
    httpPort: port,
    apiKey,
    indexTX: true,
    logLevel: "error",
  });
  await node.open();
  const url = `http://127.0.0.1:${port}/`;
  const rpc = createBitcoinRpc({ url, user: "x", password: apiKey });
  const coinOf = (tx: Any, vout: number, height: number, owner: Wallet): Coin => ({
    txid: tx.txid(),
    vout,
    value: tx.outputs[vout].value,
    owner,
    coin: bcoin.Coin.fromTX(tx, vout, height),
  });
  return {
    url,
    rpc,
    bcoin,
    node,
    wallet(name, segwit = false) {
      const ring = bcoin.KeyRing.generate();
      ring.witness = segwit;
      return { name, ring, address: ring.getAddress("string", "regtest") };
    },
    async mine(n, to) {
      return (await rpc("generatetoaddress", [n, to.address])) as string[];
    },
    async coinbaseCoin(height, owner) {
      const entry = await node.chain.getEntry(height);
      const block = await node.chain.getBlock(entry.hash);
      return coinOf(block.txs[0], 0, height, owner);
    },
    async send(inputs, outputs) {
      const mtx = new bcoin.MTX();
      for (const input of inputs) mtx.addCoin(input.coin);
      for (const [to, value] of outputs)
        mtx.addOutput(bcoin.Address.fromString(to.address, "regtest"), value);
      mtx.sign(inputs.map((i) => i.owner.ring));
      const tx = mtx.toTX();
      // The mempool itself, not node.sendTX: that one only logs a transaction it refuses.
      const missing = await node.mempool.addTX(tx);
      if (missing) throw new Error(`transaction ${tx.txid()} spends coins the node does not know`);
      return { txid: tx.txid(), coins: outputs.map(([owner], vout) => coinOf(tx, vout, -1, owner)) };
    },
    async close() {
      await node.close();
    },
  };
}

/** Steps a chain follower until it has read every final block; answers the steps. */
export async function followToHead(follower: { step(): Promise<FollowStep> }): Promise<FollowStep[]> {
  const steps: FollowStep[] = [];
  for (;;) {
    const step = await follower.step();
    steps.push(step);
    if (step.kind === "idle") return steps;
  }
}
