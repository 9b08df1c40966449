/**
 * Conformance of the hub cache over a store's ledger (`createHubCachedLedger`, for stores that
 * list their ledger in stored order or tell its changes, `ledgerChangesSince`): traces read
 * through it give the results of traces over the store's own reads, to the bit, on a hub-heavy
 * ledger with labels, while the store takes new rows (some twice), undoes blocks (a
 * reorganisation; stores that list their ledger in stored order: a ledger that tells its changes
 * removes no rows) and the cache evicts hubs under a small bound.
 */
import {
  compareLedgerTransfers,
  createEntityResolver,
  createHubCachedLedger,
  HUB_CACHE_BYTES_PER_ROW,
  type LedgerReader,
  type LedgerTransfer,
  type Store,
  traceAddressExposure,
  traceTransferExposure,
  wholeAttributionSource,
  wholeSanctionsSource,
} from "@openkyt/core";
import { describe, expect, it } from "vitest";
import type { ConformanceContext } from "./store-conformance.js";
import { BASE_TIME } from "./store-factories.js";

const HEIGHT = 19_000_000;
const HUBS = ["0xhub0", "0xhub1"];
const STEP = 1_000;

/** A small deterministic generator (the same ledger on every store). */
function numbers(seed: number): () => number {
  let x = seed;
  return () => {
    x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
    return x / 2 ** 32;
  };
}

/**
 * `count` rows into the hubs (from 150 senders and from the other hub, several at one time and
 * position: children a backward hop merges) and out of them, at steps `[fromStep, toStep)`.
 */
function hubRows(seed: number, count: number, fromStep: number, toStep: number): LedgerTransfer[] {
  const next = numbers(seed);
  const pick = <T>(xs: ReadonlyArray<T>): T => xs[Math.floor(next() * xs.length)] as T;
  const amounts = [0, 5, 1, 2, 7, 13, 0.37, 1234.5, 4e4];
  return Array.from({ length: count }, (_, i): LedgerTransfer => {
    const step = fromStep + Math.floor(next() * (toStep - fromStep));
    const out = next() < 0.15;
    const hub = pick(HUBS);
    const from = out
      ? hub
      : next() < 0.1
        ? (HUBS.find((h) => h !== hub) as string)
        : `0xs${Math.floor(next() * 150)}`;
    return {
      network: "ETH",
      txHash: `0x${seed.toString(16)}${i.toString(16).padStart(8, "0")}`,
      logIndex: Math.floor(next() * 5) - 1,
      tokenId: "native",
      from,
      to: out ? `0xout${Math.floor(next() * 40)}` : hub,
      amount: next() < 0.5 ? pick(amounts) : Math.round(next() * 1e6) / 1e3,
      occurredAt: BASE_TIME + step * STEP,
      block: HEIGHT + step,
      valueUsd: null,
    };
  });
}

/** The store's reads alone: what a trace reads without a cache. */
function plainReads(s: Store): LedgerReader {
  const incomingCounts = s.ledgerIncomingCounts?.bind(s);
  const outgoingCounts = s.ledgerOutgoingCounts?.bind(s);
  return {
    ledgerIncoming: (...a) => s.ledgerIncoming(...a),
    ledgerOutgoing: (...a) => s.ledgerOutgoing(...a),
    ...(incomingCounts ? { ledgerIncomingCounts: incomingCounts } : {}),
    ...(outgoingCounts ? { ledgerOutgoingCounts: outgoingCounts } : {}),
  };
}

/** Rows in ledger order (readers order rows of one time as they like). */
const sorted = (rows: ReadonlyArray<LedgerTransfer>) => [...rows].sort(compareLedgerTransfers);

