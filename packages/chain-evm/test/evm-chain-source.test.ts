/** The EVM chain source against a real anvil node: found, pending, failed, not_found. */
import { isKytError, type LedgerTransfer, silentLogger, type TokenCatalog } from "@openkyt/core";
import { type Address, custom } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDecimalsResolver,
  createEvmChainSource,
  createEvmClient,
  type EvmChainSource,
  evmNetwork,
  NATIVE_LOG_INDEX,
} from "../src/index.js";
import { type CompiledToken, compileTestToken, startTestChain, type TestChain } from "./anvil-chain.js";

let chain: TestChain;
let token: CompiledToken;
let tokenAddress: Address;
let source: EvmChainSource;
let alice: Address;
let bob: Address;
let carol: Address;

async function blockTimeMs(blockNumber: bigint): Promise<number> {
  const block = await chain.publicClient.getBlock({ blockNumber });
  return Number(block.timestamp) * 1000;
}

async function found(hash: string, from = source): Promise<ReadonlyArray<LedgerTransfer>> {
  const lookup = await from.lookup("ETH", hash);
  if (lookup.kind !== "found") throw new Error(`expected found, got ${JSON.stringify(lookup)}`);
  return lookup.transfers;
}

beforeAll(async () => {
  token = compileTestToken();
  chain = await startTestChain();
  [alice, bob, carol] = chain.accounts as [Address, Address, Address];
  tokenAddress = await chain.deployToken(token, alice, "Test Dollar", "TUSD");
  await chain.receipt(await chain.call(alice, tokenAddress, token.abi, "mint", [alice, 1_000_000_000n]));
  source = createEvmChainSource({ rpcUrl: chain.rpcUrl, network: "ETH", retry: { count: 0 } });
});

afterAll(async () => {
  await chain?.stop();
});

