/**
 * The "real" ledger shape: degrees, amounts and labels fitted to real transfer graphs (the five
 * MFTracer cases, the Ronin/Lazarus graph and the Tron seized-wallet graph; the fit is
 * `bench/src/shape/fit-real-shape.ts`, its figures docs/benchmarks.md).
 *
 * A Chung-Lu graph on ranked addresses: address n (1-based) sends with weight
 * (n + OFFSET)^(-1 / (outAlpha - 1)) and receives with weight (n + OFFSET)^(-1 / (inAlpha - 1)),
 * so out- and in-degrees are power laws of those exponents (CCDF slopes alpha - 1), and the same
 * few addresses lead both (as exchange hot wallets do). Every transfer draws its sender and its
 * recipient by those weights: hubs take tens of thousands of transfers of a million. Amounts
 * are log-normal. A share of the hubs is attributed (exchanges and other services), the rest
 * are unknown services a trace has to read through; of the other addresses with transfers about
 * 2% are attributed and 0.1% sanctioned.
 */
import type { Attribution, LedgerTransfer, SanctionsListing } from "@openkyt/core";

/** The fitted parameters (see the module comment); the fit script prints them next to these. */
export const REAL_SHAPE = Object.freeze({
  /** Power-law exponent of in-degrees (P(k) ~ k^-alpha). */
  inAlpha: 1.9,
  /** Power-law exponent of out-degrees. */
  outAlpha: 1.95,
  /** Transfers per distinct address (addresses = transfers / this). */
  transfersPerAddress: 4,
  /** Mean and standard deviation of ln(amount). */
  amountLogMean: 6.6,
  amountLogSd: 2.9,
  /**
   * Days the ledger spans unless told: transfers are spread evenly in time, so this sets the gap
   * between an address's transfers (about an hour at the median on 1M transfers, as measured).
   */
  days: 10,
  /** Share of the non-hub addresses attributed to an entity. */
  attributedShare: 0.02,
  /** Share of the non-hub addresses on a sanctions list. */
  sanctionedShare: 0.001,
  /** The addresses of the largest weights. */
  hubs: 50,
  /** Share of the hubs attributed (the others are services no list names). */
  hubAttributedShare: 0.5,
});

/** Rank offset of the weights: keeps the first hub from taking an outsized share. */
const OFFSET = 1;

/** Categories of attributed hubs, in turn. */
const HUB_CATEGORIES: ReadonlyArray<string> = ["exchange", "exchange", "dex", "bridge", "exchange", "mixer"];

/** Cumulative weights of ranks 1..n for exponent alpha. */
function cumulativeWeights(n: number, alpha: number): Float64Array {
  const s = 1 / (alpha - 1);
  const out = new Float64Array(n);
  let acc = 0;
  for (let r = 0; r < n; r++) {
    acc += (r + 1 + OFFSET) ** -s;
    out[r] = acc;
  }
  return out;
}

/** The 1-based rank whose cumulative weight first exceeds u * total. */
function drawRank(cumulative: Float64Array, u: number): number {
  const target = u * (cumulative[cumulative.length - 1] as number);
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((cumulative[mid] as number) <= target) lo = mid + 1;
    else hi = mid;
  }
  return lo + 1;
}

/** A standard normal draw (Box-Muller) from two uniform ones. */
function normal(rnd: () => number): number {
  const u = 1 - rnd();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd());
}

/** What the real shape needs of the generator's options. */
export interface RealShapeInput {
  readonly transfers: number;
  readonly addresses: number;
  readonly hubCount: number;
  readonly network: string;
  readonly tokens: ReadonlyArray<string>;
  readonly start: number;
  readonly span: number;
}

/** Sender rank, recipient rank and amount of each transfer, in ledger order. */
function* drawTransfers(
  transfers: number,
  addresses: number,
  rnd: () => number,
): Generator<readonly [from: number, to: number, amount: number]> {
  const senders = cumulativeWeights(addresses, REAL_SHAPE.outAlpha);
  const recipients = cumulativeWeights(addresses, REAL_SHAPE.inAlpha);
  for (let i = 0; i < transfers; i += 1) {
    const from = drawRank(senders, rnd());
    let to = drawRank(recipients, rnd());
    // A hub sending to itself: draw again a few times, then take the next address.
    for (let k = 0; to === from && k < 4; k++) to = drawRank(recipients, rnd());
    if (to === from) to = (from % addresses) + 1;
    const amount = Math.exp(REAL_SHAPE.amountLogMean + REAL_SHAPE.amountLogSd * normal(rnd));
    yield [from, to, Math.max(1e-6, Math.round(amount * 1e6) / 1e6)];
  }
}

/** The rows of a real-shaped ledger in time order. */
export function* realShapedRows(
  input: RealShapeInput,
  rnd: () => number,
  txHash: (n: number) => string,
  address: (n: number) => string,
): Generator<LedgerTransfer> {
  const { transfers, addresses, network, tokens, start, span } = input;
  let i = 0;
  for (const [from, to, amount] of drawTransfers(transfers, addresses, rnd)) {
    yield {
      network,
      txHash: txHash(i + 1),
      logIndex: 0,
      tokenId: tokens[i % tokens.length] ?? "native",
      from: address(from),
      to: address(to),
      amount,
      occurredAt: start + Math.floor((i / transfers) * span),
      block: 1 + i,
      valueUsd: null,
    };
    i += 1;
  }
}

/** Attributions and sanctions of a real-shaped ledger (see the module comment). */
export function realShapedReferenceData(
  input: Pick<RealShapeInput, "transfers" | "addresses" | "hubCount" | "network">,
  rowsRandom: () => number,
  rnd: () => number,
  address: (n: number) => string,
  pickCategory: (r: number) => string,
  shares: { readonly attributed: number; readonly sanctioned: number },
): { attributions: Attribution[]; sanctions: SanctionsListing[]; hubs: string[] } {
  const { addresses, hubCount, network } = input;
  // The shares are of the addresses that have transfers (with power-law weights a third of the
  // ranked ones have none): the rows' draws, replayed, say which.
  const active = new Uint8Array(addresses + 1);
  for (const [from, to] of drawTransfers(input.transfers, addresses, rowsRandom)) {
    active[from] = 1;
    active[to] = 1;
  }
  const hubs = Array.from({ length: hubCount }, (_, i) => address(i + 1));
  const attributions: Attribution[] = [];
  for (let n = 1; n <= hubCount; n++) {
    if (rnd() >= REAL_SHAPE.hubAttributedShare) continue;
    const category = HUB_CATEGORIES[n % HUB_CATEGORIES.length] ?? "exchange";
    attributions.push({
      network,
      address: address(n),
      entityName: `${category} hub ${n}`,
      entityCategory: category,
      source: "generated",
    });
  }
  const sanctions: SanctionsListing[] = [];
  for (let n = hubCount + 1; n <= addresses; n += 1) {
    if (active[n] === 0) continue;
    const r = rnd();
    if (r < shares.sanctioned) {
      sanctions.push({
        network,
        address: address(n),
        listName: "Generated SDN",
        program: "TEST",
        entity: `Sanctioned ${n}`,
        listedAt: null,
        delistedAt: null,
      });
    } else if (r < shares.sanctioned + shares.attributed) {
      const category = pickCategory(rnd());
      attributions.push({
        network,
        address: address(n),
        entityName: `${category} ${n}`,
        entityCategory: category,
        source: "generated",
      });
    }
  }
  return { attributions, sanctions, hubs };
}
