/**
 * The identity of a transfer as one text: what makes two registrations the same transfer
 * (account, network, transaction hash, token, output address, direction). The store's
 * `findTransfer(s)` and the unique index of the SQL stores match on the same six fields;
 * in memory (the memory store, a registration batch) this text is the key.
 */
import type { Direction } from "./enums.js";

/** The six fields of an identity; a transfer without a hash or an output address has none. */
export interface TransferIdentityFields {
  readonly accountId: string;
  readonly network: string;
  readonly txHash: string | null;
  readonly tokenId: string;
  readonly outputAddress: string | null;
  readonly direction: Direction;
}

/** The identity key of a transfer or an identity, or null when it has no hash or output address. */
export function transferIdentityKey(t: TransferIdentityFields): string | null {
  if (t.txHash === null || t.outputAddress === null) return null;
  return `${t.accountId}\u0000${t.network}\u0000${t.txHash}\u0000${t.tokenId}\u0000${t.outputAddress}\u0000${t.direction}`;
}
