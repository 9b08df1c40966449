/**
 * The two warm readers side by side in one process: the same trace requests (those the README's
 * API sends for a sample of transfers of a generated ledger, recorded once) run over the main
 * thread's `LedgerIndex` and over a `LedgerImageReader` of a `LedgerImage` of the same rows, with
 * one resolver (the screening thread's), in alternating rounds. Prints CPU per trace (this
 * thread's), the rows each reader presented per trace, and fails when any outcome differs.
 *
 *   node --conditions=source --import tsx --max-semi-space-size=64 [--cpu-prof] \
 *     bench/src/bench-image-trace.ts [ledgerSize=1000000] [transfers=500] [rounds=4] [shape=real|classic] [only=both|index|image]
 *
 * `only` runs one reader (for a profile of it alone); `OPENKYT_BENCH_CPU_PROF=file` writes the
 * profile of the timed rounds (not the load).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import {
  type Attribution,
  createEngine,
  createEntityResolver,
  createWarmSources,
  type EntityResolver,
  heldAttributionSource,
  heldSanctionsSource,
  inlineTraceExecutor,
  LedgerImageBuilder,
  LedgerImageReader,
  LedgerIndex,
  type LedgerReader,
  type LedgerTransfer,
  runTraceRequest,
  type SanctionsListing,
  type Store,
  type TraceOutcome,
  type TraceRequest,
} from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import type { LedgerShapeName } from "@openkyt/testkit";
import { ledgerCopy, removeCopy } from "./bench-ledger-db.js";
import { mainThreadCpuMs } from "./bench-stats.js";
import { sampleTransfers } from "./bench-tracing.js";

/** Traces run at once (the README's registrations in flight). */
const INFLIGHT = 64;

const [sizeArg = "1000000", countArg = "500", roundsArg = "4", shapeArg = "real", only = "both"] =
  process.argv.slice(2);
if (shapeArg !== "real" && shapeArg !== "classic")
  throw new Error(`shape must be real or classic, not ${shapeArg}`);
if (only !== "both" && only !== "index" && only !== "image")
  throw new Error(`only must be both, index or image, not ${only}`);
const shape: LedgerShapeName = shapeArg;
const size = Number(sizeArg);
const count = Number(countArg);
const rounds = Number(roundsArg);

/** The store's labels and sanctions, whole. */
async function referenceOf(
  store: Store,
): Promise<{ attributions: Attribution[]; sanctions: SanctionsListing[] }> {
  const attributions: Attribution[] = [];
  for (let after: Attribution | null = null; ; ) {
    const page: ReadonlyArray<Attribution> = await store.scanAttributions(after, 5_000);
    attributions.push(...page);
    if (page.length < 5_000) break;
    after = page[page.length - 1] as Attribution;
  }
  const sanctions: SanctionsListing[] = [];
  for (let after: SanctionsListing | null = null; ; ) {
    const page: ReadonlyArray<SanctionsListing> = await store.scanSanctions(after, 5_000);
    sanctions.push(...page);
    if (page.length < 5_000) break;
    after = page[page.length - 1] as SanctionsListing;
  }
  return { attributions, sanctions };
}

/**
 * The trace requests the README's API sends for `count` sampled transfers (registered 64 in
 * flight over warm sources), recorded once per ledger and sample size in the temp directory.
 */
