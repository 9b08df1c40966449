import { describe, expect, it } from "vitest";
import { HOUR, loadWorld, T0, WORLD_LEDGER } from "../../../testkit/src/engine-world.js";
import type { Attribution, LedgerTransfer, SanctionsListing } from "../../src/domain/records.js";
import { createEngine, type Engine } from "../../src/engine/create-engine.js";
import {
  cachingAttributionSource,
  cachingPriceSource,
  cachingSanctionsSource,
  cachingTokenCatalog,
} from "../../src/engine/sources/cached-sources.js";
import { createWarmLedger } from "../../src/engine/sources/warm-ledger.js";
import { createWarmSources } from "../../src/engine/sources/warm-sources.js";
import { wholeAttributionSource, wholeSanctionsSource } from "../../src/engine/sources/whole-reference.js";
import { manualClock, sequentialIds } from "../../src/ports/runtime.js";
import type { Store } from "../../src/ports/store.js";
import { createMemoryStore } from "../../src/store/index.js";

/** Registers every world transfer (both directions) and returns what the API answers for them, checked. */
async function screenWorld(engine: Engine) {
  const api = engine.forAccount("acme");
  for (const row of WORLD_LEDGER) {
    for (const [direction, output] of [
      ["incoming", row.to],
      ["outgoing", row.to],
    ] as const) {
      await api.registerTransfer({
        direction,
        network: row.network,
        tx_hash: row.txHash,
        token_id: row.tokenId,
        output_address: output,
      });
    }
  }
  await api.checkAddress({ network: "ETH", address: WORLD_LEDGER[0]?.from ?? "" });
  await engine.drain();
  const transfers = await api.listTransfers({ page_size: "100" });
  const checks = await api.listManualChecks({ page_size: "100" });
  return { transfers, checks };
}

function engineOver(store: Store, extra: object = {}) {
  return createEngine({ store, clock: manualClock(T0 + 240 * HOUR), ids: sequentialIds(), ...extra });
}

describe("warm sources", () => {
  it("screen exactly as the store-backed sources do", async () => {
    const coldStore = createMemoryStore();
    const cold = engineOver(coldStore);
    await loadWorld(cold);
    const warmStore = createMemoryStore();
    await loadWorld(engineOver(warmStore));
    const warm = engineOver(warmStore, await createWarmSources(warmStore));
    const expected = await screenWorld(cold);
    expect(expected.transfers.total_items).toBe(WORLD_LEDGER.length * 2);
    expect(expected.transfers.items.some((t) => t.risk_level === "severe")).toBe(true);
    expect(await screenWorld(warm)).toEqual(expected);
  });

  it("follow rows stored later, at most maxLagMs after", async () => {
    const store = createMemoryStore();
    const clock = manualClock(T0);
    await store.putLedgerTransfers(WORLD_LEDGER.slice(0, 4));
    const warm = await createWarmLedger(store, { maxLagMs: 1_000, clock });
    expect(warm.size).toBe(4);
    const late: LedgerTransfer = { ...(WORLD_LEDGER[0] as LedgerTransfer), txHash: "0xlate", occurredAt: T0 };
    await store.putLedgerTransfers([late]);
    const query = [{ address: late.to, before: T0 + 1 }] as const;
    expect(await warm.ledgerIncoming("ETH", "native", query, 10)).toEqual([]);
    // The chain source asks the store for a hash it has not seen yet.
    expect(await warm.chain.lookup("ETH", "0xlate")).toEqual({ kind: "found", transfers: [late] });
    clock.advance(1_001);
    expect(await warm.ledgerIncoming("ETH", "native", query, 10)).toEqual([late]);
    expect(warm.size).toBe(5);
    expect(await warm.catchUp()).toBe(0);
    expect(await warm.chain.lookup("ETH", "0xnever")).toEqual({ kind: "not_found" });
  });

  it("load a ledger larger than a page", async () => {
    const store = createMemoryStore();
    const rows = Array.from({ length: 25 }, (_, i) => ({
      ...(WORLD_LEDGER[0] as LedgerTransfer),
      txHash: `0x${i}`,
    }));
    await store.putLedgerTransfers(rows);
    const warm = await createWarmLedger(store, { pageSize: 7 });
    expect(warm.size).toBe(25);
  });

  it("refuse a store that cannot list its ledger in stored order, and bad options", async () => {
    const store: Store = { ...createMemoryStore(), scanLedger: undefined };
    await expect(createWarmLedger(store)).rejects.toMatchObject({ code: "NOT_CONFIGURED" });
    await expect(createWarmLedger(createMemoryStore(), { pageSize: 0 })).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
    });
  });
});

