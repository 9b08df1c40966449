/**
 * Address prefixes and network magic of the UTXO chains OpenKYT reads: Bitcoin and Litecoin,
 * each on its main network, its test network and regtest. The ledger's network code is the
 * chain's (`BTC`, `LTC`) whichever of the three the blocks come from; the prefixes only decide
 * how an output script is written as an address.
 */
import { KytError } from "@openkyt/core";

/** A network of a chain: its main network, its public test network, or a local regtest. */
export type BitcoinChainKind = "main" | "test" | "regtest";

/** The chains' network kinds, for option checks. */
export const BITCOIN_CHAIN_KINDS: ReadonlyArray<BitcoinChainKind> = Object.freeze([
  "main",
  "test",
  "regtest",
]);

/** How one network writes addresses, and the magic that starts its block-file records. */
export interface BitcoinParams {
  /** Ledger network code: `BTC` or `LTC`. */
  readonly network: string;
  readonly kind: BitcoinChainKind;
  /** Bech32 human-readable part of segwit addresses (`bc`, `tb`, `bcrt`, `ltc`, ...). */
  readonly bech32: string;
  /** Base58Check version byte of P2PKH addresses. */
  readonly pubKeyHash: number;
  /** Base58Check version byte of P2SH addresses. */
  readonly scriptHash: number;
  /** The four bytes that start every record of its blk*.dat and rev*.dat files, as hex. */
  readonly magic: ReadonlyArray<string>;
}

const params = (p: BitcoinParams): BitcoinParams => Object.freeze({ ...p, magic: Object.freeze(p.magic) });

/**
 * Every network known, by `NETWORK/kind`. Bitcoin's test kind covers testnet3, testnet4 and
 * signet (same prefixes, three magics). bcoin's regtest writes segwit addresses with `rb`, not
 * Bitcoin Core's `bcrt`: use {@link bitcoinParams} with `bech32: "rb"` for addresses a bcoin
 * node shows (see the package README).
 */
export const BITCOIN_PARAMS: Readonly<Record<string, BitcoinParams>> = Object.freeze({
  "BTC/main": params({
    network: "BTC",
    kind: "main",
    bech32: "bc",
    pubKeyHash: 0x00,
    scriptHash: 0x05,
    magic: ["f9beb4d9"],
  }),
  "BTC/test": params({
    network: "BTC",
    kind: "test",
    bech32: "tb",
    pubKeyHash: 0x6f,
    scriptHash: 0xc4,
    magic: ["0b110907", "1c163f28", "0a03cf40"],
  }),
  "BTC/regtest": params({
    network: "BTC",
    kind: "regtest",
    bech32: "bcrt",
    pubKeyHash: 0x6f,
    scriptHash: 0xc4,
    magic: ["fabfb5da"],
  }),
  "LTC/main": params({
    network: "LTC",
    kind: "main",
    bech32: "ltc",
    pubKeyHash: 0x30,
    scriptHash: 0x32,
    magic: ["fbc0b6db"],
  }),
  "LTC/test": params({
    network: "LTC",
    kind: "test",
    bech32: "tltc",
    pubKeyHash: 0x6f,
    scriptHash: 0x3a,
    magic: ["fdd2c8f1"],
  }),
  "LTC/regtest": params({
    network: "LTC",
    kind: "regtest",
    bech32: "rltc",
    pubKeyHash: 0x6f,
    scriptHash: 0x3a,
    magic: ["fabfb5da"],
  }),
});

/** The parameters of `network` (`BTC`, `LTC`, any case) on `kind` (default main). */
export function bitcoinParams(network: string, kind: BitcoinChainKind = "main"): BitcoinParams {
  const code = network.trim().toUpperCase();
  const found = BITCOIN_PARAMS[`${code}/${kind}`];
  if (found === undefined) {
    throw new KytError(
      "NOT_CONFIGURED",
      `no UTXO chain "${network}" on ${kind} (known: BTC, LTC on main, test, regtest)`,
      {
        details: { network, kind },
      },
    );
  }
  return found;
}

/** The network whose block files start records with `magic` (4 bytes as hex), among `network`'s; null when none. */
export function paramsOfMagic(network: string, magic: string): BitcoinParams | null {
  for (const kind of BITCOIN_CHAIN_KINDS) {
    const p = bitcoinParams(network, kind);
    if (p.magic.includes(magic)) return p;
  }
  return null;
}
