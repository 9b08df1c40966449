/**
 * The screening pool gives exactly the inline executor's outcomes: on a generated ledger, over
 * the in-memory store and SQLite, for transfer and address traces in both directions, before
 * and after rows are stored while it runs (the delta), and after a new image replaces the old.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import {
  createEntityResolver,
  createMemoryStore,
  heldAttributionSource,
  heldSanctionsSource,
  inlineTraceExecutor,
  isKytError,
  type LedgerReader,
  type LedgerTransfer,
  type Store,
  storeAttributionSource,
  storeSanctionsSource,
  type TraceRequest,
} from "@openkyt/core";
import { afterAll, describe, expect, it, vi } from "vitest";
import { generateLedger, seededRandom } from "../../ledger-generator/src/index.js";
import { createSqliteStore } from "../../store-sqlite/src/index.js";
import { createScreeningPool, screeningThreadCount } from "../src/screening-pool.js";

const LEDGER = generateLedger({
  transfers: 4_000,
  addresses: 600,
  hubs: 12,
  tokens: ["native", "usdt"],
  seed: 11,
});
/** The first part is stored before the pool starts, the rest while it runs. */
const EARLY = LEDGER.transfers.slice(0, 3_000);
const LATE = LEDGER.transfers.slice(3_000);
const LIMITS = { maxHops: 20, edgeBudget: 2_000, minPathWeight: 1e-3 };

/** A mix of transfer and address traces over rows of `rows` (seeded). */
function requestsOver(rows: ReadonlyArray<LedgerTransfer>, count: number, seed: number): TraceRequest[] {
  const rnd = seededRandom(seed);
  const now = Date.UTC(2026, 0, 1);
  return Array.from({ length: count }, (_, i): TraceRequest => {
    const row = rows[Math.floor(rnd() * rows.length)] as LedgerTransfer;
    const span = { from: row.occurredAt, to: now };
    const incoming = rnd() < 0.5;
    if (i % 3 === 2) {
      return {
        kind: "address",
        network: row.network,
        tokenId: row.tokenId,
        ...LIMITS,
        address: incoming ? row.from : row.to,
        side: incoming ? "sender" : "recipient",
        at: now,
        span,
      };
    }
    return {
      kind: "transfer",
      network: row.network,
      tokenId: row.tokenId,
      ...LIMITS,
      direction: incoming ? "incoming" : "outgoing",
      counterparty: incoming ? row.from : row.to,
      at: row.occurredAt,
      ...(row.block !== null && rnd() < 0.5
        ? { position: { block: row.block, logIndex: row.logIndex } }
        : {}),
      value: Math.round(rnd() * 10_000),
      span,
    };
  });
}