describe("caching sources", () => {
  const label = (address: string): Attribution => ({
    network: "ETH",
    address,
    entityName: `E ${address}`,
    entityCategory: "exchange",
    source: null,
  });

  it("keep answers and misses for ttlMs, then ask again", async () => {
    const asked: string[][] = [];
    const clock = manualClock(T0);
    const source = cachingAttributionSource(
      {
        async attributions(_network, addresses) {
          asked.push([...addresses]);
          return addresses.filter((a) => a === "0xa").map(label);
        },
      },
      { ttlMs: 100, clock },
    );
    expect(await source.attributions("ETH", ["0xa", "0xb"])).toEqual([label("0xa")]);
    expect(await source.attributions("ETH", ["0xb", "0xa", "0xa"])).toEqual([label("0xa")]);
    expect(await source.attributions("TRX", ["0xa"])).toEqual([label("0xa")]);
    expect(asked).toEqual([["0xa", "0xb"], ["0xa"]]);
    clock.advance(101);
    await source.attributions("ETH", ["0xb"]);
    source.clear();
    await source.attributions("TRX", ["0xa"]);
    expect(asked).toEqual([["0xa", "0xb"], ["0xa"], ["0xb"], ["0xa"]]);
  });

  it("keep token answers per id and per symbol, and prices per UTC day, for ttlMs", async () => {
    const clock = manualClock(T0);
    const asked: string[] = [];
    const usdt = { network: "ETH", tokenId: "0xdac1", symbol: "USDT", decimals: 6, name: "Tether" };
    const tokens = cachingTokenCatalog(
      {
        async token(network, tokenId) {
          asked.push(`token ${network} ${tokenId}`);
          return network === "ETH" && tokenId === usdt.tokenId ? usdt : null;
        },
        async bySymbol(network, symbol) {
          asked.push(`symbol ${network} ${symbol}`);
          return symbol.toUpperCase() === "USDT" ? usdt : null;
        },
      },
      { ttlMs: 100, clock },
    );
    expect(await tokens.token("ETH", "0xdac1")).toEqual(usdt);
    expect(await tokens.token("ETH", "0xdac1")).toEqual(usdt);
    expect(await tokens.token("ETH", "0xnone")).toBeNull();
    expect(await tokens.token("ETH", "0xnone")).toBeNull();
    expect(await tokens.bySymbol("ETH", "usdt")).toEqual(usdt);
    expect(await tokens.bySymbol("ETH", "USDT")).toEqual(usdt);
    expect(await tokens.token("TRX", "0xdac1")).toBeNull();
    expect(asked).toEqual(["token ETH 0xdac1", "token ETH 0xnone", "symbol ETH usdt", "token TRX 0xdac1"]);
    clock.advance(101);
    await tokens.token("ETH", "0xdac1");
    tokens.clear();
    await tokens.bySymbol("ETH", "usdt");
    expect(asked.slice(4)).toEqual(["token ETH 0xdac1", "symbol ETH usdt"]);

    const days: number[] = [];
    const prices = cachingPriceSource(
      {
        async usdPrice(_network, _token, at) {
          days.push(at);
          return at >= T0 + 86_400_000 ? 2 : 1;
        },
      },
      { clock },
    );
    // Every time of one UTC day answers the same: asked once per day.
    expect(await prices.usdPrice("ETH", "native", T0 + 5)).toBe(1);
    expect(await prices.usdPrice("ETH", "native", T0 + 3_600_000)).toBe(1);
    expect(await prices.usdPrice("ETH", "native", T0 + 86_400_000 + 7)).toBe(2);
    expect(days).toEqual([T0 + 5, T0 + 86_400_000 + 7]);
  });

  it("refuse bad options, naming the one that is wrong", () => {
    const none = { attributions: async () => [] };
    expect(() => cachingAttributionSource(none, { maxEntries: 0 })).toThrow(
      "source cache: maxEntries must be a positive integer, got 0",
    );
    expect(() => cachingSanctionsSource({ listings: async () => [] }, { ttlMs: -1 })).toThrow(
      "source cache: ttlMs must be >= 0, got -1",
    );
  });

  it("drop the oldest answers first past maxEntries", async () => {
    const asked: string[] = [];
    const listing = (address: string): SanctionsListing => ({
      network: "ETH",
      address,
      listName: "OFAC SDN",
      program: null,
      entity: null,
      listedAt: null,
      delistedAt: null,
    });
    const source = cachingSanctionsSource(
      {
        async listings(addresses) {
          asked.push(...addresses);
          return addresses.map(listing);
        },
      },
      { maxEntries: 2 },
    );
    await source.listings(["0x1", "0x2"]);
    await source.listings(["0x1"]); // a hit: nothing asked, nothing reordered
    await source.listings(["0x3"]); // evicts 0x1, the oldest
    expect(await source.listings(["0x2", "0x3"])).toEqual([listing("0x2"), listing("0x3")]);
    await source.listings(["0x1"]);
    expect(asked).toEqual(["0x1", "0x2", "0x3", "0x1"]);
  });
});

