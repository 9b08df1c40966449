/**
 * A test chain on a real anvil node: clients for reading, sending (anvil's unlocked default
 * accounts) and mining, and the TestToken ERC-20 compiled from source with solc-js and deployed.
 */
import { readFileSync } from "node:fs";
import solc from "solc";
import {
  type Abi,
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hash,
  type Hex,
  http,
  type PublicClient,
  parseEther,
  type TransactionReceipt,
} from "viem";
import { foundry } from "viem/chains";
import { type AnvilNode, type AnvilOptions, startAnvil } from "./anvil-node.js";

/** Compiler output of the test token. */
export interface CompiledToken {
  readonly abi: Abi;
  readonly bytecode: Hex;
}

/** Compiles test/fixtures/TestToken.sol in-process with solc-js (no compiler download). */
export function compileTestToken(): CompiledToken {
  const source = readFileSync(new URL("./fixtures/TestToken.sol", import.meta.url), "utf8");
  const input = {
    language: "Solidity",
    sources: { "TestToken.sol": { content: source } },
    settings: { outputSelection: { "*": { TestToken: ["abi", "evm.bytecode.object"] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const contract = output.contracts?.["TestToken.sol"]?.TestToken;
  if (!contract) throw new Error("solc produced no TestToken");
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}

/** A running anvil with clients and its funded accounts. */
export interface TestChain {
  readonly node: AnvilNode;
  readonly rpcUrl: string;
  readonly publicClient: PublicClient;
  readonly accounts: ReadonlyArray<Address>;
  /** Sends native value from an unlocked account; resolves once it is mined when automining. */
  sendNative(from: Address, to: Address, ether: string): Promise<Hash>;
  /** Calls a function of a contract from an unlocked account (gas fixed when given, no estimate). */
  call(
    from: Address,
    to: Address,
    abi: Abi,
    functionName: string,
    args: unknown[],
    gas?: bigint,
    value?: bigint,
  ): Promise<Hash>;
  /** Deploys the compiled token; resolves to its address. */
  deployToken(token: CompiledToken, from: Address, name: string, symbol: string): Promise<Address>;
  receipt(hash: Hash): Promise<TransactionReceipt>;
  /** Mines `blocks` empty blocks. */
  mine(blocks: number): Promise<void>;
  setAutomine(on: boolean): Promise<void>;
  /** Takes a snapshot of the chain (evm_snapshot); `revert` goes back to it, forgetting later blocks. */
  snapshot(): Promise<Hex>;
  revert(id: Hex): Promise<void>;
  /** Moves the node's clock forward: the next block is at least `seconds` later. */
  increaseTime(seconds: number): Promise<void>;
  stop(): Promise<void>;
}

/** Starts anvil and wires the clients. */
export async function startTestChain(options: AnvilOptions = {}): Promise<TestChain> {
  const node = await startAnvil(options);
  const transport = http(node.rpcUrl, { retryCount: 0 });
  const publicClient = createPublicClient({ transport, cacheTime: 0 });
  const chain = options.chainId === undefined ? foundry : { ...foundry, id: options.chainId };
  const wallet = createWalletClient({ chain, transport });
  const testClient = createTestClient({ mode: "anvil", chain, transport });
  const accounts = await wallet.getAddresses();
  const receipt = (hash: Hash) => publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  return {
    node,
    rpcUrl: node.rpcUrl,
    publicClient,
    accounts,
    sendNative: (from, to, ether) => wallet.sendTransaction({ account: from, to, value: parseEther(ether) }),
    call: (from, to, abi, functionName, args, gas, value) =>
      wallet.writeContract({
        account: from,
        address: to,
        abi,
        functionName,
        args,
        ...(gas ? { gas } : {}),
        ...(value ? { value } : {}),
      }),
    async deployToken(token, from, name, symbol) {
      const hash = await wallet.deployContract({
        account: from,
        abi: token.abi,
        bytecode: token.bytecode,
        args: [name, symbol],
      });
      const mined = await receipt(hash);
      if (!mined.contractAddress) throw new Error("deployment created no contract");
      return mined.contractAddress;
    },
    receipt,
    mine: (blocks) => testClient.mine({ blocks }),
    setAutomine: (on) => testClient.setAutomine(on),
    snapshot: () => testClient.snapshot(),
    revert: (id) => testClient.revert({ id }),
    increaseTime: async (seconds) => {
      await testClient.increaseTime({ seconds });
    },
    stop: () => node.stop(),
  };
}
