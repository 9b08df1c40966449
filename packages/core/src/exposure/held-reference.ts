/**
 * Attributions and sanctions held as given rows, answering as the store's sources do (every
 * row of each asked address). A screening thread gets the rows once from the thread that owns
 * the store and resolves from them. Each source offers the screen of its rows (as the store's
 * whole sources do), so the thread's lumped reads present the same rows as the main thread's.
 */
import type { Attribution, SanctionsListing } from "../domain/records.js";
import type { AddressScreen, AttributionSource, SanctionsSource } from "../ports/reference-sources.js";

/**
 * The screen of the addresses `keys` yields, built on first use: one object per source, so a
 * reader that keeps work per screen redoes it for a source made from reloaded rows.
 */
function lazyScreen(keys: () => Iterable<string>): () => AddressScreen {
  let screen: AddressScreen | null = null;
  return () => {
    if (screen === null) {
      const held = new Set(keys());
      screen = Object.freeze({ mayResolve: (address: string) => held.has(address) });
    }
    return screen;
  };
}

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
  const addressScreen = lazyScreen(function* () {
    for (const byAddress of byNetwork.values()) yield* byAddress.keys();
  });
  return Object.freeze({
    addressScreen,
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
  const addressScreen = lazyScreen(() => byAddress.keys());
  return Object.freeze({
    addressScreen,
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