/** Both traces of a screened transfer into each hub and one sender, as JSON (floats to the bit). */
async function traces(
  ledger: LedgerReader,
  resolver: ReturnType<typeof createEntityResolver>,
): Promise<string> {
  const at = BASE_TIME + 420 * STEP;
  const out: unknown[] = [];
  for (const start of [...HUBS, "0xs7"]) {
    const common = {
      ledger,
      resolver,
      network: "ETH",
      tokenId: "native",
      span: { from: at, to: at },
      at,
      minPathWeight: 0.005,
      maxHops: 4,
      edgeBudget: 10_000,
    };
    out.push(
      await traceTransferExposure({ ...common, direction: "incoming", counterparty: start, value: 1000 }),
    );
    out.push(await traceAddressExposure({ ...common, address: start, side: "sender" }));
    out.push(await traceAddressExposure({ ...common, address: start, side: "recipient" }));
  }
  return JSON.stringify(out);
}

/** A row at `BASE_TIME + at` without a block (its position is its time alone). */
function row(from: string, to: string, amount: number, at: number): LedgerTransfer {
  return {
    network: "ETH",
    txHash: `0x${from.slice(2)}${to.slice(2)}${at}`,
    logIndex: 0,
    tokenId: "native",
    from,
    to,
    amount,
    occurredAt: BASE_TIME + at,
    block: null,
    valueUsd: null,
  };
}

/**
 * A hub with 400 unlabelled senders that funds `0xtop` beside `0xother`; `0xs5` is funded by a
 * labelled address and also funds `0xother` at the time of its row into the hub (their children
 * merge in the hop that visits both), so the hub's row of `0xs5` must be presented.
 */
function sharedChildLedger(): LedgerTransfer[] {
  return [
    ...Array.from({ length: 400 }, (_, i) => row(`0xs${i}`, "0xhub", 1 + (i % 13), i)),
    row("0xhub", "0xtop", 1, 900),
    row("0xother", "0xtop", 1, 900),
    row("0xx", "0xother", 1, 3),
    row("0xfunder", "0xs5", 1, 2),
    row("0xfunder", "0xs6", 1, 2),
    row("0xs5", "0xother", 1, 5),
  ];
}

/** Whether the store's ledger can be followed by a hub cache. */
const followable = (s: Store): boolean => s.scanLedger !== undefined || s.ledgerChangesSince !== undefined;

