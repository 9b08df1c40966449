/**
 * Exposure tracing per transfer on the generated ledger at 5, 10 and 20 hops (the default depth
 * and weight floor; 5 hops also without the floor, as traced before the floor existed): cold
 * (every hop read from the SQLite store) and warm (the ledger in an in-memory LedgerIndex,
 * reference data in maps), with the edges read and the CPU per trace.
 */
import {
  createEngine,
  createEntityResolver,
  createMemoryStore,
  DEFAULT_EDGE_BUDGET,
  DEFAULT_MIN_PATH_WEIGHT,
  type EntityResolver,
  LedgerIndex,
  type LedgerTransfer,
  type Store,
  storeAttributionSource,
  storeSanctionsSource,
  traceAddressExposure,
  traceTransferExposure,
  wholeAttributionSource,
  wholeSanctionsSource,
} from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { generatedTxHash, ledgerReferenceData, seededRandom } from "@openkyt/testkit";
import { benchShape, ledgerCopy, ledgerLabel, removeCopy } from "./bench-ledger-db.js";
import { type Figure, figure, percentile } from "./bench-stats.js";

/** Picks `count` ledger transfers at random (seeded). */
export async function sampleTransfers(
  store: { ledgerByTxHash(n: string, h: string): Promise<ReadonlyArray<LedgerTransfer>> },
  ledgerSize: number,
  count: number,
): Promise<LedgerTransfer[]> {
  const rnd = seededRandom(99);
  const out: LedgerTransfer[] = [];
  const picked = new Set<number>();
  // Skip the first tenth: early transfers have little history behind them. No transfer twice.
  while (out.length < count) {
    const n = Math.floor(ledgerSize * (0.1 + 0.9 * rnd()));
    if (picked.has(n)) continue;
    picked.add(n);
    const row = (await store.ledgerByTxHash("ETH", generatedTxHash(n)))[0];
    if (row) out.push(row);
  }
  return out;
}

/**
 * Registers `sample` as incoming transfers of `account` in `store`, 16 at a time (bind jobs
 * queued, nothing run): the set-up of the benchmarks whose workers then check them.
 */
export async function registerIncoming(
  store: Store,
  account: string,
  sample: ReadonlyArray<LedgerTransfer>,
): Promise<void> {
  const api = createEngine({ store }).forAccount(account);
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < sample.length) {
        const row = sample[next++] as LedgerTransfer;
        await api.registerTransfer({
          direction: "incoming",
          network: row.network,
          tx_hash: row.txHash,
          token_id: row.tokenId,
          output_address: row.to,
        });
      }
    }),
  );
}

/** What a trace of a sampled row reads: the ledger and the resolver of its labels. */
export type TraceDeps = Pick<Parameters<typeof traceTransferExposure>[0], "ledger" | "resolver">;

/**
 * The incoming trace (the origin of funds) of a sampled ledger row as a deposit of 1,000 at its
 * own time: `maxHops` deep at the weight floor `minPathWeight` (the default) and the default
 * edge budget.
 */
export function traceSampleRow(
  deps: TraceDeps,
  row: LedgerTransfer,
  maxHops: number,
  minPathWeight = DEFAULT_MIN_PATH_WEIGHT,
): ReturnType<typeof traceTransferExposure> {
  return traceTransferExposure({
    ...deps,
    network: row.network,
    tokenId: row.tokenId,
    direction: "incoming",
    counterparty: row.from,
    at: row.occurredAt,
    value: 1_000,
    span: { from: row.occurredAt, to: row.occurredAt },
    maxHops,
    minPathWeight,
    edgeBudget: DEFAULT_EDGE_BUDGET,
  });
}

/**
 * Both traces the engine runs for a sampled row screened as a deposit of 1,000 at its own time,
 * at the engine's defaults: the origin of funds (back from the sender) and the sender's address
 * exposure, one after the other.
 */
export async function screenedTraces(
  deps: TraceDeps,
  row: LedgerTransfer,
): Promise<{
  readonly transfer: Awaited<ReturnType<typeof traceTransferExposure>>;
  readonly address: Awaited<ReturnType<typeof traceAddressExposure>>;
}> {
  const span = { from: row.occurredAt, to: row.occurredAt };
  const common = { ...deps, network: row.network, tokenId: row.tokenId, at: row.occurredAt, span };
  const transfer = await traceTransferExposure({
    ...common,
    direction: "incoming",
    counterparty: row.from,
    value: 1_000,
  });
  const address = await traceAddressExposure({ ...common, address: row.from, side: "sender" });
  return { transfer, address };
}

/**
 * A resolver over `ref`'s labels and sanctions held whole, as a warm process holds them: the
 * sources then name the addresses that may resolve (`addressScreen`), which lets an in-memory
 * ledger lump a hub's rows. Throws when the rows are too many to hold whole.
 */
export async function wholeReferenceResolver(
  ref: ReturnType<typeof ledgerReferenceData>,
): Promise<EntityResolver> {
  const memory = createMemoryStore();
  await memory.putAttributions(ref.attributions);
  await memory.putSanctions(ref.sanctions);
  const [attributions, sanctions] = await Promise.all([
    wholeAttributionSource(memory),
    wholeSanctionsSource(memory),
  ]);
  if (!attributions || !sanctions) throw new Error("bench: reference data too large to hold whole");
  return createEntityResolver({ attributions, sanctions });
}

/** A resolver over the labels and sanctions of the generated ledger of `ledgerSize` rows, held in a memory store. */
export async function benchReferenceResolver(ledgerSize: number): Promise<EntityResolver> {
  const memory = createMemoryStore();
  const ref = ledgerReferenceData(benchShape(ledgerSize));
  await memory.putAttributions(ref.attributions);
  await memory.putSanctions(ref.sanctions);
  return createEntityResolver({
    attributions: storeAttributionSource(memory),
    sanctions: storeSanctionsSource(memory),
  });
}

