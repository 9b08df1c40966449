/**
 * Decimals of the tokens a transfer moves: the native asset's from core's network table, a
 * contract's from the token catalog when it knows the token, else from the contract's own
 * `decimals()`, asked once per contract and cached for the life of the resolver.
 */
import { type Logger, NATIVE_TOKEN, type NetworkInfo, type TokenCatalog } from "@openkyt/core";
import {
  AbiDecodingZeroDataError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  type PublicClient,
  parseAbi,
} from "viem";
import { causedBy, chainError } from "./evm-rpc-errors.js";

const DECIMALS_ABI = parseAbi(["function decimals() view returns (uint8)"]);

/** Finds the decimals of a token; null when the token has none we can trust. */
export interface DecimalsResolver {
  /**
   * Decimals of `tokenId` (`native` or a lower-case contract address). Null when the contract
   * has no working `decimals()` (no code, reverts, or an answer outside 0..255): its transfers
   * cannot be converted and are left out. A node failure throws CHAIN_ERROR and is not cached.
   */
  decimals(tokenId: string): Promise<number | null>;
}

/** Collaborators of {@link createDecimalsResolver}. */
export interface DecimalsResolverDeps {
  readonly client: PublicClient;
  readonly network: NetworkInfo;
  readonly tokens?: TokenCatalog;
  readonly logger: Logger;
}

/** Creates a resolver with its own per-contract cache. */
export function createDecimalsResolver(deps: DecimalsResolverDeps): DecimalsResolver {
  const { client, network, tokens, logger } = deps;
  const fromContract = new Map<string, Promise<number | null>>();

  async function askContract(tokenId: string): Promise<number | null> {
    try {
      const value = await client.readContract({
        address: tokenId as `0x${string}`,
        abi: DECIMALS_ABI,
        functionName: "decimals",
      });
      const decimals = Number(value);
      if (Number.isInteger(decimals) && decimals >= 0 && decimals <= 255) return decimals;
      logger.warn({ network: network.code, tokenId, decimals: String(value) }, "token decimals out of range");
      return null;
    } catch (error) {
      if (
        causedBy(error, [
          ContractFunctionRevertedError,
          ContractFunctionZeroDataError,
          AbiDecodingZeroDataError,
        ])
      ) {
        logger.warn(
          { network: network.code, tokenId },
          "token has no decimals(); its transfers are left out",
        );
        return null;
      }
      throw chainError(network.code, `decimals() of ${tokenId}`, error);
    }
  }

  return {
    async decimals(tokenId) {
      if (tokenId === NATIVE_TOKEN) return network.nativeDecimals;
      const known = tokens ? await tokens.token(network.code, tokenId) : null;
      if (known) return known.decimals;
      let pending = fromContract.get(tokenId);
      if (!pending) {
        pending = askContract(tokenId);
        fromContract.set(tokenId, pending);
        pending.catch(() => fromContract.delete(tokenId));
      }
      return pending;
    },
  };
}
