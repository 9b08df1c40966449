/**
 * Attributions and sanctions held as given rows, answering as the store's sources do (every
 * row of each asked address). A screening thread gets the rows once from the thread that owns
 * the store and resolves from them.
 */
import type { Attribution, SanctionsListing } from "../domain/records.js";
import type { AttributionSource, SanctionsSource } from "../ports/reference-sources.js";

/** An attribution source over `rows`. */
export function heldAttributionSource(rows: ReadonlyArray<Attribution>): AttributionSource {
  const byKey = new Map<string, Attribution[]>();
  for (const row of rows) {
    const key = `${row.network}\u0000${row.address}`;
    const list = byKey.get(key);
    if (list) list.push(row);
    else byKey.set(key, [row]);
  }
  return Object.freeze({
    async attributions(network: string, addresses: ReadonlyArray<string>) {
      const out: Attribution[] = [];
      for (const address of new Set(addresses)) {
        const found = byKey.get(`${network}\u0000${address}`);
        if (found) out.push(...found);
      }
      return out;
    },
  });
}

/** A sanctions source over `rows`. */
export function heldSanctionsSource(rows: ReadonlyArray<SanctionsListing>): SanctionsSource {
  const byAddress = new Map<string, SanctionsListing[]>();
  for (const row of rows) {
    const list = byAddress.get(row.address);
    if (list) list.push(row);
    else byAddress.set(row.address, [row]);
  }
  return Object.freeze({
    async listings(addresses: ReadonlyArray<string>) {
      const out: SanctionsListing[] = [];
      for (const address of new Set(addresses)) {
        const found = byAddress.get(address);
        if (found) out.push(...found);
      }
      return out;
    },
  });
}
