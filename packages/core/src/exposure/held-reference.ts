/**
 * Attributions and sanctions held as given rows, answering as the store's sources do (every
 * row of each asked address). A screening thread gets the rows once from the thread that owns
 * the store and resolves from them.
 */
import type { Attribution, SanctionsListing } from "../domain/records.js";
import type { AttributionSource, SanctionsSource } from "../ports/reference-sources.js";

/** An attribution source over `rows`. */
export function heldAttributionSource(rows: ReadonlyArray<Attribution>): AttributionSource {
  // Per network, per address: no key string built per lookup (a trace looks up every address it meets).
  const byNetwork = new Map<string, Map<string, Attribution[]>>();
  for (const row of rows) {
    let byAddress = byNetwork.get(row.network);
    if (!byAddress) {
      byAddress = new Map();
      byNetwork.set(row.network, byAddress);
    }
    const list = byAddress.get(row.address);
    if (list) list.push(row);
    else byAddress.set(row.address, [row]);
  }
  return Object.freeze({
    async attributions(network: string, addresses: ReadonlyArray<string>) {
      const out: Attribution[] = [];
      const byAddress = byNetwork.get(network);
      if (!byAddress) return out;
      for (const address of new Set(addresses)) {
        const found = byAddress.get(address);
        if (found) for (const a of found) out.push(a);
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
        if (found) for (const l of found) out.push(l);
      }
      return out;
    },
  });
}
