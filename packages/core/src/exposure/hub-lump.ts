/**
 * The pure part of lumped reads (`LedgerReader.ledgerIncomingLumped`), shared by the readers
 * that hold rows in columns (`LedgerIndex`, `LedgerImageReader`): one address's incoming rows
 * arranged by amount (a {@link HubLump}), and which of them a lumped read presents. The rows are
 * given as a segment of a column block of {@link LUMP_STRIDE} numbers per row, in ledger order:
 * time at 0, amount at 1, block at 3 (NaN: none), log index at 4, the layout of both readers.
 */
import type { LumpQuery } from "../ports/ledger-reader.js";

/** Numbers per row in the column block a lump reads (the layout of both readers' data). */
export const LUMP_STRIDE = 5;

/** Rows per bucket of a {@link HubLump}. */
const LUMP_BUCKET = 64;

/** An address with fewer held incoming rows than this is read whole, never lumped. */
export const LUMP_MIN_ROWS = 2 * LUMP_BUCKET;

/**
 * Most visits of one address in a hop that a lumped read serves; past it every visit reads the
 * address whole. A visit's cost grows with the visits (a segment each, its cut buckets looked at
 * row by row), and the margin below must stay far above the rounding of a sum over the visits.
 */
export const LUMP_MAX_VISITS = 64;

/**
 * Relative margins of a lumped read: a row is left unpresented only when its amount is below
 * the floor's share by more than this (so its part is below the floor whatever the rounding),
 * and only when it is lighter than the heaviest unpresented candidate by more than this (so no
 * unpresented part ties with a presented one). Float rounding is 2^-52; this is far above it.
 */
const LUMP_MARGIN = 1e-9;

/**
 * One address's held incoming rows arranged for lumped reads (positions relative to its
 * segment, in ledger order): the running sum of the amounts that carry weight, the rows whose
 * child must be presented (`flagged`: a sender the screen names, or a child another row of the
 * ledger shares), and per whole bucket of {@link LUMP_BUCKET} rows its other carrying rows by
 * amount, heaviest first.
 */
export interface HubLump {
  /** `sums[k]`: the sum over rows 0..k-1, added left to right as `splitNode` adds them. */
  readonly sums: Float64Array;
  /** Flagged positions, ascending. */
  readonly flagged: Int32Array;
  /** 1 for a flagged row, 2 for a row that carries no weight, 0 for a lumpable one. */
  readonly kind: Uint8Array;
  /** Per whole bucket b, its lumpable positions heaviest first at `byAmount[starts[b]..starts[b+1])`. */
  readonly starts: Int32Array;
  readonly byAmount: Int32Array;
}

/** Where a lumped read's rows are, relative to the segment: what the reader presents. */
export interface LumpedPositions {
  /** Rows of the prefix (those before `q.prefixBefore`). */
  readonly prefixCount: number;
  readonly prefixSum: number;
  /** The presented rows of the prefix, ascending. */
  readonly picked: ReadonlyArray<number>;
  /** End of the held rows before `q.before` (the tail is `[prefixCount, tailEnd)`, then later rows). */
  readonly tailEnd: number;
}

