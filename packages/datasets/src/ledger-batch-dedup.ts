/**
 * Deduplicating a batch of ledger rows on their key (network, tx_hash, log index): the first row
 * of a key is kept, later ones are counted as duplicates. Runs for every row of files of
 * millions of rows, so the common case (a hash not met before in the batch) costs one probe of
 * a table of row positions, keyed by the hash's last characters: no string hashing of whole
 * hashes, no allocation per row. Only rows of a hash met before build their full key.
 */
import type { LedgerTransfer } from "@openkyt/core";

/** Characters of a hash, from its end, that choose its slot (normal hashes end in random hex). */
const HASHED_CHARS = 8;

/** The key of a ledger row: network, transaction hash, log index. */
function keyOf(row: LedgerTransfer): string {
  return `${row.network} ${row.txHash} ${row.logIndex}`;
}

/** A hash of the last {@link HASHED_CHARS} characters of `text` (FNV-1a). */
function tailHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = Math.max(0, text.length - HASHED_CHARS); i < text.length; i++)
    h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

/** The distinct rows of batches, reusing one table between batches. */
export interface BatchDedup {
  /** The rows of `batch` whose key no earlier row of the batch has, in order; `onDuplicate` counts the others. */
  distinct(batch: ReadonlyArray<LedgerTransfer>, onDuplicate: () => void): LedgerTransfer[];
}

/** A deduplicator of ledger batches. */
export function createBatchDedup(): BatchDedup {
  // Open addressing: slot -> 1 + position in `rows` of the first row of a hash (0: empty).
  let slots = new Int32Array(1 << 14);
  return {
    distinct(batch, onDuplicate) {
      if (slots.length < batch.length * 2) {
        let size = slots.length;
        while (size < batch.length * 2) size *= 2;
        slots = new Int32Array(size);
      } else slots.fill(0);
      const mask = slots.length - 1;
      const rows: LedgerTransfer[] = [];
      let keys: Set<string> | undefined;
      for (const value of batch) {
        const hash = value.txHash;
        let slot = tailHash(hash) & mask;
        let first: LedgerTransfer | undefined;
        for (let at = slots[slot] ?? 0; at !== 0; at = slots[slot] ?? 0) {
          const seen = rows[at - 1] as LedgerTransfer;
          if (seen.txHash === hash) {
            first = seen;
            break;
          }
          slot = (slot + 1) & mask;
        }
        if (first === undefined) {
          rows.push(value);
          slots[slot] = rows.length;
          continue;
        }
        keys ??= new Set();
        keys.add(keyOf(first));
        const key = keyOf(value);
        if (keys.has(key)) {
          onDuplicate();
          continue;
        }
        keys.add(key);
        rows.push(value);
      }
      return rows;
    },
  };
}
