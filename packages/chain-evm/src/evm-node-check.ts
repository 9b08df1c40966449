/**
 * The check a service runs before it trusts a node: the node's chain id must be the network's
 * (ETH is 1, BSC 56, ...), so a URL pointing at the wrong chain refuses to start instead of
 * binding deposits against another chain's transactions.
 */
import { KytError } from "@openkyt/core";
import type { PublicClient } from "viem";
import { evmNetwork } from "./evm-network.js";
import { rpcCall } from "./evm-rpc-errors.js";

/** Resolves when the node serves `network`; else NOT_CONFIGURED naming both chain ids. Node failures throw CHAIN_ERROR. */
export async function checkEvmNode(client: PublicClient, networkCode: string): Promise<{ chainId: number }> {
  const network = evmNetwork(networkCode);
  const chainId = await rpcCall(network.code, "eth_chainId", () => client.getChainId());
  if (network.chainId !== null && chainId !== network.chainId) {
    throw new KytError(
      "NOT_CONFIGURED",
      `the node serves chain id ${chainId}, not ${network.code} (chain id ${network.chainId})`,
      { details: { network: network.code, expected: network.chainId, actual: chainId } },
    );
  }
  return { chainId };
}