/** Registers the hub cache test; it skips for a store that offers neither `scanLedger` nor `ledgerChangesSince`. */
export function hubCacheConformance(ctx: ConformanceContext): void {
  describe("hub cache over the ledger (stores with scanLedger or ledgerChangesSince)", () => {
    it("traces through it as through the store's reads, after appends, a rewind and evictions", async ({
      skip,
    }) => {
      const s = ctx.store();
      if (!followable(s)) return skip("this store cannot be followed (no hub cache)");
      await s.putLedgerTransfers(hubRows(1, 700, 0, 360));
      await s.putAttributions(
        ["0xs3", "0xs11", "0xs40", "0xout2"].map((address, i) => ({
          network: "ETH",
          address,
          entityName: `e${i}`,
          entityCategory: i % 2 === 0 ? "mixer" : "exchange",
          source: "test",
        })),
      );
      await s.putSanctions([
        {
          network: "ETH",
          address: "0xs9",
          listName: "OFAC SDN",
          program: "CYBER2",
          entity: "Lazarus",
          listedAt: null,
          delistedAt: null,
        },
      ]);
      const [attributions, sanctions] = await Promise.all([
        wholeAttributionSource(s),
        wholeSanctionsSource(s),
      ]);
      if (!attributions || !sanctions) throw new Error("reference data not held whole");
      // Held whole, the sources name the addresses that may resolve, so hubs' rows are lumped.
      const resolver = createEntityResolver({ attributions, sanctions });
      const plain = plainReads(s);
      const roomy = await createHubCachedLedger(s, s, { minRows: 16, maxLagMs: 0 });
      // Room for one hub at a time: every other load evicts.
      const tight = await createHubCachedLedger(s, s, {
        minRows: 16,
        maxLagMs: 0,
        minIdleMs: 0,
        maxBytes: 700 * HUB_CACHE_BYTES_PER_ROW,
      });
      let unpresented = 0;
      const lumped = roomy.ledgerIncomingLumped?.bind(roomy);
      // Over a ledger followed by its changes (ClickHouse) the cache lumps nothing by default.
      if (!lumped && s.scanLedger) throw new Error("the hub cache offers no lumped reads");
      const counted: LedgerReader = lumped
        ? {
            ...roomy,
            async ledgerIncomingLumped(...a) {
              const out = await lumped(...a);
              for (const l of out) if (l) unpresented += l.prefixCount - l.presented.length;
              return out;
            },
          }
        : roomy;
      const same = async (phase: string) => {
        const expected = await traces(plain, resolver);
        expect(await traces(counted, resolver), phase).toBe(expected);
        expect(await traces(tight, resolver), phase).toBe(expected);
        for (const address of [...HUBS, "0xs7", "0xout2"]) {
          const inQ = [{ address, before: BASE_TIME + 500 * STEP }];
          const outQ = [{ address, after: BASE_TIME - 1 }];
          expect(sorted(await roomy.ledgerIncoming("ETH", "native", inQ, 10_000)), phase).toEqual(
            sorted(await s.ledgerIncoming("ETH", "native", inQ, 10_000)),
          );
          expect(sorted(await roomy.ledgerOutgoing("ETH", "native", outQ, 10_000)), phase).toEqual(
            sorted(await s.ledgerOutgoing("ETH", "native", outQ, 10_000)),
          );
        }
      };
      await same("first reads (hubs loaded)");
      await same("second reads (from the cache)");
      // New rows, some older than rows already held, some sharing a position with held ones.
      await s.putLedgerTransfers(hubRows(2, 150, 200, 420));
      await same("after appends");
      // Some rows again in one write with new ones (a bulk load keeps one of each key).
      const again = await s.bulkLedgerWriter?.();
      if (again) {
        await again.write([...hubRows(2, 150, 200, 420).slice(0, 40), ...hubRows(4, 60, 300, 430)]);
        await again.finish();
        await same("after rows stored again");
      }
      if (s.scanLedger) {
        expect((await s.rewindFollowedChain("ETH", HEIGHT + 300)).transfers).toBeGreaterThan(0);
        await same("after a rewind");
      }
      await s.putLedgerTransfers(hubRows(3, 150, 290, 420));
      await same("after the replacement blocks");
      expect(roomy.stats().loaded).toBeGreaterThanOrEqual(3);
      expect(tight.stats().evicted).toBeGreaterThan(0);
      // The property is about something: lumped reads left rows of held hubs unpresented.
      if (lumped) expect(unpresented).toBeGreaterThan(100);
      // A database server answers its thousands of reads in tens of seconds.
    }, 180_000);

    it("presents a held hub's row whose sender funds another address at its time, stored before or after the load", async ({
      skip,
    }) => {
      const s = ctx.store();
      if (!followable(s)) return skip("this store cannot be followed (no hub cache)");
      await s.putLedgerTransfers(sharedChildLedger());
      await s.putAttributions([
        { network: "ETH", address: "0xfunder", entityName: "f", entityCategory: "exchange", source: "test" },
      ]);
      const [attributions, sanctions] = await Promise.all([
        wholeAttributionSource(s),
        wholeSanctionsSource(s),
      ]);
      if (!attributions || !sanctions) throw new Error("reference data not held whole");
      const resolver = createEntityResolver({ attributions, sanctions });
      const cached = await createHubCachedLedger(s, s, { minRows: 16, maxLagMs: 0 });
      const at = BASE_TIME + 1000;
      const trace = (ledger: LedgerReader) =>
        traceTransferExposure({
          ledger,
          resolver,
          network: "ETH",
          tokenId: "native",
          direction: "incoming",
          counterparty: "0xtop",
          at,
          value: 1000,
          span: { from: at, to: at },
          minPathWeight: 0.01,
          maxHops: 4,
        }).then((r) => JSON.stringify(r));
      expect(await trace(cached)).toBe(await trace(plainReads(s)));
      expect(cached.stats().hubs).toBeGreaterThan(0);
      // 0xs6 now funds 0xother at the time of its held row into the hub: a new shared child.
      const before = await trace(plainReads(s));
      await s.putLedgerTransfers([row("0xs6", "0xother", 1, 6)]);
      const after = await trace(plainReads(s));
      expect(after).not.toBe(before);
      expect(await trace(cached)).toBe(after);
    });
  });
}
