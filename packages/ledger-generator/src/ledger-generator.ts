/**
 * A generated ledger with the shape of a real one, for demos (`openkyt demo`), benchmarks and
 * crash tests: heavy-tailed fan-in and fan-out (preferential attachment: an address that
 * already moved funds is likelier to move them again), exchange-like hubs, a few percent of
 * attributed addresses across risky and ordinary categories, and a few sanctioned ones.
 * Seeded: the same options give the same rows.
 */
import type { Attribution, LedgerTransfer, SanctionsListing } from "@openkyt/core";
import { REAL_SHAPE, realShapedReferenceData, realShapedRows } from "./real-shape.js";

/** A seeded PRNG (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The n-th generated EVM address. */
export function generatedAddress(n: number): string {
  return `0x${n.toString(16).padStart(40, "0")}`;
}

/** The n-th generated transaction hash. */
export function generatedTxHash(n: number): string {
  return `0x${n.toString(16).padStart(64, "0")}`;
}

/**
 * The generators: "classic" (the default: endpoints picked from earlier transfers, 12% of them
 * among the hubs, all hubs exchanges) and "real" (degrees, amounts and labels fitted to real
 * transfer graphs: power-law hubs with tens of thousands of transfers, half of them unattributed;
 * see real-shape.ts).
 */
export type LedgerShapeName = "classic" | "real";

/** Shape of a generated ledger. */
export interface LedgerShapeOptions {
  readonly transfers: number;
  /** Which generator; default "classic". */
  readonly shape?: LedgerShapeName;
  /** Distinct addresses; default transfers / 5 (real: transfers / 4). */
  readonly addresses?: number;
  /** Hubs (classic: all attributed as exchanges; real: half of them attributed); default 50. */
  readonly hubs?: number;
  /** Share of (non-hub) addresses attributed to an entity; default 0.03 (real: 0.02). */
  readonly attributedShare?: number;
  /** Share of (non-hub) addresses on a sanctions list; default 0.001. */
  readonly sanctionedShare?: number;
  readonly start?: number;
  readonly days?: number;
  readonly seed?: number;
  readonly network?: string;
  /** Token ids to spread transfers over; default ["native"]. */
  readonly tokens?: ReadonlyArray<string>;
}

/** A generated ledger and the reference data that goes with it. */
export interface GeneratedLedger {
  readonly transfers: LedgerTransfer[];
  readonly attributions: Attribution[];
  readonly sanctions: SanctionsListing[];
  readonly hubs: ReadonlyArray<string>;
}

const CATEGORIES: ReadonlyArray<readonly [string, number]> = [
  ["exchange", 0.35],
  ["dex", 0.15],
  ["personal_wallet", 0.1],
  ["gambling", 0.08],
  ["scam", 0.1],
  ["mixer", 0.05],
  ["stolen_funds", 0.05],
  ["darknet_market", 0.04],
  ["p2p_exchange", 0.04],
  ["ransomware", 0.04],
];

function pickCategory(r: number): string {
  let acc = 0;
  for (const [category, weight] of CATEGORIES) {
    acc += weight;
    if (r < acc) return category;
  }
  return "other";
}

interface Shape {
  readonly network: string;
  readonly tokens: ReadonlyArray<string>;
  readonly addresses: number;
  readonly hubCount: number;
  readonly start: number;
  readonly span: number;
}

function shapeOf(options: LedgerShapeOptions): Shape {
  const perAddress = options.shape === "real" ? REAL_SHAPE.transfersPerAddress : 5;
  const addresses = Math.max(10, options.addresses ?? Math.floor(options.transfers / perAddress));
  return {
    network: options.network ?? "ETH",
    tokens: options.tokens ?? ["native"],
    addresses,
    hubCount: Math.min(addresses, options.hubs ?? 50),
    start: options.start ?? Date.UTC(2024, 0, 1),
    span: (options.days ?? (options.shape === "real" ? REAL_SHAPE.days : 365)) * 86_400_000,
  };
}