describe("reference data held whole", () => {
  const label = (address: string, name = `E ${address}`): Attribution => ({
    network: "ETH",
    address,
    entityName: name,
    entityCategory: "exchange",
    source: null,
  });
  const listing = (address: string): SanctionsListing => ({
    network: "ETH",
    address,
    listName: "OFAC SDN",
    program: null,
    entity: null,
    listedAt: T0,
    delistedAt: null,
  });

  /** A memory store whose reads of single addresses are counted (a whole source makes none). */
  async function countedStore() {
    const store = createMemoryStore();
    const reads = { attributions: 0, sanctions: 0 };
    const getAttributions = store.getAttributions.bind(store);
    const getSanctions = store.getSanctions.bind(store);
    store.getAttributions = async (n, a) => {
      reads.attributions += 1;
      return getAttributions(n, a);
    };
    store.getSanctions = async (a) => {
      reads.sanctions += 1;
      return getSanctions(a);
    };
    return { store, reads };
  }

  it("answer every lookup from memory, loading the tables page by page", async () => {
    const { store, reads } = await countedStore();
    await store.putAttributions(Array.from({ length: 25 }, (_, i) => label(`0x${i}`)));
    await store.putSanctions([listing("0x3"), listing("0x9")]);
    const attributions = await wholeAttributionSource(store, { pageSize: 4 });
    const sanctions = await wholeSanctionsSource(store, { pageSize: 1 });
    expect(attributions?.state().rows).toBe(25);
    expect(await attributions?.attributions("ETH", ["0x3", "0x24", "0xnone", "0x3"])).toEqual([
      label("0x3"),
      label("0x24"),
    ]);
    expect(await attributions?.attributions("TRX", ["0x3"])).toEqual([]);
    expect(await sanctions?.listings(["0x9", "0x4"])).toEqual([listing("0x9")]);
    expect(reads).toEqual({ attributions: 0, sanctions: 0 });
  });

  it("see rows stored later after refreshMs (reloaded in the background), and at once after clear()", async () => {
    const clock = manualClock(T0);
    const store = createMemoryStore();
    await store.putAttributions([label("0xa")]);
    const source = await wholeAttributionSource(store, { refreshMs: 1_000, clock });
    await store.putAttributions([label("0xb"), label("0xa", "Renamed")]);
    expect(await source?.attributions("ETH", ["0xa", "0xb"])).toEqual([label("0xa")]);
    clock.advance(1_001);
    // This lookup starts the reload and still answers from the old snapshot.
    expect(await source?.attributions("ETH", ["0xb"])).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(await source?.attributions("ETH", ["0xa", "0xb"])).toEqual([
      label("0xa", "Renamed"),
      label("0xb"),
    ]);
    await store.putAttributions([label("0xc")]);
    source?.clear();
    expect(await source?.attributions("ETH", ["0xc"])).toEqual([label("0xc")]);
  });

  it("keep their screen across a reload that reads the same rows, and give a new one when a row changed", async () => {
    const clock = manualClock(T0);
    const store = createMemoryStore();
    await store.putAttributions([label("0xa"), label("0xb")]);
    await store.putSanctions([listing("0x3")]);
    const attributions = await wholeAttributionSource(store, { refreshMs: 1_000, clock });
    const sanctions = await wholeSanctionsSource(store, { refreshMs: 1_000, clock });
    const reload = async () => {
      clock.advance(1_001);
      await attributions?.attributions("ETH", ["0xa"]);
      await sanctions?.listings(["0x3"]);
      await new Promise((r) => setImmediate(r));
    };
    const screenA = attributions?.addressScreen?.();
    const screenS = sanctions?.addressScreen?.();
    expect(screenA?.mayResolve("0xb")).toBe(true);
    await reload();
    expect(attributions?.state().loadedAt).toBe(T0 + 1_001);
    expect(attributions?.addressScreen?.()).toBe(screenA);
    expect(sanctions?.addressScreen?.()).toBe(screenS);
    // A changed field (same addresses) and a new listing: new snapshots, new screens.
    await store.putAttributions([label("0xb", "Renamed")]);
    await store.putSanctions([listing("0x4")]);
    await reload();
    expect(attributions?.addressScreen?.()).not.toBe(screenA);
    expect(await attributions?.attributions("ETH", ["0xb"])).toEqual([label("0xb", "Renamed")]);
    expect(sanctions?.addressScreen?.()).not.toBe(screenS);
    expect(sanctions?.addressScreen?.()?.mayResolve("0x4")).toBe(true);
  });

  it("are not held past maxRows: the warm sources then keep a cache in front of the store", async () => {
    const store = createMemoryStore();
    await store.putAttributions([label("0xa"), label("0xb"), label("0xc")]);
    expect(await wholeAttributionSource(store, { maxRows: 2, pageSize: 1 })).toBeNull();
    expect(await wholeAttributionSource(store, { maxRows: 3 })).not.toBeNull();
    const warm = await createWarmSources(store, { reference: { maxRows: 2 } });
    expect(await warm.attributions.attributions("ETH", ["0xb"])).toEqual([label("0xb")]);
    expect("state" in warm.attributions).toBe(false);
    expect("state" in warm.sanctions).toBe(true);
  });

  it("refuse bad options, naming the one that is wrong", async () => {
    const store = createMemoryStore();
    await expect(wholeAttributionSource(store, { maxRows: 0 })).rejects.toThrow(/maxRows/);
    await expect(wholeSanctionsSource(store, { pageSize: 1.5 })).rejects.toThrow(/pageSize/);
    await expect(wholeSanctionsSource(store, { refreshMs: -1 })).rejects.toThrow(/refreshMs/);
  });
});
