/**
 * Follow rate on anvil, and the time from a final block to its deposit checked. Core's chain
 * follower over chain-evm's block source (what `openkyt follow ETH` runs) reads a real anvil node
 * (chain id 1) into a fresh SQLite ledger from block 0 to the tip. The chain is made here: blocks
 * of native payments and ERC-20 transfers of a test token (a row each). anvil runs as its own
 * process, so the follower's CPU (this process) is measured on its own: CPU per 1,000 rows.
 *
 * Then the live path: an engine with the node as its chain source and the follower's ledger;
 * a payment is mined, `CONFIRMATIONS` blocks follow, and the time from the block becoming final
 * to the deposit `checked` (follower step + registration + binding + check) is measured.
 *
 * Fails only when the ledger ends up with the wrong number of rows or a deposit is not checked.
 *
 *   node --conditions=source --import tsx bench/src/follow/follow-evm-bench.ts [--quick]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEvmBlockSource, createEvmChainSource } from "@openkyt/chain-evm";
import { createChainFollower, createEngine } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import type { Address } from "viem";
import { compileTestToken, startTestChain } from "../../../packages/chain-evm/test/anvil-chain.js";
import { type Figure, figure, repeat } from "../bench-stats.js";

const quick = process.argv.includes("--quick");
const BLOCKS = quick ? 10 : 100;
const PAYMENTS_PER_BLOCK = quick ? 5 : 20;
const RUNS = quick ? 1 : 3;
const LIVE_DEPOSITS = quick ? 2 : 10;
const CONFIRMATIONS = 2;

const chain = await startTestChain({ chainId: 1 });
try {
  const [funder, ...payers] = chain.accounts as Address[];
  if (!funder || payers.length < 2) throw new Error("anvil gave too few accounts");
  const token = await chain.deployToken(compileTestToken(), funder, "Bench Token", "BTK");
  const abi = compileTestToken().abi;
  await chain.receipt(await chain.call(funder, token, abi, "mint", [funder, 10n ** 18n]));
  await chain.setAutomine(false);
  for (let b = 0; b < BLOCKS; b += 1) {
    const sent: Array<Promise<unknown>> = [];
    for (let i = 0; i < PAYMENTS_PER_BLOCK; i += 1) {
      const payee = `0x${(0x10000 + b * PAYMENTS_PER_BLOCK + i).toString(16).padStart(40, "0")}` as Address;
      sent.push(
        i % 2 === 0
          ? chain.sendNative(funder, payee, "0.001")
          : chain.call(funder, token, abi, "transfer", [payee, 1_000n], 100_000n),
      );
      // Nonces are taken in order from one account: send one at a time.
      await sent[sent.length - 1];
    }
    await chain.mine(1);
  }
  await chain.setAutomine(true);
  const tip = Number(await chain.publicClient.getBlockNumber());
  const expectedPayments = BLOCKS * PAYMENTS_PER_BLOCK;

  const rates = await repeat(RUNS, async () => {
    const dir = mkdtempSync(join(tmpdir(), "openkyt-follow-evm-bench-"));
    const store = await createSqliteStore({ filename: join(dir, "ledger.db") });
    try {
      const source = createEvmBlockSource({ rpcUrl: chain.rpcUrl, network: "ETH" });
      const follower = createChainFollower({ store, source, fromBlock: 0, batchBlocks: 100 });
      const cpu = process.cpuUsage();
      const started = performance.now();
      let rows = 0;
      for (;;) {
        const step = await follower.step();
        if (step.kind === "idle") break;
        if (step.kind === "blocks") rows += step.inserted;
      }
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      // Every payment is a row; the token's deployment and mint add their own.
      if (rows < expectedPayments)
        throw new Error(`the ledger holds ${rows} rows, fewer than ${expectedPayments}`);
      return {
        blocks: (tip + 1) / seconds,
        rows: rows / seconds,
        cpuPer1000: ((used.user + used.system) / 1000 / rows) * 1000,
        count: rows,
      };
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // The live path: final block -> follower step -> deposit registered, bound and checked.
  const dir = mkdtempSync(join(tmpdir(), "openkyt-follow-evm-live-"));
  const store = await createSqliteStore({ filename: join(dir, "ledger.db") });
  const latencies: number[] = [];
  try {
    const source = createEvmBlockSource({ rpcUrl: chain.rpcUrl, network: "ETH" });
    const follower = createChainFollower({
      store,
      source,
      fromBlock: 0,
      batchBlocks: 200,
      confirmations: CONFIRMATIONS,
    });
    while ((await follower.step()).kind !== "idle") {
      // catch up first
    }
    const engine = createEngine({
      store,
      chainSource: createEvmChainSource({
        rpcUrl: chain.rpcUrl,
        network: "ETH",
        confirmations: CONFIRMATIONS,
      }),
      binding: { pollMs: 50 },
    });
    engine.start();
    try {
      for (let i = 0; i < LIVE_DEPOSITS; i += 1) {
        const client = payers[i % payers.length] as Address;
        const hash = await chain.sendNative(client, funder, "0.01");
        await chain.receipt(hash);
        await chain.mine(CONFIRMATIONS - 1);
        const final = performance.now();
        while ((await follower.step()).kind !== "idle") {
          // the block is final: the follower writes it
        }
        const { transfer } = await engine.forAccount("bench").registerTransfer(
          {
            direction: "incoming",
            network: "ETH",
            tx_hash: hash,
            token_id: "native",
            output_address: funder,
          },
          { wait: 10 },
        );
        if (transfer.check_state.exposure !== "checked")
          throw new Error(
            `deposit ${hash} ended ${transfer.tx_status}, exposure ${transfer.check_state.exposure}, not checked`,
          );
        latencies.push(performance.now() - final);
      }
    } finally {
      await engine.stop();
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const label = `${tip + 1} blocks, ${rates[0]?.count ?? 0} rows`;
  const figures: Figure[] = [
    figure(
      `follow ETH anvil (${label}): blocks`,
      "blocks/s",
      rates.map((r) => r.blocks),
    ),
    figure(
      `follow ETH anvil (${label}): rows`,
      "rows/s",
      rates.map((r) => r.rows),
    ),
    figure(
      `follow ETH anvil: follower CPU per 1,000 rows`,
      "ms",
      rates.map((r) => r.cpuPer1000),
    ),
    figure(
      `follow ETH anvil: block final -> deposit checked (${CONFIRMATIONS} confirmations)`,
      "ms",
      latencies,
    ),
  ];
  console.log(JSON.stringify(figures));
} finally {
  await chain.stop();
}