/** Depth and weight floor of one traced setting. */
interface Depth {
  readonly maxHops: number;
  readonly minPathWeight: number;
  readonly label: string;
}

const DEPTHS: ReadonlyArray<Depth> = [
  { maxHops: 5, minPathWeight: 0, label: "5-hop, no floor" },
  { maxHops: 5, minPathWeight: DEFAULT_MIN_PATH_WEIGHT, label: "5-hop" },
  { maxHops: 10, minPathWeight: DEFAULT_MIN_PATH_WEIGHT, label: "10-hop" },
  { maxHops: 20, minPathWeight: DEFAULT_MIN_PATH_WEIGHT, label: "20-hop (default)" },
  { maxHops: 20, minPathWeight: 0, label: "20-hop, no floor" },
];

/** Milliseconds of each trace of `sample` (incoming: the origin of funds), edges and CPU. */
async function traceAll(
  sample: ReadonlyArray<LedgerTransfer>,
  deps: TraceDeps,
  depth: Depth,
): Promise<{ ms: number[]; edges: number[]; cpuMs: number; truncated: number }> {
  const ms: number[] = [];
  const edges: number[] = [];
  let truncated = 0;
  const cpu0 = process.cpuUsage();
  for (const row of sample) {
    const t0 = performance.now();
    const result = await traceSampleRow(deps, row, depth.maxHops, depth.minPathWeight);
    ms.push(performance.now() - t0);
    edges.push(result.edgesRead);
    if (result.truncated) truncated++;
  }
  const cpu = process.cpuUsage(cpu0);
  return { ms, edges, cpuMs: (cpu.user + cpu.system) / 1000, truncated };
}

/** Cold and warm trace latencies on a ledger of `ledgerSize` transfers, at each depth. */
export async function benchTracing(ledgerSize: number, quick: boolean): Promise<Figure[]> {
  const file = await ledgerCopy(ledgerSize, "tracing");
  try {
    const store = await createSqliteStore({ filename: file });
    const sample = await sampleTransfers(store, ledgerSize, quick ? 200 : 1_000);
    const coldResolver = createEntityResolver({
      attributions: storeAttributionSource(store),
      sanctions: storeSanctionsSource(store),
    });
    const label = ledgerLabel(ledgerSize);
    const figures: Figure[] = [];
    for (const depth of [DEPTHS[1]!, DEPTHS[3]!]) {
      const cold = await traceAll(sample, { ledger: store, resolver: coldResolver }, depth);
      figures.push(
        figure(`${depth.label} trace p50, cold (SQLite), ${label}`, "ms", [percentile(cold.ms, 50)], "<= 5"),
        figure(`${depth.label} trace p99, cold (SQLite)`, "ms", [percentile(cold.ms, 99)]),
      );
    }
    // Warm: the whole ledger in memory, reference data in a memory store.
    const index = new LedgerIndex();
    await loadLedgerInto(index, file);
    await store.close();
    const warmDeps = { ledger: index, resolver: await benchReferenceResolver(ledgerSize) };
    await traceAll(sample.slice(0, 50), warmDeps, DEPTHS[3]!);
    for (const depth of DEPTHS) {
      const warm = await traceAll(sample, warmDeps, depth);
      figures.push(
        figure(`${depth.label} trace p50, warm (in memory)`, "ms", [percentile(warm.ms, 50)], "<= 1"),
        figure(`${depth.label} trace p99, warm (in memory)`, "ms", [percentile(warm.ms, 99)], "<= 10"),
        figure(`${depth.label} CPU per trace, warm (mean)`, "ms", [warm.cpuMs / sample.length]),
        figure(`${depth.label} edges read per trace (mean)`, "edges", [mean(warm.edges)]),
        figure(`${depth.label} edges read per trace (p99)`, "edges", [percentile(warm.edges, 99)]),
        figure(`${depth.label} traces truncated by the edge budget`, "%", [
          (100 * warm.truncated) / sample.length,
        ]),
      );
    }
    return figures;
  } finally {
    removeCopy(file);
  }
}

function mean(values: ReadonlyArray<number>): number {
  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
}

/**
 * Every ledger row of the SQLite file into `index` (a warm index, or a ledger image's builder),
 * in chunks of 100,000 (for the warm trace).
 */
export async function loadLedgerInto(
  index: { add(rows: ReadonlyArray<LedgerTransfer>): unknown },
  file: string,
): Promise<void> {
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(file, { readonly: true });
  try {
    const chunk = db.prepare(
      "select rowid, network, tx_hash, log_index, token_id, from_address, to_address, amount, occurred_at, block, value_usd from ledger_transfers where rowid > ? order by rowid limit 100000",
    );
    for (let after = -1; ; ) {
      const rows = chunk.all(after) as Array<Record<string, unknown>>;
      if (rows.length === 0) return;
      index.add(
        rows.map(
          (r): LedgerTransfer => ({
            network: String(r.network),
            txHash: String(r.tx_hash),
            logIndex: Number(r.log_index),
            tokenId: String(r.token_id),
            from: String(r.from_address),
            to: String(r.to_address),
            amount: Number(r.amount),
            occurredAt: Number(r.occurred_at),
            block: r.block === null ? null : Number(r.block),
            valueUsd: r.value_usd === null ? null : Number(r.value_usd),
          }),
        ),
      );
      after = Number(rows[rows.length - 1]?.rowid);
    }
  } finally {
    db.close();
  }
}
