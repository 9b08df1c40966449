/**
 * The real transfer graphs of ../shared/data/transfer-graphs (read in place, never copied: some
 * have no licence, see its SOURCES.md) as plain edge lists, and the statistics the ledger
 * generator's "real" shape is fitted to: degree distributions, amounts and time gaps.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** One transfer of a real graph. */
export interface RealEdge {
  readonly from: string;
  readonly to: string;
  /** In USD (MFTracer, Tron USDT), or null when the graph gives no USD value (Ronin: ETH). */
  readonly amountUsd: number | null;
  readonly at: number;
}

/** A named real graph. */
export interface RealGraph {
  readonly name: string;
  readonly edges: ReadonlyArray<RealEdge>;
}

/** The shared data folder, or null when absent (OPENKYT_SHARED_DATA, else ../shared/data of the checkout or its parent). */
export function sharedDataDir(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = join(here, "..", "..", "..");
  const candidates = [
    process.env.OPENKYT_SHARED_DATA,
    join(root, "..", "shared", "data"),
    join(root, "..", "..", "shared", "data"),
  ];
  for (const c of candidates) if (c && existsSync(join(c, "transfer-graphs"))) return c;
  return null;
}

/** Splits one CSV line (quoted fields with commas allowed). */
function splitCsv(line: string): string[] {
  const out: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      out.push(field);
      field = "";
    } else field += c;
  }
  out.push(field);
  return out;
}

/** Rows of a CSV file as records by header name. */
function readCsv(file: string): Array<Record<string, string>> {
  const lines = readFileSync(file, "utf8")
    .split(/\r?\n/)
    .filter((l) => l.length > 0);
  const header = splitCsv(lines[0] ?? "");
  return lines.slice(1).map((line) => {
    const cells = splitCsv(line);
    return Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ""]));
  });
}

/** The five MFTracer cases, the Ronin/Lazarus graph and the Tron seized-wallet graph. */
export function readRealGraphs(dataDir: string): RealGraph[] {
  const base = join(dataDir, "transfer-graphs");
  const graphs: RealGraph[] = [];
  for (const name of ["54m", "LIFI", "Atomic", "HB", "XScam"]) {
    const rows = readCsv(join(base, "mftracer-ground-truth", name, `${name}.csv`));
    graphs.push({
      name: `MFTracer ${name}`,
      edges: rows.map((r) => ({
        from: (r.From ?? "").toLowerCase(),
        to: (r.To ?? "").toLowerCase(),
        amountUsd: Number(r.Value_in_USD),
        at: Date.parse(`${(r.Timestamp ?? "").replace(" ", "T")}Z`),
      })),
    });
  }
  const ronin = readCsv(join(base, "lazarus-ronin-eth", "LazarusTabularTxs1322519.csv"));
  graphs.push({
    name: "Ronin/Lazarus",
    edges: ronin.map((r) => ({
      from: (r.from ?? "").replace("\\x", "0x"),
      to: (r.to ?? "").replace("\\x", "0x"),
      amountUsd: null,
      at: Date.parse(r.block_time ?? ""),
    })),
  });
  const tron = readCsv(join(base, "israel-nbctf-aso-tron", "trc20_xfers.csv"));
  graphs.push({
    name: "Tron seized wallets",
    edges: tron.map((r) => ({
      from: r.from_address ?? "",
      to: r.to_address ?? "",
      // USDT and USDC are worth a dollar; other tokens have no USD value here.
      amountUsd: /^USD[TC]$/.test(r.token_abbr ?? "")
        ? Number(r.quant) / 10 ** Number(r.token_decimal)
        : null,
      at: Number(r.timestamp),
    })),
  });
  return graphs;
}

