/**
 * The start check of a Bitcoin or Litecoin node: its genesis block (`getblockhash 0`) must be
 * one of the network's (main, test or regtest), so a node of another chain, or a Litecoin node
 * named as BTC, is refused before anything is read from it.
 */
import { KytError } from "@openkyt/core";
import type { BitcoinChainKind } from "./bitcoin-params.js";
import type { BitcoinRpc } from "./bitcoin-rpc.js";

/** Genesis block hashes by network and kind (Bitcoin's test kind: testnet3, testnet4, signet). */
export const GENESIS_HASHES: Readonly<
  Record<string, Readonly<Record<BitcoinChainKind, ReadonlyArray<string>>>>
> = Object.freeze({
  BTC: {
    main: ["000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f"],
    test: [
      "000000000933ea01ad0ee984209779baaec3ced90fa3f408719526f8d77f4943",
      "00000000da84f2bafbbc53dee25a72ae507ff4914b867c565be350b0da8bf043",
      "00000008819873e925422c1ff0f99f7cc9bbb232af63a077a480a3633bee1ef6",
    ],
    regtest: ["0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206"],
  },
  LTC: {
    main: ["12a765e31ffd4059bada1e25190f6e98c99d9714d334efa41a195a7e7e04bfe2"],
    test: ["4966625a4b2851d9fdee139e56211a0d88575f59ed816ff5e6a63deb4e3e29a0"],
    regtest: ["530827f38f93b43ed12af0b3ad25a288dc02ed74d6d7857862df51fc56c416f9"],
  },
});

/** The kind of `network` whose genesis block is `hash`, or null when none of its kinds has it. */
export function kindOfGenesis(network: string, hash: string): BitcoinChainKind | null {
  const kinds = GENESIS_HASHES[network.toUpperCase()];
  if (kinds === undefined) return null;
  for (const [kind, hashes] of Object.entries(kinds)) {
    if (hashes.includes(hash.toLowerCase())) return kind as BitcoinChainKind;
  }
  return null;
}

/**
 * Asks the node for its genesis block and answers which of `network`'s chains it is on; a
 * genesis block of no chain of `network` is a CONFLICT naming both, an unreadable answer a
 * CHAIN_ERROR.
 */
export async function checkBitcoinNode(rpc: BitcoinRpc, network: string): Promise<BitcoinChainKind> {
  const code = network.toUpperCase();
  if (GENESIS_HASHES[code] === undefined)
    throw new KytError("NOT_CONFIGURED", `no UTXO chain ${network} (known: BTC, LTC)`);
  const genesis = await rpc("getblockhash", [0]);
  if (typeof genesis !== "string" || !/^[0-9a-fA-F]{64}$/.test(genesis))
    throw new KytError("CHAIN_ERROR", `${code} node: getblockhash 0 answered ${JSON.stringify(genesis)}`);
  const kind = kindOfGenesis(code, genesis);
  if (kind === null) {
    const other = Object.keys(GENESIS_HASHES).find((n) => kindOfGenesis(n, genesis) !== null);
    throw new KytError(
      "CONFLICT",
      `the node's genesis block ${genesis.toLowerCase()} is not ${code}'s (main, test or regtest)${other ? `: it is a ${other} node` : ""}`,
    );
  }
  return kind;
}