describe("createEvmChainSource on anvil", () => {
  it("binds a native transfer: sender, recipient, ether amount, block time", async () => {
    const hash = await chain.sendNative(alice, bob, "1.25");
    const receipt = await chain.receipt(hash);
    const transfers = await found(hash);
    expect(transfers).toEqual([
      {
        network: "ETH",
        txHash: hash.toLowerCase(),
        logIndex: NATIVE_LOG_INDEX,
        tokenId: "native",
        from: alice.toLowerCase(),
        to: bob.toLowerCase(),
        amount: 1.25,
        occurredAt: await blockTimeMs(receipt.blockNumber),
        block: Number(receipt.blockNumber),
        valueUsd: null,
      },
    ]);
  });

  it("binds an ERC-20 transfer with decimals read from the contract", async () => {
    const hash = await chain.call(alice, tokenAddress, token.abi, "transfer", [bob, 12_345_678n]);
    const receipt = await chain.receipt(hash);
    const transfers = await found(hash);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({
      tokenId: tokenAddress.toLowerCase(),
      from: alice.toLowerCase(),
      to: bob.toLowerCase(),
      amount: 12.345678,
      logIndex: receipt.logs[0]?.logIndex,
      occurredAt: await blockTimeMs(receipt.blockNumber),
      block: Number(receipt.blockNumber),
    });
  });

  it("takes a token's decimals from the token catalog when it knows the token", async () => {
    const catalog: TokenCatalog = {
      token: async (network, tokenId) =>
        tokenId === tokenAddress.toLowerCase()
          ? { network, tokenId, symbol: "TUSD", decimals: 3, name: null }
          : null,
      bySymbol: async () => null,
    };
    const withCatalog = createEvmChainSource({ rpcUrl: chain.rpcUrl, tokens: catalog, retry: { count: 0 } });
    const hash = await chain.call(alice, tokenAddress, token.abi, "transfer", [carol, 5_000n]);
    await chain.receipt(hash);
    expect((await found(hash, withCatalog))[0]?.amount).toBe(5);
    expect((await found(hash))[0]?.amount).toBe(0.005);
  });

  it("records a transferFrom as owner to recipient, not the spender", async () => {
    await chain.receipt(await chain.call(alice, tokenAddress, token.abi, "approve", [bob, 2_000_000n]));
    const hash = await chain.call(bob, tokenAddress, token.abi, "transferFrom", [alice, carol, 2_000_000n]);
    await chain.receipt(hash);
    const transfers = await found(hash);
    expect(transfers.map((t) => [t.from, t.to, t.amount])).toEqual([
      [alice.toLowerCase(), carol.toLowerCase(), 2],
    ]);
  });

  it("answers not_found for a hash the node does not know, and for a malformed hash", async () => {
    await expect(source.lookup("ETH", `0x${"ab".repeat(32)}`)).resolves.toEqual({ kind: "not_found" });
    await expect(source.lookup("ETH", "0x1234")).resolves.toEqual({ kind: "not_found" });
  });

  it("answers pending while a transaction is not mined", async () => {
    await chain.setAutomine(false);
    try {
      const hash = await chain.sendNative(alice, carol, "0.5");
      await expect(source.lookup("ETH", hash)).resolves.toEqual({ kind: "pending" });
      await chain.mine(1);
      expect((await found(hash))[0]?.amount).toBe(0.5);
    } finally {
      await chain.setAutomine(true);
    }
  });

  it("answers pending until the block has the required confirmations, then found", async () => {
    const strict = createEvmChainSource({ rpcUrl: chain.rpcUrl, confirmations: 3, retry: { count: 0 } });
    const hash = await chain.sendNative(bob, carol, "2");
    await chain.receipt(hash);
    await expect(strict.lookup("ETH", hash)).resolves.toEqual({ kind: "pending" });
    await chain.mine(1);
    await expect(strict.lookup("ETH", hash)).resolves.toEqual({ kind: "pending" });
    await chain.mine(1);
    expect((await found(hash, strict))[0]?.amount).toBe(2);
  });

  it("answers failed for a reverted transaction (a token transfer beyond the balance)", async () => {
    const hash = await chain.call(carol, tokenAddress, token.abi, "transfer", [bob, 10n ** 30n], 200_000n);
    const receipt = await chain.receipt(hash);
    expect(receipt.status).toBe("reverted");
    const lookup = await source.lookup("ETH", hash);
    expect(lookup.kind).toBe("failed");
    expect(lookup.kind === "failed" && lookup.reason).toMatch(/reverted in block \d+/);
  });

  it("answers found with no transfers for a transaction that moved nothing", async () => {
    const hash = await chain.call(alice, tokenAddress, token.abi, "approve", [carol, 1n]);
    await chain.receipt(hash);
    expect(await found(hash)).toEqual([]);
  });

  it("refuses another network with NOT_CONFIGURED and a non-EVM network at creation", async () => {
    const error = await source.lookup("BSC", `0x${"ab".repeat(32)}`).catch((e: unknown) => e);
    expect(isKytError(error, "NOT_CONFIGURED")).toBe(true);
    expect(() => createEvmChainSource({ rpcUrl: chain.rpcUrl, network: "TRX" })).toThrow(
      /not an EVM network/,
    );
    expect(() => createEvmChainSource({ rpcUrl: chain.rpcUrl, confirmations: 0 })).toThrow(/confirmations/);
  });
});

describe("token decimals", () => {
  it("asks a contract for decimals() once, and gets none from an address without code", async () => {
    let ethCalls = 0;
    const counting = custom({
      async request({ method, params }: { method: string; params?: unknown }) {
        if (method === "eth_call") ethCalls += 1;
        return chain.publicClient.request({ method, params } as never);
      },
    });
    const resolver = createDecimalsResolver({
      client: createEvmClient({ transport: counting }),
      network: evmNetwork("ETH"),
      logger: silentLogger,
    });
    expect(await resolver.decimals(tokenAddress.toLowerCase())).toBe(6);
    expect(await resolver.decimals(tokenAddress.toLowerCase())).toBe(6);
    expect(ethCalls).toBe(1);
    expect(await resolver.decimals(carol.toLowerCase())).toBeNull();
    expect(await resolver.decimals("native")).toBe(18);
  });
});