/** First position in `[start, end)` of `data` whose time is >= `at` (strict: > `at`). */
export function searchRows(
  data: Float64Array,
  start: number,
  end: number,
  at: number,
  strict: boolean,
): number {
  let lo = start;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const t = data[mid * LUMP_STRIDE] as number;
    if (t < at || (strict && t === at)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Whether a row at (`at`, `block`, `logIndex`) is at the same position as one at (`t`, `b`,
 * `l`), as `atPosition` in trace-node.ts sees it: same time and block, and the same log index
 * when the block is known. Two rows of one sender at one position have children a backward hop merges.
 */
export function samePosition(
  at: number,
  block: number,
  logIndex: number,
  t: number,
  b: number,
  l: number,
): boolean {
  return t === at && (Number.isNaN(block) ? Number.isNaN(b) : b === block && l === logIndex);
}

/**
 * Builds the {@link HubLump} of the rows `[start, end)` of `data`: `weighs(p)` says whether row
 * `p` may carry weight (it is no self-transfer; its amount must also be above 0), `flags(p)`
 * whether its child must be presented (asked only of rows that carry weight).
 */
export function buildHubLump(
  data: Float64Array,
  start: number,
  end: number,
  weighs: (p: number) => boolean,
  flags: (p: number) => boolean,
): HubLump {
  const n = end - start;
  const sums = new Float64Array(n + 1);
  const kind = new Uint8Array(n);
  const flagged: number[] = [];
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const p = start + i;
    const amount = data[p * LUMP_STRIDE + 1] as number;
    if (amount > 0 && weighs(p)) {
      sum += amount;
      if (flags(p)) {
        kind[i] = 1;
        flagged.push(i);
      }
    } else kind[i] = 2;
    sums[i + 1] = sum;
  }
  const whole = Math.floor(n / LUMP_BUCKET);
  const starts = new Int32Array(whole + 1);
  const byAmount: number[] = [];
  for (let b = 0; b < whole; b++) {
    const bucket: number[] = [];
    for (let i = b * LUMP_BUCKET; i < (b + 1) * LUMP_BUCKET; i++) if (kind[i] === 0) bucket.push(i);
    bucket.sort(
      (x, y) =>
        (data[(start + y) * LUMP_STRIDE + 1] as number) - (data[(start + x) * LUMP_STRIDE + 1] as number),
    );
    byAmount.push(...bucket);
    starts[b + 1] = byAmount.length;
  }
  return { sums, flagged: Int32Array.from(flagged), kind, byAmount: Int32Array.from(byAmount), starts };
}

/**
 * The positions of a lumped read of `q` over the rows `[start, end)` of `data` arranged as
 * `hub`: the prefix, its sum and presented rows, and the end of the held tail. Whole buckets of
 * the prefix cost a walk of their heaviest rows each; the rows of a bucket cut by a visit's end
 * are looked at one by one.
 */
export function lumpedPositions(
  data: Float64Array,
  start: number,
  end: number,
  hub: HubLump,
  q: LumpQuery,
): LumpedPositions {
  const k = searchRows(data, start, end, q.prefixBefore, false) - start;
  const tailEnd = searchRows(data, start + k, end, q.before, false);
  const ends = q.visits.map((v) => searchRows(data, start, end, v.prefixBefore, false) - start);
  return {
    prefixCount: k,
    prefixSum: hub.sums[k] as number,
    picked: pick(data, hub, start, k, q, ends),
    tailEnd,
  };
}

/**
 * The positions of the first `k` rows of `hub` a lumped read of `q` presents, ascending: the
 * flagged ones and, per segment of rows read by the same visits of the hop (`q.visits`; their
 * prefixes end at `ends`), those whose merged part may reach the floor and the heaviest of the
 * others with every one of nearly its amount. Nothing when the prefix's sum is not a positive
 * finite number (the tracer then credits the node whole).
 */
function pick(
  data: Float64Array,
  hub: HubLump,
  start: number,
  k: number,
  q: LumpQuery,
  ends: number[],
): number[] {
  const out: number[] = [];
  const { sums } = hub;
  const own = sums[k] as number;
  if (!(own > 0 && Number.isFinite(own))) return out;
  // A row of the segment [lo, e) is read by every visit whose prefix ends at or after e; its
  // merged part is at most its amount times the sum of weight / prefix sum over those visits
  // (a visit's whole sum is at least its prefix's).
  let lo = 0;
  for (const e of [...new Set(ends)].sort((x, y) => x - y)) {
    if (e <= lo || e > k) continue;
    let per = 0;
    for (const [v, end] of ends.entries()) {
      const sum = sums[end] as number;
      if (end >= e && sum > 0 && Number.isFinite(sum)) per += (q.visits[v]?.weight as number) / sum;
    }
    pickSegment(data, hub, start, lo, e, q.floor / per, out);
    lo = e;
  }
  // Rows another visit reads in its tail (its own time) are presented by every visit.
  for (const [v, end] of ends.entries()) {
    const visit = q.visits[v] as LumpQuery["visits"][number];
    const stop = Math.min(k, searchRows(data, start + end, start + k, visit.before, false) - start);
    for (let i = end; i < stop; i++) if (hub.kind[i] === 0) out.push(i);
  }
  return mergeFlagged(hub.flagged, k, out);
}

/**
 * The flagged positions below `k` (ascending already, most of what a read presents) and the
 * lumpable positions `picked` (few, in any order, possibly repeated; never flagged ones),
 * merged ascending without repeats: only `picked` is sorted.
 */
function mergeFlagged(flagged: Int32Array, k: number, picked: ReadonlyArray<number>): number[] {
  const extra = Int32Array.from(picked).sort();
  const out: number[] = [];
  let f = 0;
  let e = 0;
  let last = -1;
  while (true) {
    const nextFlagged = f < flagged.length && (flagged[f] as number) < k ? (flagged[f] as number) : -1;
    const nextExtra = e < extra.length ? (extra[e] as number) : -1;
    if (nextFlagged < 0 && nextExtra < 0) return out;
    let v: number;
    if (nextExtra < 0 || (nextFlagged >= 0 && nextFlagged <= nextExtra)) {
      v = nextFlagged;
      f++;
    } else {
      v = nextExtra;
      e++;
    }
    if (v !== last) out.push(v);
    last = v;
  }
}

/**
 * Adds to `out` the lumpable rows of `[lo, hi)` a lumped read presents: those at or above
 * `share` (the amount whose merged part may reach the floor), less the margin, and the
 * heaviest of the others with every one within the margin of it. Whole buckets cost a walk of
 * their heaviest rows; the rows of a bucket cut by the segment's ends are looked at one by one.
 */
function pickSegment(
  data: Float64Array,
  hub: HubLump,
  start: number,
  lo: number,
  hi: number,
  share: number,
  out: number[],
): void {
  const amountAt = (i: number) => data[(start + i) * LUMP_STRIDE + 1] as number;
  const below = share * (1 - LUMP_MARGIN);
  const { byAmount, starts, kind } = hub;
  const firstBucket = Math.ceil(lo / LUMP_BUCKET);
  const lastBucket = Math.floor(hi / LUMP_BUCKET);
  const loose: number[] = [];
  if (firstBucket >= lastBucket) for (let i = lo; i < hi; i++) loose.push(i);
  else {
    for (let i = lo; i < firstBucket * LUMP_BUCKET; i++) loose.push(i);
    for (let i = lastBucket * LUMP_BUCKET; i < hi; i++) loose.push(i);
  }
  // Whole buckets: their rows at or above `below`, heaviest first; note the heaviest under it.
  let heaviest = -1;
  const firstUnder: number[] = [];
  for (let b = firstBucket; b < lastBucket; b++) {
    let j = starts[b] as number;
    const stop = starts[b + 1] as number;
    for (; j < stop; j++) {
      const i = byAmount[j] as number;
      const a = amountAt(i);
      if (!(a < below)) out.push(i);
      else {
        if (a > heaviest) heaviest = a;
        break;
      }
    }
    firstUnder.push(j);
  }
  const under: number[] = [];
  for (const i of loose) {
    if (kind[i] !== 0) continue;
    const a = amountAt(i);
    if (!(a < below)) out.push(i);
    else {
      under.push(i);
      if (a > heaviest) heaviest = a;
    }
  }
  // The heaviest unpresented candidates: every row within the margin of the heaviest.
  const near = heaviest * (1 - LUMP_MARGIN);
  for (let b = firstBucket; b < lastBucket; b++) {
    const stop = starts[b + 1] as number;
    for (let j = firstUnder[b - firstBucket] as number; j < stop; j++) {
      const i = byAmount[j] as number;
      if (amountAt(i) < near) break;
      out.push(i);
    }
  }
  for (const i of under) if (!(amountAt(i) < near)) out.push(i);
}
