/** Small builders for tracing tests: ledger rows, attributions, listings and a counting resolver. */
import type { Attribution, LedgerTransfer, SanctionsListing } from "../../src/domain/records.js";
import { createEntityResolver, type EntityResolver } from "../../src/exposure/entity-resolver.js";
import { LedgerIndex } from "../../src/exposure/ledger-index.js";

/** A native ETH transfer `from -> to` of `amount` at `at` (tx hash derived from the three). */
export function tr(from: string, to: string, amount: number, at: number, logIndex = 0): LedgerTransfer {
  return {
    network: "ETH",
    txHash: `0x${from}-${to}-${at}`,
    logIndex,
    tokenId: "native",
    from,
    to,
    amount,
    occurredAt: at,
    block: null,
    valueUsd: null,
  };
}

/** An index holding `rows`. */
export function ledgerOf(rows: ReadonlyArray<LedgerTransfer>): LedgerIndex {
  const index = new LedgerIndex();
  index.add(rows);
  return index;
}

/** An attribution of `address` on ETH. */
export function attr(
  address: string,
  entityCategory: string,
  entityName = `${entityCategory}-${address}`,
): Attribution {
  return { network: "ETH", address, entityName, entityCategory, source: "test" };
}

/** A listing of `address` valid from `listedAt` to `delistedAt`. */
export function listing(
  address: string,
  listedAt: number | null,
  delistedAt: number | null,
): SanctionsListing {
  return {
    network: "ETH",
    address,
    listName: "OFAC SDN",
    program: "CYBER2",
    entity: "Lazarus",
    listedAt,
    delistedAt,
  };
}

/** A resolver over fixed attributions and listings that counts the calls made to each source. */
export function resolverOf(
  attributions: ReadonlyArray<Attribution>,
  listings: ReadonlyArray<SanctionsListing> = [],
): EntityResolver & { calls: { attributions: number; sanctions: number; addresses: string[][] } } {
  const calls = { attributions: 0, sanctions: 0, addresses: [] as string[][] };
  const resolver = createEntityResolver({
    attributions: {
      attributions: async (network, addresses) => {
        calls.attributions++;
        calls.addresses.push([...addresses]);
        return attributions.filter((a) => a.network === network && addresses.includes(a.address));
      },
    },
    sanctions: {
      listings: async (addresses) => {
        calls.sanctions++;
        return listings.filter((l) => addresses.includes(l.address));
      },
    },
  });
  return { resolve: resolver.resolve, calls };
}

/** Share of `category` in `shares` (0 when absent). */
export function shareOf(
  shares: ReadonlyArray<{ category: string; share: number }>,
  category: string,
): number {
  return shares.find((s) => s.category === category)?.share ?? 0;
}
