/**
 * Recall of tracing on the MFTracer laundering cases: with each case's source addresses
 * labelled `stolen_funds`, how many of its terminal addresses (where the funds ended) show the
 * stolen funds in their address exposure (a manual address check after the last edge); and,
 * forward, what share of the sources' outgoing funds the destination-of-funds trace brings to
 * the terminals. At the defaults and at the settings before them (5 hops, no floor, no block
 * order), so the table shows what each rule adds. Reads ../shared/data in place; skips, saying
 * so, when it is absent.
 */
import {
  type Attribution,
  createEntityResolver,
  createMemoryStore,
  DEFAULT_EDGE_BUDGET,
  DEFAULT_MAX_HOPS,
  DEFAULT_MIN_PATH_WEIGHT,
  LedgerIndex,
  type LedgerTransfer,
  mayFund,
  storeAttributionSource,
  storeSanctionsSource,
  traceAddressExposure,
} from "@openkyt/core";
import { type Figure, figure, percentile } from "../bench-stats.js";
import { CASE_TOKEN, type LaunderingCase, MFTRACER_DIR, readLaunderingCases } from "./mftracer-cases.js";
import { terminalsThroughImport } from "./recall-import.js";

/** One traced setting. */
interface Setting {
  readonly label: string;
  readonly maxHops: number;
  readonly minPathWeight: number;
  /** false: the ledger's blocks are dropped, so transfers are ordered by time alone. */
  readonly blocks: boolean;
}

const SETTINGS: ReadonlyArray<Setting> = [
  { label: "before (5 hops, time order, no floor)", maxHops: 5, minPathWeight: 0, blocks: false },
  { label: "20 hops, time order, no floor", maxHops: 20, minPathWeight: 0, blocks: false },
  {
    label: "defaults",
    maxHops: DEFAULT_MAX_HOPS,
    minPathWeight: DEFAULT_MIN_PATH_WEIGHT,
    blocks: true,
  },
];

/** The default model's lowest address-exposure tier of the `high` group (stolen_funds). */
const RISK_SHARE = 0.02;
const AFTER_ALL = Number.MAX_SAFE_INTEGER;

/** What one case gave under one setting. */
interface CaseOutcome {
  readonly shown: number;
  readonly risky: number;
  readonly reachable: number;
  readonly inOrder: number;
  readonly forwardShare: number;
  readonly ms: number[];
  readonly edges: number[];
}

function attributions(addresses: ReadonlyArray<string>, category: string, name: string): Attribution[] {
  return addresses.map((address) => ({
    network: "ETH",
    address,
    entityName: name,
    entityCategory: category,
    source: "bench",
  }));
}

async function resolverFor(labelled: ReadonlyArray<Attribution>) {
  const memory = createMemoryStore();
  await memory.putAttributions(labelled);
  return createEntityResolver({
    attributions: storeAttributionSource(memory),
    sanctions: storeSanctionsSource(memory),
  });
}

/** Terminals that any edge reaches at all (the rest cannot be found by any tracer of these edges). */
function reachableTerminals(c: LaunderingCase): number {
  const into = new Set(c.rows.map((r) => r.to));
  return c.terminals.filter((t) => into.has(t)).length;
}

/**
 * Terminals a source reaches through transfers each of which may fund the next (the order rule
 * of `rows`, no hop limit, no floor, no budget): the most that any tracer of these edges that
 * keeps the order can show.
 */
function terminalsInOrder(c: LaunderingCase, rows: ReadonlyArray<LedgerTransfer>): number {
  const into = new Map<string, LedgerTransfer[]>();
  for (const r of rows) into.set(r.to, [...(into.get(r.to) ?? []), r]);
  const sources = new Set(c.sources);
  return c.terminals.filter((terminal) => {
    const seen = new Set<LedgerTransfer>(into.get(terminal) ?? []);
    const queue = [...seen];
    for (let e = queue.pop(); e !== undefined; e = queue.pop()) {
      if (sources.has(e.from)) return true;
      for (const before of into.get(e.from) ?? []) {
        if (seen.has(before) || !mayFund(before, e)) continue;
        seen.add(before);
        queue.push(before);
      }
    }
    return false;
  }).length;
}

