/**
 * A generated Ethereum ledger with a realistic shape around real labelled addresses:
 * exchange hot wallets are hubs, most wallets are unattributed, funds move in heavy-tailed
 * fan-in and fan-out, and a few flows start at sanctioned addresses, a mixer or a hack.
 */
import type { LedgerTransfer } from "@openkyt/core";

/** A seeded PRNG (mulberry32): the same seed gives the same ledger. */
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

/** A wallet address derived from a number. */
export const wallet = (n: number) => `0x${(0xabc00000 + n).toString(16).padStart(40, "0")}`;
/** A transaction hash derived from a number. */
export const txHash = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

/** Options of {@link generateLedger}. */
export interface LedgerShape {
  readonly start: number;
  readonly days: number;
  readonly wallets: number;
  readonly transfers: number;
  /** Labelled addresses that act as hubs (exchanges). */
  readonly hubs: ReadonlyArray<string>;
  /** Risky addresses that send funds into the wallet population. */
  readonly riskySources: ReadonlyArray<string>;
  readonly seed: number;
}

/** Background activity: wallets and hubs paying each other, preferring popular wallets (Zipf-like). */
export function generateLedger(shape: LedgerShape): LedgerTransfer[] {
  const rnd = seededRandom(shape.seed);
  const zipf = () => Math.floor(shape.wallets * rnd() ** 3);
  const pick = (): string => {
    const r = rnd();
    if (r < 0.2 && shape.hubs.length > 0)
      return shape.hubs[Math.floor(rnd() * shape.hubs.length)] ?? wallet(0);
    if (r < 0.22 && shape.riskySources.length > 0)
      return shape.riskySources[Math.floor(rnd() * shape.riskySources.length)] ?? wallet(0);
    return wallet(zipf());
  };
  const span = shape.days * 86_400_000;
  const rows: LedgerTransfer[] = [];
  for (let i = 0; i < shape.transfers; i += 1) {
    const from = pick();
    let to = wallet(zipf());
    if (to === from) to = wallet((zipf() + 1) % shape.wallets);
    rows.push({
      network: "ETH",
      txHash: txHash(1_000_000 + i),
      logIndex: 0,
      tokenId: "native",
      from,
      to,
      amount: Math.round(10 ** (rnd() * 4 - 1) * 1e4) / 1e4,
      occurredAt: shape.start + Math.floor(rnd() * span),
      block: null,
      valueUsd: null,
    });
  }
  return rows;
}