async function recordedRequests(store: Store, resolver: EntityResolver): Promise<TraceRequest[]> {
  const file = join(tmpdir(), `openkyt-image-trace-requests-${shape}-${size}-${count}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as TraceRequest[];
  const sample = await sampleTransfers(store, size, count);
  const sources = await createWarmSources(store);
  const inline = inlineTraceExecutor({ ledger: sources.ledger, resolver });
  const recorded: TraceRequest[] = [];
  const engine = createEngine({
    store,
    jobs: { pollIntervalMs: 20 },
    ...sources,
    traceExecutor: {
      run(requests) {
        recorded.push(...requests);
        return inline.run(requests);
      },
    },
  });
  let checked = 0;
  const done = new Promise<void>((resolve) => {
    engine.events.on("transfer.checked", () => {
      if (++checked === sample.length) resolve();
    });
  });
  const api = engine.forAccount("bench");
  engine.start();
  let next = 0;
  await Promise.all(
    Array.from({ length: INFLIGHT }, async () => {
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
  await done;
  await engine.stop();
  writeFileSync(file, JSON.stringify(recorded));
  return recorded;
}

/** Rows a reader returned (read, lumped and presented), counted around it. */
function counting(reader: LedgerReader): { reader: LedgerReader; rows: () => number } {
  let rows = 0;
  const counted: LedgerReader = {
    async ledgerIncoming(network, tokenId, queries, limit) {
      const out = await reader.ledgerIncoming(network, tokenId, queries, limit);
      rows += out.length;
      return out;
    },
    async ledgerOutgoing(network, tokenId, queries, limit) {
      const out = await reader.ledgerOutgoing(network, tokenId, queries, limit);
      rows += out.length;
      return out;
    },
    ...(reader.ledgerIncomingCounts
      ? { ledgerIncomingCounts: reader.ledgerIncomingCounts.bind(reader) }
      : {}),
    ...(reader.ledgerOutgoingCounts
      ? { ledgerOutgoingCounts: reader.ledgerOutgoingCounts.bind(reader) }
      : {}),
    ...(reader.ledgerIncomingLumped
      ? {
          async ledgerIncomingLumped(network: string, tokenId: string, queries, screen) {
            const out = await (
              reader.ledgerIncomingLumped as NonNullable<LedgerReader["ledgerIncomingLumped"]>
            ).call(reader, network, tokenId, queries, screen);
            for (const a of out) if (a) rows += a.presented.length + a.tail.length;
            return out;
          },
        }
      : {}),
  };
  return { reader: counted, rows: () => rows };
}

/** Runs every request, `INFLIGHT` at a time, as a screening thread runs a batch. */
async function runAll(
  ledger: LedgerReader,
  resolver: EntityResolver,
  requests: ReadonlyArray<TraceRequest>,
): Promise<TraceOutcome[]> {
  const out: TraceOutcome[] = [];
  for (let i = 0; i < requests.length; i += INFLIGHT) {
    const batch = requests.slice(i, i + INFLIGHT);
    out.push(...(await Promise.all(batch.map((r) => runTraceRequest({ ledger, resolver }, r)))));
  }
  return out;
}

const file = await ledgerCopy(size, "image-trace", shape);
const store = await createSqliteStore({ filename: file });
try {
  const reference = await referenceOf(store);
  const resolver = createEntityResolver({
    attributions: heldAttributionSource(reference.attributions),
    sanctions: heldSanctionsSource(reference.sanctions),
  });
  const requests = await recordedRequests(store, resolver);
  const index = new LedgerIndex();
  const builder = new LedgerImageBuilder();
  const scan = store.scanLedger?.bind(store);
  if (!scan) throw new Error("the store cannot scan its ledger");
  for (let position = 0; ; ) {
    const page = await scan(position, 5_000);
    index.add(page.rows);
    builder.add(page.rows);
    position = page.last;
    if (page.rows.length < 5_000) break;
  }
  index.compact();
  const image = new LedgerImageReader(builder.build());
  const readers: Array<[string, LedgerReader]> = [];
  if (only !== "image") readers.push(["index", index]);
  if (only !== "index") readers.push(["image", image]);
  console.log(
    `${shape} ledger ${size}: ${requests.length} trace requests of ${count} transfers, ${rounds} rounds (the first warms up)`,
  );
  const results = new Map<string, TraceOutcome[]>();
  for (const [name, reader] of readers) {
    const c = counting(reader);
    results.set(name, await runAll(c.reader, resolver, requests));
    console.log(`  ${name}: ${(c.rows() / requests.length).toFixed(1)} rows presented per trace`);
  }
  const [first, second] = [...results.values()];
  if (first && second) {
    const differing = first.filter((o, i) => !isDeepStrictEqual(o, second[i])).length;
    if (differing > 0)
      throw new Error(`${differing} of ${requests.length} outcomes differ between the readers`);
    console.log(`  every one of ${requests.length} outcomes equal`);
  }
  const cpu = new Map<string, number[]>(readers.map(([name]) => [name, []]));
  const profileFile = process.env.OPENKYT_BENCH_CPU_PROF;
  const session = profileFile ? new Session() : null;
  if (session) {
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
  }
  for (let round = 0; round < rounds; round++) {
    for (const [name, reader] of round % 2 === 0 ? readers : [...readers].reverse()) {
      const t0 = mainThreadCpuMs();
      await runAll(reader, resolver, requests);
      const ms = (mainThreadCpuMs() - t0) / requests.length;
      if (round > 0) cpu.get(name)?.push(ms);
    }
  }
  if (session) {
    const { profile } = await session.post("Profiler.stop");
    writeFileSync(profileFile as string, JSON.stringify(profile));
    session.disconnect();
  }
  for (const [name, list] of cpu) {
    const sorted = [...list].sort((a, b) => a - b);
    console.log(
      `  ${name}: ${list.map((m) => m.toFixed(3)).join(" ")} ms CPU per trace (median ${(sorted[Math.floor(sorted.length / 2)] ?? Number.NaN).toFixed(3)})`,
    );
  }
} finally {
  await store.close();
  removeCopy(file);
}
