/**
 * What moves value in one transaction: its native value (unless it reverted) and its ERC-20
 * `Transfer(address,address,uint256)` logs. Pure decoding, no node access.
 */
import { NATIVE_TOKEN } from "@openkyt/core";
import { decodeEventLog, type Hex, parseAbiItem, toEventSelector } from "viem";

/**
 * The logIndex of a transaction's native value transfer in the ledger. Log indexes of a block
 * start at 0, so -1 never collides with a log and (network, txHash, logIndex) stays unique; it
 * also sorts first, which is when the value moves (before any log the call emits).
 */
export const NATIVE_LOG_INDEX = -1;

/** The ERC-20 Transfer event (from and to indexed, value in data). */
export const ERC20_TRANSFER_EVENT = parseAbiItem(
  "event Transfer(address indexed from, address indexed to, uint256 value)",
);

/** topic0 of the ERC-20 Transfer event (ERC-721's Transfer shares it, with a fourth topic). */
export const TRANSFER_TOPIC: Hex = toEventSelector(ERC20_TRANSFER_EVENT);

/** A transfer in raw units, before decimals are known. Addresses and ids are lower-case. */
export interface RawTransfer {
  readonly txHash: string;
  readonly logIndex: number;
  /** `native`, or the token contract address. */
  readonly tokenId: string;
  readonly from: string;
  readonly to: string;
  readonly raw: bigint;
  readonly block: number;
}

/** The fields of a log this module reads (a viem `Log`, from a receipt or `eth_getLogs`). */
export interface TransferLogLike {
  readonly address: string;
  readonly topics: ReadonlyArray<Hex>;
  readonly data: Hex;
  readonly logIndex: number | null;
  readonly transactionHash: string | null;
  readonly blockNumber: bigint | null;
  readonly removed?: boolean;
}

/**
 * The ERC-20 transfer a log records, or null when it is something else: another event, an
 * ERC-721 Transfer (four topics), a non-standard layout, a removed (reorganised) or pending log,
 * or a transfer of zero (which moves nothing; zero-value transfers are a common spam vector).
 */
export function decodeErc20Transfer(log: TransferLogLike): RawTransfer | null {
  if (log.removed || log.logIndex === null || log.transactionHash === null || log.blockNumber === null)
    return null;
  if (log.topics.length !== 3 || log.topics[0]?.toLowerCase() !== TRANSFER_TOPIC) return null;
  try {
    const { args } = decodeEventLog({
      abi: [ERC20_TRANSFER_EVENT],
      topics: [...log.topics] as [Hex, ...Hex[]],
      data: log.data,
      strict: true,
    });
    if (args.value === 0n) return null;
    return Object.freeze({
      txHash: log.transactionHash.toLowerCase(),
      logIndex: log.logIndex,
      tokenId: log.address.toLowerCase(),
      from: args.from.toLowerCase(),
      to: args.to.toLowerCase(),
      raw: args.value,
      block: Number(log.blockNumber),
    });
  } catch {
    return null;
  }
}

/** The fields of a transaction and its receipt that decide its native transfer. */
export interface NativeMoveLike {
  readonly hash: string;
  readonly from: string;
  /** Null for a contract creation: the value then goes to the created contract. */
  readonly to: string | null;
  readonly value: bigint;
  readonly blockNumber: bigint;
  readonly status: "success" | "reverted";
  readonly contractAddress?: string | null;
}

/** The native value a transaction moved, or null (zero value, reverted, or no recipient known). */
export function decodeNativeTransfer(move: NativeMoveLike): RawTransfer | null {
  if (move.value <= 0n || move.status !== "success") return null;
  const to = move.to ?? move.contractAddress ?? null;
  if (!to) return null;
  return Object.freeze({
    txHash: move.hash.toLowerCase(),
    logIndex: NATIVE_LOG_INDEX,
    tokenId: NATIVE_TOKEN,
    from: move.from.toLowerCase(),
    to: to.toLowerCase(),
    raw: move.value,
    block: Number(move.blockNumber),
  });
}