/** The ledger's rows in time order, one at a time (constant memory apart from the attachment list). */
export function* ledgerRows(options: LedgerShapeOptions): Generator<LedgerTransfer> {
  const rnd = seededRandom(options.seed ?? 7);
  const { network, tokens, addresses, hubCount, start, span } = shapeOf(options);
  if (options.shape === "real") {
    const input = { transfers: options.transfers, addresses, hubCount, network, tokens, start, span };
    yield* realShapedRows(input, rnd, generatedTxHash, generatedAddress);
    return;
  }
  // Endpoints of earlier transfers: picking from them is preferential attachment.
  const seen = new Uint32Array(options.transfers * 2);
  let seenCount = 0;
  const pick = (): number => {
    const r = rnd();
    if (r < 0.12) return 1 + Math.floor(rnd() * hubCount);
    if (r < 0.6 && seenCount > 0) return seen[Math.floor(rnd() * seenCount)] ?? 1;
    return 1 + Math.floor(rnd() * addresses);
  };
  for (let i = 0; i < options.transfers; i += 1) {
    const from = pick();
    let to = pick();
    if (to === from) to = (from % addresses) + 1;
    seen[seenCount++] = from;
    seen[seenCount++] = to;
    yield {
      network,
      txHash: generatedTxHash(i + 1),
      logIndex: 0,
      tokenId: tokens[i % tokens.length] ?? "native",
      from: generatedAddress(from),
      to: generatedAddress(to),
      amount: Math.round(Math.exp(rnd() * 9 - 2) * 1e6) / 1e6,
      occurredAt: start + Math.floor((i / options.transfers) * span),
      block: 1 + i,
      valueUsd: null,
    };
  }
}

/** The attributions (hubs as exchanges, then a share of other addresses) and sanctions of the ledger. */
export function ledgerReferenceData(options: LedgerShapeOptions): Omit<GeneratedLedger, "transfers"> {
  const rnd = seededRandom((options.seed ?? 7) + 1);
  const { network, addresses, hubCount } = shapeOf(options);
  if (options.shape === "real") {
    const input = { transfers: options.transfers, addresses, hubCount, network };
    const rowsRandom = seededRandom(options.seed ?? 7);
    return realShapedReferenceData(input, rowsRandom, rnd, generatedAddress, pickCategory, {
      attributed: options.attributedShare ?? REAL_SHAPE.attributedShare,
      sanctioned: options.sanctionedShare ?? REAL_SHAPE.sanctionedShare,
    });
  }
  const hubs = Array.from({ length: hubCount }, (_, i) => generatedAddress(i + 1));
  const attributions: Attribution[] = hubs.map((address, i) => ({
    network,
    address,
    entityName: `Exchange ${i + 1}`,
    entityCategory: "exchange",
    source: "generated",
  }));
  const sanctions: SanctionsListing[] = [];
  const sanctionedShare = options.sanctionedShare ?? 0.001;
  const attributedShare = options.attributedShare ?? 0.03;
  for (let n = hubCount + 1; n <= addresses; n += 1) {
    const r = rnd();
    if (r < sanctionedShare) {
      sanctions.push({
        network,
        address: generatedAddress(n),
        listName: "Generated SDN",
        program: "TEST",
        entity: `Sanctioned ${n}`,
        listedAt: null,
        delistedAt: null,
      });
    } else if (r < sanctionedShare + attributedShare) {
      const category = pickCategory(rnd());
      attributions.push({
        network,
        address: generatedAddress(n),
        entityName: `${category} ${n}`,
        entityCategory: category,
        source: "generated",
      });
    }
  }
  return { attributions, sanctions, hubs };
}

/** Generates a whole ledger in memory (for small sizes; stream {@link ledgerRows} for large ones). */
export function generateLedger(options: LedgerShapeOptions): GeneratedLedger {
  return { transfers: [...ledgerRows(options)], ...ledgerReferenceData(options) };
}
