/**
 * Hash lookups of one turn of the event loop asked of the store together. A bind batch looks
 * up its transfers' transactions side by side (`bind-job.ts`), one statement each through
 * `ledgerByTxHash`: on Postgres one round trip per screened transfer. {@link joinedHashLookups}
 * holds the lookups until the turn ends (`setImmediate`), reads every hash of a network with one
 * `ledgerByTxHashes`, and gives each caller its transaction's rows, by log index, as
 * `ledgerByTxHash` would.
 */
import type { LedgerTransfer } from "../../domain/records.js";

/** Reads every transfer of several transactions of one network (`LedgerStore.ledgerByTxHashes`). */
export type ManyHashesRead = (
  network: string,
  txHashes: ReadonlyArray<string>,
) => Promise<ReadonlyArray<LedgerTransfer>>;

/** One caller waiting for its transaction's rows. */
interface Waiting {
  readonly resolve: (rows: ReadonlyArray<LedgerTransfer>) => void;
  readonly reject: (error: unknown) => void;
}

/** A lookup of one transaction's rows whose calls of one turn share one read per network. */
export function joinedHashLookups(
  readMany: ManyHashesRead,
): (network: string, txHash: string) => Promise<ReadonlyArray<LedgerTransfer>> {
  /** Per network, per hash, the callers of this turn. */
  let pending = new Map<string, Map<string, Waiting[]>>();
  let scheduled = false;

  const flush = (): void => {
    scheduled = false;
    const due = pending;
    pending = new Map();
    for (const [network, byHash] of due) {
      readMany(network, [...byHash.keys()]).then(
        (rows) => {
          const found = new Map<string, LedgerTransfer[]>();
          for (const row of rows) {
            const same = found.get(row.txHash);
            if (same) same.push(row);
            else found.set(row.txHash, [row]);
          }
          for (const [hash, waiting] of byHash) {
            // By log index, whatever order the store gave the transactions in.
            const own = (found.get(hash) ?? []).sort((a, b) => a.logIndex - b.logIndex);
            for (const w of waiting) w.resolve(waiting.length === 1 ? own : own.slice());
          }
        },
        (error: unknown) => {
          for (const waiting of byHash.values()) for (const w of waiting) w.reject(error);
        },
      );
    }
  };

  return (network, txHash) =>
    new Promise((resolve, reject) => {
      let byHash = pending.get(network);
      if (!byHash) {
        byHash = new Map();
        pending.set(network, byHash);
      }
      const waiting = byHash.get(txHash);
      if (waiting) waiting.push({ resolve, reject });
      else byHash.set(txHash, [{ resolve, reject }]);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