/** In- and out-degree (transfers) of every address of an edge list. */
export function degrees(edges: ReadonlyArray<{ from: string; to: string }>): {
  inDegrees: number[];
  outDegrees: number[];
} {
  const fanIn = new Map<string, number>();
  const fanOut = new Map<string, number>();
  for (const e of edges) {
    fanIn.set(e.to, (fanIn.get(e.to) ?? 0) + 1);
    fanOut.set(e.from, (fanOut.get(e.from) ?? 0) + 1);
  }
  return { inDegrees: [...fanIn.values()], outDegrees: [...fanOut.values()] };
}

/**
 * Power-law fit of positive integers: the exponent alpha of P(k) ~ k^-alpha for k >= xmin by
 * the discrete maximum-likelihood approximation alpha = 1 + n / sum(ln(k / (xmin - 1/2))), with
 * xmin (1..10) the one whose fitted tail is nearest the data (Kolmogorov-Smirnov distance).
 */
export function fitPowerLaw(values: ReadonlyArray<number>): { alpha: number; xmin: number; tail: number } {
  let best = { alpha: Number.NaN, xmin: 1, tail: 0, ks: Number.POSITIVE_INFINITY };
  for (let xmin = 1; xmin <= 10; xmin++) {
    const tail = values.filter((v) => v >= xmin).sort((a, b) => a - b);
    if (tail.length < 20) break;
    const alpha = 1 + tail.length / tail.reduce((s, k) => s + Math.log(k / (xmin - 0.5)), 0);
    // KS distance between the empirical and the fitted (continuous approximation) CCDF.
    let ks = 0;
    for (let i = 0; i < tail.length; i++) {
      const k = tail[i] as number;
      if (i + 1 < tail.length && tail[i + 1] === k) continue;
      const empirical = (tail.length - i - 1) / tail.length;
      const fitted = ((k + 0.5) / (xmin - 0.5)) ** (1 - alpha);
      ks = Math.max(ks, Math.abs(empirical - fitted));
    }
    if (ks < best.ks) best = { alpha, xmin, tail: tail.length, ks };
  }
  return { alpha: best.alpha, xmin: best.xmin, tail: best.tail };
}

/** Mean and standard deviation of ln(x) over positive values (a log-normal fit). */
export function logNormal(values: ReadonlyArray<number>): { mu: number; sigma: number; n: number } {
  const logs = values.filter((v) => v > 0 && Number.isFinite(v)).map(Math.log);
  const mu = logs.reduce((s, x) => s + x, 0) / Math.max(1, logs.length);
  const variance = logs.reduce((s, x) => s + (x - mu) ** 2, 0) / Math.max(1, logs.length - 1);
  return { mu, sigma: Math.sqrt(variance), n: logs.length };
}

/** Gaps in seconds between an address's consecutive transfers (either direction), over every address. */
export function timeGaps(edges: ReadonlyArray<{ from: string; to: string; at: number }>): number[] {
  const times = new Map<string, number[]>();
  for (const e of edges) {
    for (const a of e.from === e.to ? [e.from] : [e.from, e.to]) {
      const list = times.get(a);
      if (list) list.push(e.at);
      else times.set(a, [e.at]);
    }
  }
  const gaps: number[] = [];
  for (const list of times.values()) {
    list.sort((a, b) => a - b);
    for (let i = 1; i < list.length; i++) gaps.push(((list[i] as number) - (list[i - 1] as number)) / 1000);
  }
  return gaps;
}

/** The value at percentile p (0..100) of a list. */
export function quantile(values: ReadonlyArray<number>, p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Points (k, P(K >= k)) of the complementary cumulative distribution of positive integers. */
export function ccdf(values: ReadonlyArray<number>): Array<[number, number]> {
  const sorted = values.filter((v) => v > 0).sort((a, b) => a - b);
  const out: Array<[number, number]> = [];
  for (let i = 0; i < sorted.length; i++) {
    if (i > 0 && sorted[i - 1] === sorted[i]) continue;
    out.push([sorted[i] as number, (sorted.length - i) / sorted.length]);
  }
  return out;
}