const dir = mkdtempSync(join(tmpdir(), "openkyt-pool-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STORES: ReadonlyArray<readonly [string, () => Promise<Store>]> = [
  ["memory", async () => createMemoryStore()],
  ["sqlite", async () => createSqliteStore({ filename: join(dir, `pool-${Math.random()}.db`) })],
];

describe.each(STORES)("screening pool over the %s store", (_name, open) => {
  it("gives the inline outcomes, with rows stored while it runs and after a new image", async () => {
    const store = await open();
    await store.putLedgerTransfers(EARLY);
    await store.putAttributions(LEDGER.attributions);
    await store.putSanctions(LEDGER.sanctions);
    const inline = inlineTraceExecutor({
      ledger: store,
      resolver: createEntityResolver({
        attributions: storeAttributionSource(store),
        sanctions: storeSanctionsSource(store),
      }),
    });
    const pool = await createScreeningPool(store, { threads: 2, maxLagMs: 0, referenceRefreshMs: 0 });
    try {
      expect(pool.threads).toBe(2);
      const first = requestsOver(EARLY, 120, 1);
      // Split into calls of one to three requests, all issued at once, as concurrent checks do.
      const calls = (requests: TraceRequest[]) =>
        Promise.all(
          Array.from({ length: Math.ceil(requests.length / 3) }, (_, k) =>
            pool.run(requests.slice(k * 3, k * 3 + 3)),
          ),
        ).then((parts) => parts.flat());
      const expected = await inline.run(first);
      expect(expected.filter((o) => o.kind === "failed")).toEqual([]);
      // Real traces: most read edges and find labelled funds, not only a direct label.
      const traced = expected.filter((o) => o.kind === "transfer" && o.result.edgesRead > 0);
      expect(traced.length).toBeGreaterThan(20);
      expect(await calls(first)).toEqual(expected);

      // Rows stored while the pool runs reach the threads as a delta.
      await store.putLedgerTransfers(LATE);
      const second = requestsOver(LEDGER.transfers, 120, 2);
      const withLate = await inline.run(second);
      expect(await calls(second)).toEqual(withLate);
      expect(pool.ledger.deltaSize).toBe(LATE.length);

      // A new image of the whole ledger reads the same.
      await pool.rebuild();
      expect(pool.ledger.deltaSize).toBe(0);
      expect(await calls(second)).toEqual(withLate);
    } finally {
      await pool.close();
      await store.close();
    }
  }, 120_000);
});

describe("screening pool at hubs", () => {
  it("lumps the hubs' rows and gives the inline outcomes, before and after rows stored while it runs", async () => {
    // Two hubs with hundreds of incoming rows each, unlabelled so that traces go through them:
    // their reads are lumped.
    const hubby = generateLedger({ transfers: 3_000, addresses: 400, hubs: 2, tokens: ["native"], seed: 5 });
    const early = hubby.transfers.slice(0, 2_400);
    const received = new Map<string, number>();
    for (const t of early) received.set(t.to, (received.get(t.to) ?? 0) + 1);
    const hubs = new Set([...received].filter(([, n]) => n >= 200).map(([a]) => a));
    expect(hubs.size).toBe(2);
    const attributions = hubby.attributions.filter((a) => !hubs.has(a.address));
    const store = createMemoryStore();
    await store.putLedgerTransfers(early);
    await store.putAttributions(attributions);
    await store.putSanctions(hubby.sanctions);
    const inline = inlineTraceExecutor({
      ledger: store,
      resolver: createEntityResolver({
        attributions: storeAttributionSource(store),
        sanctions: storeSanctionsSource(store),
      }),
    });
    const pool = await createScreeningPool(store, { threads: 1, maxLagMs: 0, referenceRefreshMs: 0 });
    try {
      // The thread's reader and sources, on the main thread, counting the rows lumps leave out.
      const lumped = { rows: 0 };
      const threadLike: LedgerReader = {
        ledgerIncoming: (...a) => pool.ledger.ledgerIncoming(...a),
        ledgerOutgoing: (...a) => pool.ledger.ledgerOutgoing(...a),
        async ledgerIncomingLumped(...a) {
          const out = await pool.ledger.ledgerIncomingLumped(...a);
          for (const l of out) if (l) lumped.rows += l.prefixCount - l.presented.length;
          return out;
        },
      };
      const lumping = inlineTraceExecutor({
        ledger: threadLike,
        resolver: createEntityResolver({
          attributions: heldAttributionSource(attributions),
          sanctions: heldSanctionsSource(hubby.sanctions),
        }),
      });
      for (const [requests, late] of [
        [requestsOver(early, 90, 3), []],
        [requestsOver(hubby.transfers, 90, 4), hubby.transfers.slice(2_400)],
      ] as const) {
        await store.putLedgerTransfers(late);
        const expected = await inline.run(requests);
        expect(expected.filter((o) => o.kind === "failed")).toEqual([]);
        expect(await pool.run(requests)).toEqual(expected);
        expect(await lumping.run(requests)).toEqual(expected);
      }
      expect(pool.ledger.deltaSize).toBe(600);
      // The property is about something: these traces leave hub rows unpresented.
      expect(lumped.rows).toBeGreaterThan(1_000);
    } finally {
      await pool.close();
      await store.close();
    }
  }, 120_000);
});

describe("screening pool options", () => {
  it("sizes itself to the machine and refuses a bad count", async () => {
    expect(screeningThreadCount(undefined)).toBe(Math.max(0, availableParallelism() - 1));
    expect(screeningThreadCount(0)).toBe(0);
    expect(() => screeningThreadCount(-1)).toThrow(/screening threads/);
    const store = createMemoryStore();
    const refused = await createScreeningPool(store, { threads: 0 }).catch((e: unknown) => e);
    expect(isKytError(refused, "VALIDATION_ERROR")).toBe(true);
  });

  it("fails pending and later runs once closed", async () => {
    const store = createMemoryStore();
    await store.putLedgerTransfers(EARLY.slice(0, 50));
    const pool = await createScreeningPool(store, { threads: 1, referenceRefreshMs: 0 });
    await pool.close();
    const refused = await pool.run(requestsOver(EARLY.slice(0, 50), 1, 3)).catch((e: unknown) => e);
    expect(isKytError(refused, "ENGINE_STOPPED")).toBe(true);
  }, 60_000);

  it("posts labels to its threads again only when a refresh reads different rows", async () => {
    // A thread given labels makes a new screen of them, and its reader drops every hub's lumps:
    // a refresh that reads the same rows must post nothing (docs/benchmarks.md, floor33).
    const store = createMemoryStore();
    await store.putLedgerTransfers(EARLY);
    const later = LEDGER.attributions.slice(0, Math.floor(LEDGER.attributions.length / 2));
    await store.putAttributions(LEDGER.attributions.slice(later.length));
    await store.putSanctions(LEDGER.sanctions);
    const inline = inlineTraceExecutor({
      ledger: store,
      resolver: createEntityResolver({
        attributions: storeAttributionSource(store),
        sanctions: storeSanctionsSource(store),
      }),
    });
    const pool = await createScreeningPool(store, { threads: 1, maxLagMs: 0, referenceRefreshMs: 10 });
    try {
      const requests = requestsOver(EARLY, 60, 5);
      const before = await inline.run(requests);
      expect(await pool.run(requests)).toEqual(before);
      // Many refreshes of the same rows: nothing posted.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(pool.referencePosts).toBe(0);
      // New labels are posted once, and the threads trace with them.
      await store.putAttributions(later);
      await vi.waitFor(() => expect(pool.referencePosts).toBe(1), { timeout: 10_000 });
      const after = await inline.run(requests);
      expect(after).not.toEqual(before);
      expect(await pool.run(requests)).toEqual(after);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(pool.referencePosts).toBe(1);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it("answers a failed outcome for a bad request and runs the others", async () => {
    const store = createMemoryStore();
    await store.putLedgerTransfers(EARLY.slice(0, 200));
    const pool = await createScreeningPool(store, { threads: 1, referenceRefreshMs: 0 });
    try {
      const [good] = requestsOver(EARLY.slice(0, 200), 1, 4) as [TraceRequest];
      const outcomes = await pool.run([{ ...good, maxHops: 0 }, good]);
      expect(outcomes[0]).toMatchObject({ kind: "failed", code: "VALIDATION_ERROR" });
      expect(outcomes[1]?.kind).toBe(good.kind);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
