/** Raw transfers to ledger rows: amounts in token units, times from their blocks. */
import type { LedgerTransfer, NetworkInfo } from "@openkyt/core";
import { unitsToNumber } from "./evm-amounts.js";
import type { DecimalsResolver } from "./evm-token-decimals.js";
import type { RawTransfer } from "./evm-transfer-decoding.js";

/**
 * The ledger rows of raw transfers, ordered by (block, txHash, logIndex). `timeOfBlock` gives
 * a block's timestamp in epoch ms. Transfers of a token whose decimals are unknown are left out.
 */
export async function toLedgerRows(
  network: NetworkInfo,
  raws: ReadonlyArray<RawTransfer>,
  timeOfBlock: (block: number) => number,
  resolver: DecimalsResolver,
): Promise<LedgerTransfer[]> {
  const tokenIds = [...new Set(raws.map((r) => r.tokenId))];
  const decimals = new Map(
    await Promise.all(tokenIds.map(async (id) => [id, await resolver.decimals(id)] as const)),
  );
  const rows: LedgerTransfer[] = [];
  for (const raw of raws) {
    const d = decimals.get(raw.tokenId);
    if (d === undefined || d === null) continue;
    rows.push(
      Object.freeze({
        network: network.code,
        txHash: raw.txHash,
        logIndex: raw.logIndex,
        tokenId: raw.tokenId,
        from: raw.from,
        to: raw.to,
        amount: unitsToNumber(raw.raw, d),
        occurredAt: timeOfBlock(raw.block),
        block: raw.block,
        valueUsd: null,
      }),
    );
  }
  return rows.sort(byPosition);
}

/** Ledger order: block, then transaction hash, then logIndex (the native transfer first). */
function byPosition(a: LedgerTransfer, b: LedgerTransfer): number {
  if (a.block !== b.block) return (a.block ?? 0) - (b.block ?? 0);
  if (a.txHash !== b.txHash) return a.txHash < b.txHash ? -1 : 1;
  return a.logIndex - b.logIndex;
}
