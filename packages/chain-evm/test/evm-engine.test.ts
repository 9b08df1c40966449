/**
 * End to end: an engine over SQLite binds registered transfers through the EVM chain source on a
 * real anvil node; an unknown hash ends not_found after the binding window, a down node in error.
 */
import { createEngine, type Engine, type ManualClock, manualClock, type Store } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import type { Address } from "viem";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEvmChainSource } from "../src/index.js";
import { type CompiledToken, compileTestToken, startTestChain, type TestChain } from "./anvil-chain.js";
import { startAnvil } from "./anvil-node.js";

const WINDOW_MS = 10 * 60_000;
const POLL_MS = 60_000;

let chain: TestChain;
let token: CompiledToken;
let tokenAddress: Address;
let downUrl: string;
let alice: Address;
let bob: Address;

let store: Store;
let clock: ManualClock;

function engineOn(rpcUrl: string): Engine {
  return createEngine({
    store,
    clock,
    chainSource: createEvmChainSource({ rpcUrl, network: "ETH", retry: { count: 0 }, timeoutMs: 2_000 }),
    binding: { windowMs: WINDOW_MS, pollMs: POLL_MS },
    jobs: { maxAttempts: 3, backoffBaseMs: 1_000, backoffMaxMs: 10_000 },
  });
}

/** Moves the manual clock in steps, running due jobs after each. */
async function runFor(engine: Engine, totalMs: number, stepMs: number): Promise<void> {
  await engine.drain();
  for (let t = 0; t < totalMs; t += stepMs) {
    clock.advance(stepMs);
    await engine.drain();
  }
}

async function blockTimeMs(hash: `0x${string}`): Promise<number> {
  const receipt = await chain.receipt(hash);
  const block = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
  return Number(block.timestamp) * 1000;
}

beforeAll(async () => {
  token = compileTestToken();
  chain = await startTestChain();
  [alice, bob] = chain.accounts as [Address, Address];
  tokenAddress = await chain.deployToken(token, alice, "Test Dollar", "TUSD");
  await chain.receipt(await chain.call(alice, tokenAddress, token.abi, "mint", [alice, 100_000_000n]));
  const down = await startAnvil();
  downUrl = down.rpcUrl;
  await down.stop();
});

afterAll(async () => {
  await chain?.stop();
});

beforeEach(async () => {
  store = await createSqliteStore({ filename: ":memory:" });
  clock = manualClock(Date.now());
});

afterEach(async () => {
  await store.close();
});

describe("engine + EVM chain source on anvil", () => {
  it("binds a native deposit registered by tx hash: amount, sender and block time", async () => {
    const engine = engineOn(chain.rpcUrl);
    const hash = await chain.sendNative(alice, bob, "0.42");
    const kyt = engine.forAccount("acme");
    const { transfer } = await kyt.registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: hash,
      token_id: "native",
      output_address: bob,
    });
    await engine.drain();
    expect(await store.getTransfer(transfer.id)).toMatchObject({
      txStatus: "bound",
      amount: 0.42,
      inputAddress: alice.toLowerCase(),
      outputAddress: bob.toLowerCase(),
      occurredAt: await blockTimeMs(hash),
      tokenSymbol: "ETH",
    });
    expect((await kyt.getTransfer(transfer.id)).occurred_at).not.toBeNull();
  });

  it("binds an ERC-20 deposit by token contract and output address", async () => {
    const engine = engineOn(chain.rpcUrl);
    const hash = await chain.call(alice, tokenAddress, token.abi, "transfer", [bob, 7_500_000n]);
    const { transfer } = await engine.forAccount("acme").registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: hash,
      token_id: tokenAddress,
      output_address: bob,
    });
    await engine.drain();
    expect(await store.getTransfer(transfer.id)).toMatchObject({
      txStatus: "bound",
      tokenId: tokenAddress.toLowerCase(),
      amount: 7.5,
      inputAddress: alice.toLowerCase(),
      occurredAt: await blockTimeMs(hash),
    });
  });

  it("a transaction without enough confirmations keeps binding, then binds once they come", async () => {
    const engine = createEngine({
      store,
      clock,
      chainSource: createEvmChainSource({ rpcUrl: chain.rpcUrl, confirmations: 2, retry: { count: 0 } }),
      binding: { windowMs: WINDOW_MS, pollMs: POLL_MS },
    });
    const hash = await chain.sendNative(alice, bob, "0.3");
    await chain.receipt(hash);
    const { transfer } = await engine.forAccount("acme").registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: hash,
      token_id: "native",
      output_address: bob,
    });
    await runFor(engine, POLL_MS, POLL_MS);
    expect(await store.getTransfer(transfer.id)).toMatchObject({ txStatus: "binding", amount: null });
    await chain.mine(1);
    await runFor(engine, POLL_MS, POLL_MS);
    expect(await store.getTransfer(transfer.id)).toMatchObject({ txStatus: "bound", amount: 0.3 });
  });

  it("a transaction with no transfer of that token to that address ends not_found", async () => {
    const engine = engineOn(chain.rpcUrl);
    const hash = await chain.sendNative(alice, bob, "0.01");
    await chain.receipt(hash);
    const { transfer } = await engine.forAccount("acme").registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: hash,
      token_id: tokenAddress,
      output_address: bob,
    });
    await engine.drain();
    expect(await store.getTransfer(transfer.id)).toMatchObject({ txStatus: "not_found" });
  });

  it("a reverted transaction ends not_found, saying it failed on chain", async () => {
    const engine = engineOn(chain.rpcUrl);
    const hash = await chain.call(bob, tokenAddress, token.abi, "transfer", [alice, 10n ** 30n], 200_000n);
    expect((await chain.receipt(hash)).status).toBe("reverted");
    const { transfer } = await engine.forAccount("acme").registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: hash,
      token_id: tokenAddress,
      output_address: alice,
    });
    await engine.drain();
    const ended = await store.getTransfer(transfer.id);
    expect(ended?.txStatus).toBe("not_found");
    expect(ended?.lastError).toMatch(/failed on chain: reverted in block/);
  });

  it("an unknown hash keeps binding through the window, then ends not_found", async () => {
    const engine = engineOn(chain.rpcUrl);
    const { transfer } = await engine.forAccount("acme").registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: `0x${"5a".repeat(32)}`,
      token_id: "native",
      output_address: bob,
    });
    await runFor(engine, WINDOW_MS - POLL_MS, POLL_MS);
    expect((await store.getTransfer(transfer.id))?.txStatus).toBe("binding");
    await runFor(engine, POLL_MS, POLL_MS);
    const ended = await store.getTransfer(transfer.id);
    expect(ended?.txStatus).toBe("not_found");
    expect(ended?.lastError).toMatch(/did not find the transaction/);
  });

  it("a node that is down ends the transfer in error, with the reason kept", async () => {
    const engine = engineOn(downUrl);
    const { transfer } = await engine.forAccount("acme").registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: `0x${"6b".repeat(32)}`,
      token_id: "native",
      output_address: bob,
    });
    await engine.drain();
    expect((await store.getTransfer(transfer.id))?.txStatus).toBe("binding");
    await runFor(engine, 30_000, 5_000);
    const ended = await store.getTransfer(transfer.id);
    expect(ended?.txStatus).toBe("error");
    expect(ended?.lastError).toMatch(/ETH node: eth_getTransactionByHash failed/);
  });
});
