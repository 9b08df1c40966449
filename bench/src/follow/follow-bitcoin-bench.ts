/**
 * Follow rate on a Bitcoin regtest node: core's chain follower over chain-bitcoin's block source
 * (what `openkyt follow BTC` runs) reading a bcoin 1.0.2 regtest node over JSON-RPC into a fresh
 * SQLite UTXO ledger, from block 0 to the tip. The chain is made here: 101 blocks to mature a
 * coinbase, then blocks of P2PKH payments (each spends one coin into a payment and change). The
 * node runs in this process (pure-JS backends), so its work shares the follower's CPU: the
 * figures are a floor for a node on its own machine. Prints blocks/s and rows/s (a row: one
 * transaction of the UTXO ledger); fails only when the ledger ends up with the wrong count.
 *
 *   node --conditions=source --import tsx bench/src/follow/follow-bitcoin-bench.ts [--quick]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBitcoinBlockSource, createBitcoinRpc } from "@openkyt/chain-bitcoin";
import { createChainFollower } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { type Coin, startRegtest } from "../../../packages/chain-bitcoin/test/bcoin-regtest.js";
import { type Figure, figure, repeat } from "../bench-stats.js";

const quick = process.argv.includes("--quick");
const BLOCKS = quick ? 10 : 60;
const PAYMENTS_PER_BLOCK = quick ? 10 : 40;
const RUNS = quick ? 1 : 3;
const FEE = 10_000;

const chain = await startRegtest();
try {
  const miner = chain.wallet("miner");
  await chain.mine(101, miner);
  // One coinbase split into a coin per payment of a block; each payment's change pays the next.
  const reward = await chain.coinbaseCoin(1, miner);
  const wallets = Array.from({ length: PAYMENTS_PER_BLOCK }, (_, i) => chain.wallet(`w${i}`));
  const share = Math.floor((reward.value - FEE) / PAYMENTS_PER_BLOCK);
  let pool: Coin[] = (
    await chain.send(
      [reward],
      wallets.map((w) => [w, share] as const),
    )
  ).coins;
  await chain.mine(1, miner);
  for (let b = 0; b < BLOCKS; b++) {
    const next: Coin[] = [];
    for (const coin of pool) {
      const payee = chain.wallet("payee");
      const sent = await chain.send(
        [coin],
        [
          [payee, 1_000],
          [coin.owner, coin.value - 1_000 - FEE],
        ],
      );
      next.push(sent.coins[1] as Coin);
    }
    pool = next;
    await chain.mine(1, miner);
  }
  const tip = Number(await chain.rpc("getblockcount", []));
  const expectedRows = tip + 1 + 1 + BLOCKS * PAYMENTS_PER_BLOCK; // coinbases (genesis included), the split, payments
  const rpc = createBitcoinRpc({ url: chain.url, user: "x", password: "openkyt-regtest" });
  const rates = await repeat(RUNS, async () => {
    const dir = mkdtempSync(join(tmpdir(), "openkyt-follow-bench-"));
    const store = await createSqliteStore({ filename: join(dir, "ledger.db") });
    try {
      const source = createBitcoinBlockSource({ rpc, network: "BTC", ledger: store });
      const follower = createChainFollower({ store, source, fromBlock: 0, batchBlocks: 100 });
      const started = performance.now();
      let rows = 0;
      for (;;) {
        const step = await follower.step();
        if (step.kind === "idle") break;
        if (step.kind === "blocks") rows += step.inserted;
      }
      const seconds = (performance.now() - started) / 1000;
      if (rows !== expectedRows)
        throw new Error(`the ledger holds ${rows} transactions, not ${expectedRows}`);
      return { blocks: (tip + 1) / seconds, rows: rows / seconds };
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
  const label = `${tip + 1} blocks, ${expectedRows} transactions`;
  const figures: Figure[] = [
    figure(
      `follow BTC regtest (bcoin, ${label}): blocks`,
      "blocks/s",
      rates.map((r) => r.blocks),
    ),
    figure(
      `follow BTC regtest (bcoin, ${label}): rows`,
      "rows/s",
      rates.map((r) => r.rows),
    ),
  ];
  console.log(JSON.stringify(figures));
} finally {
  await chain.close();
}
