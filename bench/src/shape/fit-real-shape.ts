/**
 * Measures the real transfer graphs (degrees, amounts, time gaps), prints the fitted parameters
 * next to those of the generator's "real" shape (REAL_SHAPE) and of the generated ledgers, and
 * draws the log-log CCDF of real versus generated in- and out-degrees into
 * docs/images/ledger-shape-degrees.png (an SVG drawn here, rendered by resvg).
 *
 *   node --conditions=source --import tsx bench/src/shape/fit-real-shape.ts [transfers=100000]
 *
 * Skips with a message when ../shared/data is absent (the graphs are read in place, never copied).
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type LedgerShapeName, ledgerReferenceData, ledgerRows, REAL_SHAPE } from "@openkyt/testkit";
import { Resvg } from "@resvg/resvg-js";
import { benchShape } from "../bench-ledger-db.js";
import {
  ccdf,
  degrees,
  fitPowerLaw,
  logNormal,
  quantile,
  readRealGraphs,
  sharedDataDir,
  timeGaps,
} from "./real-graphs.js";
import { type Series, svgCcdfPlot } from "./svg-plot.js";

const here = dirname(fileURLToPath(import.meta.url));
const transfers = Number(process.argv[2] ?? 100_000);
const dataDir = sharedDataDir();
if (!dataDir) {
  console.log("../shared/data/transfer-graphs is absent: nothing to fit (set OPENKYT_SHARED_DATA)");
  process.exit(0);
}

const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : "-");
const graphs = readRealGraphs(dataDir);
const rows: string[][] = [];
const allIn: number[] = [];
const allOut: number[] = [];
const allAmounts: number[] = [];
const allGaps: number[] = [];
for (const g of graphs) {
  const { inDegrees, outDegrees } = degrees(g.edges);
  const nodes = new Set(g.edges.flatMap((e) => [e.from, e.to])).size;
  const amounts = g.edges.map((e) => e.amountUsd).filter((a): a is number => a !== null);
  const gaps = timeGaps(g.edges);
  allIn.push(...inDegrees);
  allOut.push(...outDegrees);
  allAmounts.push(...amounts);
  allGaps.push(...gaps);
  rows.push(describe(g.name, g.edges.length, nodes, inDegrees, outDegrees, amounts, gaps));
}
rows.push(
  describe(
    "all real graphs",
    allIn.reduce((s, k) => s + k, 0),
    Number.NaN,
    allIn,
    allOut,
    allAmounts,
    allGaps,
  ),
);

/** One generated ledger, measured the same way. */
function generated(shape: LedgerShapeName) {
  const edges = [...ledgerRows(benchShape(transfers, shape))].map((r) => ({
    from: r.from,
    to: r.to,
    amountUsd: r.amount,
    at: r.occurredAt,
  }));
  const { inDegrees, outDegrees } = degrees(edges);
  const nodes = new Set(edges.flatMap((e) => [e.from, e.to])).size;
  const ref = ledgerReferenceData(benchShape(transfers, shape));
  const labelled = (ref.attributions.length / nodes) * 100;
  const sanctioned = (ref.sanctions.length / nodes) * 100;
  const fanIn = new Map<string, number>();
  for (const e of edges) fanIn.set(e.to, (fanIn.get(e.to) ?? 0) + 1);
  const attributed = new Set(ref.attributions.map((a) => a.address));
  const unlabelledHubRows = [...fanIn].reduce((m, [a, k]) => (attributed.has(a) ? m : Math.max(m, k)), 0);
  const row = describe(
    `generated ${shape}, ${transfers.toLocaleString("en-US")}`,
    edges.length,
    nodes,
    inDegrees,
    outDegrees,
    edges.map((e) => e.amountUsd),
    timeGaps(edges),
  );
  return { inDegrees, outDegrees, row, labelled, sanctioned, unlabelledHubRows };
}
const real = generated("real");
const classic = generated("classic");
rows.push(real.row, classic.row);

const header = [
  "graph",
  "transfers",
  "addresses",
  "alpha in (xmin)",
  "alpha out (xmin)",
  "max in",
  "max out",
  "ln amount mu, sigma",
  "gap median s, p90 s",
];
console.log(header.join(" | "));
for (const r of rows) console.log(r.join(" | "));
console.log(
  `\nREAL_SHAPE: ${JSON.stringify(REAL_SHAPE)}\n` +
    `generated real: ${f2(real.labelled)}% of addresses attributed, ${f2(real.sanctioned)}% sanctioned, busiest unattributed recipient ${real.unlabelledHubRows} incoming transfers\n` +
    `generated classic: ${f2(classic.labelled)}% attributed, ${f2(classic.sanctioned)}% sanctioned, busiest unattributed recipient ${classic.unlabelledHubRows} incoming transfers`,
);

function describe(
  name: string,
  edgeCount: number,
  nodes: number,
  inDegrees: number[],
  outDegrees: number[],
  amounts: number[],
  gaps: number[],
): string[] {
  const fin = fitPowerLaw(inDegrees);
  const fout = fitPowerLaw(outDegrees);
  const amount = logNormal(amounts);
  return [
    name,
    String(edgeCount),
    Number.isFinite(nodes) ? String(nodes) : "-",
    `${f2(fin.alpha)} (${fin.xmin})`,
    `${f2(fout.alpha)} (${fout.xmin})`,
    String(inDegrees.reduce((m, k) => Math.max(m, k), 0)),
    String(outDegrees.reduce((m, k) => Math.max(m, k), 0)),
    amount.n > 0 ? `${f2(amount.mu)}, ${f2(amount.sigma)}` : "-",
    gaps.length > 0 ? `${Math.round(quantile(gaps, 50))}, ${Math.round(quantile(gaps, 90))}` : "-",
  ];
}

const panels: Array<{ title: string; series: Series[] }> = [
  {
    title: "in-degree (transfers received per address)",
    series: [
      { label: "real graphs (7, pooled)", points: ccdf(allIn), color: "#222222", dots: true },
      {
        label: `generated "real", ${transfers.toLocaleString("en-US")}`,
        points: ccdf(real.inDegrees),
        color: "#d95f02",
      },
      {
        label: `generated "classic", ${transfers.toLocaleString("en-US")}`,
        points: ccdf(classic.inDegrees),
        color: "#1b9e77",
      },
    ],
  },
  {
    title: "out-degree (transfers sent per address)",
    series: [
      { label: "real graphs (7, pooled)", points: ccdf(allOut), color: "#222222", dots: true },
      {
        label: `generated "real", ${transfers.toLocaleString("en-US")}`,
        points: ccdf(real.outDegrees),
        color: "#d95f02",
      },
      {
        label: `generated "classic", ${transfers.toLocaleString("en-US")}`,
        points: ccdf(classic.outDegrees),
        color: "#1b9e77",
      },
    ],
  },
];
const svg = svgCcdfPlot(panels);
const png = new Resvg(svg, { font: { loadSystemFonts: true, defaultFontFamily: "DejaVu Sans" } })
  .render()
  .asPng();
const out = join(here, "..", "..", "..", "docs", "images", "ledger-shape-degrees.png");
writeFileSync(out, png);
console.log(`wrote ${out}`);
