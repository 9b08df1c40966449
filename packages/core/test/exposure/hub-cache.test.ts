/**
 * The hub cache's bound: a full cache makes way only with hubs not read for `minIdleMs` (least
 * recently read first) and otherwise refuses the newcomer, so a working set larger than the bound
 * does not load and evict a hub per visit; an incoming hub needs room for twice its rows (its
 * senders' siblings come later).
 */
import { describe, expect, it } from "vitest";
import type { LedgerTransfer } from "../../src/domain/records.js";
import { HubCache } from "../../src/exposure/hub-cache.js";

/** `n` rows into (or out of, for "outgoing") `address`. */
function rows(address: string, n: number, direction: "incoming" | "outgoing" = "outgoing"): LedgerTransfer[] {
  return Array.from({ length: n }, (_, i) => ({
    network: "ETH",
    txHash: `0x${address}${i}`,
    logIndex: 0,
    tokenId: "native",
    from: direction === "outgoing" ? address : `s${i}`,
    to: direction === "outgoing" ? `r${i}` : address,
    amount: 1,
    occurredAt: i,
    block: null,
    valueUsd: null,
  }));
}

describe("hub cache bound", () => {
  it("evicts only hubs idle for minIdleMs, least recently read first, and refuses a newcomer otherwise", () => {
    let now = 0;
    const cache = new HubCache({ maxRows: 100, minIdleMs: 1_000, now: () => now });
    expect(cache.admit("outgoing", "ETH", "native", "a", rows("a", 40))).toBe(true);
    expect(cache.admit("outgoing", "ETH", "native", "b", rows("b", 40))).toBe(true);
    now = 500;
    // 40 more rows do not fit, and no hub is idle: refused, nothing evicted.
    expect(cache.canAdmit("outgoing", 40)).toBe(false);
    expect(cache.admit("outgoing", "ETH", "native", "c", rows("c", 40))).toBe(false);
    expect(cache.stats()).toMatchObject({ hubs: 2, rows: 80, evicted: 0, refused: 1 });
    now = 1_200;
    cache.get("outgoing", "ETH", "native", "a");
    // "b" has been idle 1,200 ms, "a" was just read: "b" makes way.
    expect(cache.canAdmit("outgoing", 40)).toBe(true);
    expect(cache.admit("outgoing", "ETH", "native", "c", rows("c", 40))).toBe(true);
    expect(cache.has("outgoing", "ETH", "native", "b")).toBe(false);
    expect(cache.has("outgoing", "ETH", "native", "a")).toBe(true);
    expect(cache.stats()).toMatchObject({ hubs: 2, rows: 80, evicted: 1, refused: 1 });
    // Larger than the whole bound: never held.
    now = 10_000;
    expect(cache.admit("outgoing", "ETH", "native", "d", rows("d", 101))).toBe(false);
    expect(cache.stats().hubs).toBe(2);
  });

  it("asks room for twice an incoming hub's rows, and with minIdleMs 0 any hub makes way", () => {
    const cache = new HubCache({ maxRows: 100, minIdleMs: 0, now: () => 5 });
    expect(cache.canAdmit("incoming", 51)).toBe(false);
    expect(cache.canAdmit("incoming", 50)).toBe(true);
    expect(cache.canAdmit("outgoing", 100)).toBe(true);
    expect(cache.admit("incoming", "ETH", "native", "h", rows("h", 50, "incoming"))).toBe(true);
    cache.get("incoming", "ETH", "native", "h");
    expect(cache.admit("outgoing", "ETH", "native", "o", rows("o", 80))).toBe(true);
    expect(cache.has("incoming", "ETH", "native", "h")).toBe(false);
    expect(cache.stats()).toMatchObject({ hubs: 1, rows: 80, evicted: 1 });
  });
});
