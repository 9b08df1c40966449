/**
 * A Tron transaction's transfers: the TRX of a successful `TransferContract` (logIndex -1, as
 * EVM native value) and every TRC-20 `Transfer(address,address,uint256)` event of its info's
 * logs (logIndex: the log's position in the transaction). Addresses in Base58Check, amounts in
 * token units; zero amounts are left out. A failed transaction moves nothing.
 */
import type { LedgerTransfer, TokenCatalog } from "@openkyt/core";
import { tronHexToBase58, tronLogAddressToBase58, tronWordToBase58 } from "./tron-address.js";
import { unitsToNumber } from "./tron-amounts.js";
import type { TronTransaction, TronTransactionInfo } from "./tron-answers.js";

/** keccak256("Transfer(address,address,uint256)"), the topic of ERC-20 and TRC-20 transfers. */
export const TRANSFER_TOPIC = "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

/** logIndex of a transaction's TRX transfer. */
export const TRX_LOG_INDEX = -1;

/** TRX has 6 decimals (1 TRX = 1,000,000 sun). */
const TRX_DECIMALS = 6;

/** Decimals of TRC-20 tokens every deployment meets, by contract (USDT-TRC20 first). */
export const KNOWN_TRC20_DECIMALS: Readonly<Record<string, number>> = Object.freeze({
  TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t: 6, // Tether USD (USDT)
  TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8: 6, // USD Coin (USDC)
});

/** Why a transaction failed, or null when it succeeded. */
export function failureOf(tx: TronTransaction | null, info: TronTransactionInfo | null): string | null {
  const ret = tx?.ret?.[0]?.contractRet;
  if (ret !== undefined && ret !== "SUCCESS") return ret;
  if (info?.result === "FAILED") return info.receipt.result ?? "FAILED";
  const receipt = info?.receipt.result;
  if (receipt !== undefined && receipt !== "SUCCESS") return receipt;
  return null;
}

/** The TRX transfer of a successful TransferContract with an amount, or null. */
export function decodeTrxTransfer(tx: TronTransaction, block: number, time: number): LedgerTransfer | null {
  const contract = tx.raw_data.contract[0];
  if (contract?.type !== "TransferContract" || failureOf(tx, null) !== null) return null;
  const { amount, owner_address: owner, to_address: to } = contract.parameter.value;
  if (typeof owner !== "string" || typeof to !== "string") return null;
  const sun = typeof amount === "number" || typeof amount === "string" ? BigInt(amount) : 0n;
  const from = tronHexToBase58(owner);
  const recipient = tronHexToBase58(to);
  if (sun <= 0n || from === null || recipient === null) return null;
  return {
    network: "TRX",
    txHash: tx.txID.toLowerCase(),
    logIndex: TRX_LOG_INDEX,
    tokenId: "native",
    from,
    to: recipient,
    amount: unitsToNumber(sun, TRX_DECIMALS),
    occurredAt: time,
    block,
    valueUsd: null,
  };
}

/** A TRC-20 Transfer event before its decimals are known. */
export interface RawTrc20Transfer {
  readonly contract: string;
  readonly from: string;
  readonly to: string;
  readonly units: bigint;
  readonly logIndex: number;
}

/** The TRC-20 Transfer events of a transaction's info (none when it failed). */
export function decodeTrc20Logs(info: TronTransactionInfo): RawTrc20Transfer[] {
  if (failureOf(null, info) !== null) return [];
  const out: RawTrc20Transfer[] = [];
  for (const [logIndex, log] of info.log.entries()) {
    const [topic, fromWord, toWord] = log.topics;
    if (log.topics.length !== 3 || topic?.toLowerCase() !== TRANSFER_TOPIC || !fromWord || !toWord) continue;
    if (!/^[0-9a-fA-F]{64}$/.test(log.data)) continue;
    const contract = tronLogAddressToBase58(log.address);
    const from = tronWordToBase58(fromWord);
    const to = tronWordToBase58(toWord);
    const units = BigInt(`0x${log.data}`);
    if (contract === null || from === null || to === null || units === 0n) continue;
    out.push({ contract, from, to, units, logIndex });
  }
  return out;
}

/** Decimals of a TRC-20 contract: the catalog's, else the built-in table's, else null (left out). */
export async function trc20Decimals(
  contract: string,
  tokens: TokenCatalog | undefined,
): Promise<number | null> {
  const known = tokens ? await tokens.token("TRX", contract) : null;
  return known?.decimals ?? KNOWN_TRC20_DECIMALS[contract] ?? null;
}

/** The ledger rows of TRC-20 events, those of tokens of unknown decimals left out (and named). */
export async function trc20Rows(
  txHash: string,
  raws: ReadonlyArray<RawTrc20Transfer>,
  block: number,
  time: number,
  tokens: TokenCatalog | undefined,
  unknown: (contract: string) => void,
): Promise<LedgerTransfer[]> {
  const out: LedgerTransfer[] = [];
  for (const raw of raws) {
    const decimals = await trc20Decimals(raw.contract, tokens);
    if (decimals === null) {
      unknown(raw.contract);
      continue;
    }
    out.push({
      network: "TRX",
      txHash: txHash.toLowerCase(),
      logIndex: raw.logIndex,
      tokenId: raw.contract,
      from: raw.from,
      to: raw.to,
      amount: unitsToNumber(raw.units, decimals),
      occurredAt: time,
      block,
      valueUsd: null,
    });
  }
  return out;
}