async function runCase(c: LaunderingCase, s: Setting): Promise<CaseOutcome> {
  const rows: LedgerTransfer[] = s.blocks ? [...c.rows] : c.rows.map((r) => ({ ...r, block: null }));
  const ledger = new LedgerIndex();
  ledger.add(rows);
  const limits = { maxHops: s.maxHops, minPathWeight: s.minPathWeight, edgeBudget: DEFAULT_EDGE_BUDGET };
  const common = { ledger, network: "ETH", tokenId: CASE_TOKEN, span: { from: 0, to: AFTER_ALL }, ...limits };
  // Backward: sources labelled stolen_funds, each terminal checked as a sender after the last edge.
  const backward = await resolverFor(attributions(c.sources, "stolen_funds", `${c.name} theft`));
  let shown = 0;
  let risky = 0;
  const ms: number[] = [];
  const edges: number[] = [];
  for (const terminal of c.terminals) {
    const t0 = performance.now();
    const result = await traceAddressExposure({
      ...common,
      resolver: backward,
      address: terminal,
      side: "sender",
      at: AFTER_ALL,
    });
    ms.push(performance.now() - t0);
    edges.push(result.exposure?.edgesRead ?? 0);
    const stolen = result.entity
      ? result.entity.category === "stolen_funds"
        ? 1
        : 0
      : (result.exposure?.shares.find((x) => x.category === "stolen_funds")?.share ?? 0);
    if (stolen > 0) shown++;
    if (stolen >= RISK_SHARE - 1e-9) risky++;
  }
  // Forward: terminals labelled, each source's outgoing funds followed; weighted by what it sent.
  const forward = await resolverFor(attributions(c.terminals, "other", `${c.name} terminal`));
  let sent = 0;
  let arrived = 0;
  for (const source of c.sources) {
    const out = rows.filter((r) => r.from === source && r.to !== source).reduce((a, r) => a + r.amount, 0);
    if (!(out > 0)) continue;
    const result = await traceAddressExposure({
      ...common,
      resolver: forward,
      address: source,
      side: "recipient",
      at: AFTER_ALL,
    });
    const share = result.entity
      ? 0
      : (result.exposure?.shares.find((x) => x.category === "other")?.share ?? 0);
    sent += out;
    arrived += out * share;
  }
  return {
    shown,
    risky,
    reachable: reachableTerminals(c),
    inOrder: terminalsInOrder(c, rows),
    forwardShare: sent > 0 ? arrived / sent : 0,
    ms,
    edges,
  };
}

/** The recall figures, per case and in total, for each setting; none when the data is absent. */
export async function benchRecall(): Promise<Figure[]> {
  const cases = readLaunderingCases();
  if (cases.length === 0) {
    console.error(`recall skipped: no MFTracer cases at ${MFTRACER_DIR} (set OPENKYT_SHARED_DATA)`);
    return [];
  }
  const figures: Figure[] = [];
  const terminals = cases.reduce((a, c) => a + c.terminals.length, 0);
  for (const s of SETTINGS) {
    let shown = 0;
    let risky = 0;
    let reachable = 0;
    let inOrder = 0;
    let weighted = 0;
    const ms: number[] = [];
    const edges: number[] = [];
    for (const c of cases) {
      const o = await runCase(c, s);
      shown += o.shown;
      risky += o.risky;
      reachable += o.reachable;
      inOrder += o.inOrder;
      weighted += o.forwardShare;
      ms.push(...o.ms);
      edges.push(...o.edges);
      figures.push(
        figure(`${s.label}: ${c.name} terminals showing the stolen funds`, `of ${c.terminals.length}`, [
          o.shown,
        ]),
        figure(`${s.label}: ${c.name} terminals at >= 2% (a risk by default)`, `of ${c.terminals.length}`, [
          o.risky,
        ]),
        figure(`${s.label}: ${c.name} sources' outgoing funds reaching terminals`, "%", [
          100 * o.forwardShare,
        ]),
      );
    }
    figures.push(
      figure(
        `${s.label}: all terminals showing the stolen funds`,
        `of ${terminals}`,
        [shown],
        `>= ${Math.ceil(0.97 * terminals)} (97%)`,
      ),
      figure(`${s.label}: terminals a source reaches by transfers in order`, `of ${terminals}`, [inOrder]),
      figure(`${s.label}: terminals any edge reaches`, `of ${terminals}`, [reachable]),
      figure(`${s.label}: all terminals at >= 2% (a risk by default)`, `of ${terminals}`, [risky]),
      figure(`${s.label}: forward share reaching terminals (mean of cases)`, "%", [
        (100 * weighted) / cases.length,
      ]),
      figure(`${s.label}: address check p99 on the cases`, "ms", [percentile(ms, 99)]),
      figure(`${s.label}: edges read per check (p99)`, "edges", [percentile(edges, 99)]),
    );
  }
  // The same cases as a user gets them in: a ledger CSV through `openkyt import`'s importer.
  for (const [indexing, label] of [
    ["unknown", "log_index -1, -2, ... (position in the block unknown)"],
    ["claimed", "log_index 0, 1, ... (an order the data does not have)"],
  ] as const) {
    let shown = 0;
    for (const c of cases) shown += await terminalsThroughImport(c, indexing);
    figures.push(
      figure(
        `defaults, through openkyt import, ${label}: terminals showing the stolen funds`,
        `of ${terminals}`,
        [shown],
      ),
    );
  }
  return figures;
}
