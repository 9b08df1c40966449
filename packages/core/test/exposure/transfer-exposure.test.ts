import { describe, expect, it } from "vitest";
import { traceTransferExposure } from "../../src/exposure/transfer-exposure.js";
import { attr, ledgerOf, listing, resolverOf, shareOf, tr } from "./trace-fixtures.js";

const span = { from: 1000, to: 2000 };
const base = {
  network: "ETH",
  tokenId: "native",
  direction: "incoming" as const,
  counterparty: "s",
  at: 1000,
  value: 1000,
  span,
};

describe("traceTransferExposure, incoming", () => {
  // s <- x (exchange) 70 @500, s <- y 30 @600; y <- m (mixer) 25 @400, y <- d (darknet) 75 @300;
  // y <- z (scam) 999 @700 is after y's transfer to s and ignored; s <- q (scam) @1000 is not before the transfer.
  const rows = [
    tr("x", "s", 70, 500),
    tr("y", "s", 30, 600),
    tr("m", "y", 25, 400),
    tr("d", "y", 75, 300),
    tr("z", "y", 999, 700),
    tr("q", "s", 999, 1000),
  ];
  const attributions = [
    attr("x", "exchange", "Binance"),
    attr("m", "mixer", "Tornado"),
    attr("d", "darknet_market", "Hydra"),
    attr("z", "scam"),
    attr("q", "scam"),
  ];

  it("splits 70/30 then 25/75 (mixer 0.3 * 0.25 = 0.075)", async () => {
    const resolver = resolverOf(attributions);
    const result = await traceTransferExposure({ ...base, ledger: ledgerOf(rows), resolver });
    expect(result.direct).toBeNull();
    expect(result.truncated).toBe(false);
    expect(result.edgesRead).toBe(4);
    expect(result.hops).toBe(3);
    expect(result.shares.map((s) => s.category)).toEqual(["exchange", "darknet_market", "mixer"]);
    const [exchange, darknet, mixer] = result.shares;
    expect(exchange).toMatchObject({
      share: 0.7,
      valueInFiat: 700,
      minHops: 2,
      path: ["s", "x"],
      proximity: "indirect",
    });
    expect(exchange!.entityNames).toEqual(["Binance"]);
    expect(mixer!.share).toBe(0.075);
    expect(mixer!.valueInFiat).toBeCloseTo(75, 9);
    expect(mixer).toMatchObject({ minHops: 3, path: ["s", "y", "m"], entityNames: ["Tornado"] });
    expect(darknet!.share).toBeCloseTo(0.225, 12);
    expect(result.shares.reduce((sum, s) => sum + s.share, 0)).toBeCloseTo(1, 12);
    // One resolver call for s, then one per hop.
    expect(resolver.calls).toMatchObject({ attributions: 3, sanctions: 3 });
    expect(resolver.calls.addresses).toEqual([["s"], ["x", "y"], ["d", "m"]]);
    expect(
      Object.isFrozen(result) && Object.isFrozen(result.shares) && Object.isFrozen(result.shares[0]),
    ).toBe(true);
  });

  it("gives a null fiat value when the transfer's value is unknown", async () => {
    const result = await traceTransferExposure({
      ...base,
      value: null,
      ledger: ledgerOf(rows),
      resolver: resolverOf(attributions),
    });
    expect(result.shares.every((s) => s.valueInFiat === null)).toBe(true);
  });

  it("is a direct interaction when the counterparty is attributed", async () => {
    const result = await traceTransferExposure({
      ...base,
      ledger: ledgerOf(rows),
      resolver: resolverOf([attr("s", "exchange", "Kraken")]),
    });
    expect(result.direct).toEqual({ name: "Kraken", category: "exchange", valueInFiat: 1000 });
    expect(result.shares).toEqual([
      {
        category: "exchange",
        proximity: "direct",
        share: 1,
        valueInFiat: 1000,
        entityNames: ["Kraken"],
        minHops: 1,
        path: ["s"],
        pathTxHashes: [],
      },
    ]);
    expect(result).toMatchObject({ edgesRead: 0, hops: 1, truncated: false });
  });

  it("counts an address with no earlier incoming transfer as undefined", async () => {
    // s <- a 40 @900 (a has nothing before), s <- b 60 @800 (b: exchange)
    const result = await traceTransferExposure({
      ...base,
      ledger: ledgerOf([tr("a", "s", 40, 900), tr("b", "s", 60, 800)]),
      resolver: resolverOf([attr("b", "exchange")]),
    });
    expect(shareOf(result.shares, "exchange")).toBe(0.6);
    expect(shareOf(result.shares, "undefined")).toBeCloseTo(0.4, 12);
    expect(result.shares.find((s) => s.category === "undefined")).toMatchObject({
      minHops: 2,
      path: ["s", "a"],
    });
    expect(result.edgesRead).toBe(2);
  });

  it("is wholly undefined when the counterparty received nothing before", async () => {
    const result = await traceTransferExposure({ ...base, ledger: ledgerOf([]), resolver: resolverOf([]) });
    expect(result.shares).toEqual([
      {
        category: "undefined",
        proximity: "indirect",
        share: 1,
        valueInFiat: 1000,
        entityNames: [],
        minHops: 1,
        path: ["s"],
        pathTxHashes: [],
      },
    ]);
    expect(result.hops).toBe(1);
  });

  it("follows a 3-hop branching graph", async () => {
    // s <- a 50 @900, s <- b 50 @900; a <- c 20 @800 (gambling), a <- e 80 @700;
    // e <- f 1 @600 (stolen_funds), e <- g 3 @500 (exchange); b <- h 10 @850 (exchange)
    const result = await traceTransferExposure({
      ...base,
      ledger: ledgerOf([
        tr("a", "s", 50, 900),
        tr("b", "s", 50, 900),
        tr("c", "a", 20, 800),
        tr("e", "a", 80, 700),
        tr("f", "e", 1, 600),
        tr("g", "e", 3, 500),
        tr("h", "b", 10, 850),
      ]),
      resolver: resolverOf([
        attr("c", "gambling"),
        attr("f", "stolen_funds"),
        attr("g", "exchange"),
        attr("h", "exchange"),
      ]),
    });
    // exchange: b->h 0.5 + a->e->g 0.5*0.8*0.75 = 0.3; gambling 0.5*0.2 = 0.1; stolen 0.5*0.8*0.25 = 0.1
    expect(shareOf(result.shares, "exchange")).toBeCloseTo(0.8, 12);
    expect(shareOf(result.shares, "gambling")).toBeCloseTo(0.1, 12);
    expect(shareOf(result.shares, "stolen_funds")).toBeCloseTo(0.1, 12);
    expect(shareOf(result.shares, "undefined")).toBe(0);
    const stolen = result.shares.find((s) => s.category === "stolen_funds")!;
    expect(stolen).toMatchObject({ minHops: 4, path: ["s", "a", "e", "f"] });
    expect(result.shares.find((s) => s.category === "exchange")).toMatchObject({
      minHops: 3,
      path: ["s", "b", "h"],
    });
    expect(result).toMatchObject({ hops: 4, edgesRead: 7 });
  });

  it("meets an address again at an earlier time", async () => {
    // s <- a 50 @900, s <- b 50 @800; a <- b 100 @700; b <- c 60 @750 (exchange), b <- d 40 @600 (scam).
    // b@800 sees c and d: exchange 0.3, scam 0.2; b@700 (via a) sees only d: scam 0.5.
    const result = await traceTransferExposure({
      ...base,
      ledger: ledgerOf([
        tr("a", "s", 50, 900),
        tr("b", "s", 50, 800),
        tr("b", "a", 100, 700),
        tr("c", "b", 60, 750),
        tr("d", "b", 40, 600),
      ]),
      resolver: resolverOf([attr("c", "exchange"), attr("d", "scam")]),
    });
    expect(shareOf(result.shares, "scam")).toBeCloseTo(0.7, 12);
    expect(shareOf(result.shares, "exchange")).toBeCloseTo(0.3, 12);
    expect(result.shares.find((s) => s.category === "scam")).toMatchObject({
      minHops: 3,
      path: ["s", "a", "b", "d"],
    });
  });

  it("counts weight still unattributed at maxHops as undefined", async () => {
    // s <- a <- b <- c <- d <- e (exchange): e is at hop 6.
    const chain = [
      tr("a", "s", 1, 900),
      tr("b", "a", 1, 800),
      tr("c", "b", 1, 700),
      tr("d", "c", 1, 600),
      tr("e", "d", 1, 500),
    ];
    const resolver = resolverOf([attr("e", "exchange")]);
    const five = await traceTransferExposure({ ...base, maxHops: 5, ledger: ledgerOf(chain), resolver });
    expect(five.shares).toEqual([
      {
        category: "undefined",
        proximity: "indirect",
        share: 1,
        valueInFiat: 1000,
        entityNames: [],
        minHops: 5,
        path: ["s", "a", "b", "c", "d"],
        pathTxHashes: ["0xa-s-900", "0xb-a-800", "0xc-b-700", "0xd-c-600"],
      },
    ]);
    expect(five).toMatchObject({ hops: 5, edgesRead: 4 });
    const six = await traceTransferExposure({ ...base, maxHops: 6, ledger: ledgerOf(chain), resolver });
    expect(six.shares.map((s) => [s.category, s.share, s.minHops])).toEqual([["exchange", 1, 6]]);
    const one = await traceTransferExposure({ ...base, maxHops: 1, ledger: ledgerOf(chain), resolver });
    expect(one.shares.map((s) => [s.category, s.share])).toEqual([["undefined", 1]]);
    expect(one.edgesRead).toBe(0);
  });

  describe("sanctions two hops back", () => {
    // s <- a 50 @900, s <- b 50 @900 (exchange); a <- z 40 @800 (attributed exchange, maybe sanctioned), a <- g 60 @700 (gambling)
    const rows2 = [
      tr("a", "s", 50, 900),
      tr("b", "s", 50, 900),
      tr("z", "a", 40, 800),
      tr("g", "a", 60, 700),
    ];
    const attributions2 = [attr("b", "exchange"), attr("z", "exchange", "Garantex"), attr("g", "gambling")];
    const run = (listings: ReturnType<typeof listing>[]) =>
      traceTransferExposure({
        ...base,
        ledger: ledgerOf(rows2),
        resolver: resolverOf(attributions2, listings),
      });

    it.each([
      ["listed within the span", listing("z", 1500, null), 0.2],
      ["listed with no known start", listing("z", null, null), 0.2],
      ["delisted on the span's first day", listing("z", 10, 1000), 0.2],
      ["listed after the span", listing("z", 2001, null), 0],
      ["delisted before the span", listing("z", 10, 999), 0],
    ])("%s", async (_name, l, expected) => {
      const result = await run([l]);
      expect(shareOf(result.shares, "sanctions")).toBeCloseTo(expected, 12);
      expect(shareOf(result.shares, "exchange")).toBeCloseTo(0.7 - expected, 12);
      expect(shareOf(result.shares, "gambling")).toBeCloseTo(0.3, 12);
      if (expected > 0) {
        expect(result.shares.find((s) => s.category === "sanctions")).toMatchObject({
          entityNames: ["Lazarus"],
          minHops: 3,
          path: ["s", "a", "z"],
          valueInFiat: 200,
        });
      }
    });
  });

  describe("edge budget", () => {
    // s <- a 60 @900, s <- b 40 @900; a has 3 incoming (exchange), b has 2 incoming (scam).
    const rows3 = [
      tr("a", "s", 60, 900),
      tr("b", "s", 40, 900),
      tr("e1", "a", 1, 800),
      tr("e2", "a", 1, 800),
      tr("e3", "a", 1, 800),
      tr("k1", "b", 1, 800),
      tr("k2", "b", 1, 800),
    ];
    const resolver = resolverOf(
      ["e1", "e2", "e3"].map((a) => attr(a, "exchange")).concat(["k1", "k2"].map((a) => attr(a, "scam"))),
    );
    const run = (edgeBudget: number) =>
      traceTransferExposure({ ...base, edgeBudget, ledger: ledgerOf(rows3), resolver });

    it("explores everything when it suffices", async () => {
      const result = await run(7);
      expect(result).toMatchObject({ truncated: false, edgesRead: 7 });
      expect(shareOf(result.shares, "exchange")).toBe(0.6);
      expect(shareOf(result.shares, "scam")).toBe(0.4);
    });

    it("goes heaviest first and counts what it could not read as undefined", async () => {
      const five = await run(5);
      expect(five).toMatchObject({ truncated: true, edgesRead: 5 });
      expect(shareOf(five.shares, "exchange")).toBe(0.6);
      expect(shareOf(five.shares, "undefined")).toBeCloseTo(0.4, 12);
      // a (0.6) needs 3 edges but only 2 are left: skipped; b (0.4) fits.
      const four = await run(4);
      expect(four).toMatchObject({ truncated: true, edgesRead: 4 });
      expect(shareOf(four.shares, "scam")).toBe(0.4);
      expect(shareOf(four.shares, "undefined")).toBeCloseTo(0.6, 12);
      const one = await run(1);
      expect(one).toMatchObject({ truncated: true, edgesRead: 0 });
      expect(one.shares.map((s) => [s.category, s.share])).toEqual([["undefined", 1]]);
    });
  });
});

describe("traceTransferExposure, outgoing", () => {
  it("mirrors the trace forward in time", async () => {
    // r -> s @1000; s -> x (exchange) 30 @1100, s -> y 70 @1200; y -> m (mixer) 25 @1300, y -> d (darknet) 75 @1250;
    // y -> z (scam) @1100 happened before y received the funds and is ignored; s -> q @1000 is not after.
    const result = await traceTransferExposure({
      ...base,
      direction: "outgoing",
      ledger: ledgerOf([
        tr("r", "s", 5, 1000),
        tr("s", "x", 30, 1100),
        tr("s", "y", 70, 1200),
        tr("y", "m", 25, 1300),
        tr("y", "d", 75, 1250),
        tr("y", "z", 500, 1100),
        tr("s", "q", 500, 1000),
      ]),
      resolver: resolverOf([
        attr("x", "exchange"),
        attr("m", "mixer"),
        attr("d", "darknet_market"),
        attr("z", "scam"),
        attr("q", "scam"),
      ]),
    });
    expect(shareOf(result.shares, "exchange")).toBe(0.3);
    expect(shareOf(result.shares, "mixer")).toBe(0.175);
    expect(shareOf(result.shares, "darknet_market")).toBeCloseTo(0.525, 12);
    expect(shareOf(result.shares, "scam")).toBe(0);
    expect(result.shares.find((s) => s.category === "mixer")).toMatchObject({
      path: ["s", "y", "m"],
      minHops: 3,
    });
    expect(result).toMatchObject({ edgesRead: 4, hops: 3, truncated: false });
  });
});

describe("trace limits", () => {
  it("refuses a maxHops below 1 and a negative edge budget", async () => {
    const common = { ...base, ledger: ledgerOf([]), resolver: resolverOf([]) };
    await expect(traceTransferExposure({ ...common, maxHops: 0 })).rejects.toThrow(/maxHops/);
    await expect(traceTransferExposure({ ...common, edgeBudget: -1 })).rejects.toThrow(/edgeBudget/);
    await expect(traceTransferExposure({ ...common, minPathWeight: 1 })).rejects.toThrow(/minPathWeight/);
    await expect(traceTransferExposure({ ...common, minPathWeight: Number.NaN })).rejects.toThrow(
      /minPathWeight/,
    );
  });

  it("reaches 20 hops by default", async () => {
    // s <- h1 <- h2 <- ... <- h19 (exchange): h19 is at hop 20.
    const chain = Array.from({ length: 19 }, (_, i) => tr(`h${i + 1}`, i === 0 ? "s" : `h${i}`, 1, 900 - i));
    const resolver = resolverOf([attr("h19", "exchange")]);
    const result = await traceTransferExposure({ ...base, ledger: ledgerOf(chain), resolver });
    expect(result.shares.map((s) => [s.category, s.share, s.minHops])).toEqual([["exchange", 1, 20]]);
    const longer = [...chain, tr("h20", "h19", 1, 880)];
    const past = await traceTransferExposure({
      ...base,
      ledger: ledgerOf(longer),
      resolver: resolverOf([attr("h20", "exchange")]),
    });
    expect(past.shares.map((s) => [s.category, s.share])).toEqual([["undefined", 1]]);
  });
});

describe("order inside a block and the weight floor", () => {
  /** A transfer in block 100 (time 1000) at log index `logIndex`. */
  const inBlock = (from: string, to: string, amount: number, logIndex: number) => ({
    ...tr(from, to, amount, 1000, logIndex),
    txHash: `0x${from}-${to}`,
    block: 100,
  });

  it("follows funds received earlier in the same block (the docs' example)", async () => {
    // s <- x (log 7) is the screened transfer's counterparty hop; x <- a (log 3) came earlier in
    // the block, x <- b (log 9) later; x <- c came a block before.
    const rows = [
      inBlock("a", "x", 30, 3),
      inBlock("b", "x", 70, 9),
      { ...tr("c", "x", 10, 990), block: 99 },
      inBlock("x", "s", 40, 7),
    ];
    const resolver = resolverOf([attr("a", "stolen_funds"), attr("b", "scam"), attr("c", "exchange")]);
    const result = await traceTransferExposure({ ...base, at: 1200, ledger: ledgerOf(rows), resolver });
    expect(shareOf(result.shares, "stolen_funds")).toBeCloseTo(0.75, 12);
    expect(shareOf(result.shares, "exchange")).toBeCloseTo(0.25, 12);
    expect(shareOf(result.shares, "scam")).toBe(0);
    expect(result.shares[0]).toMatchObject({ path: ["s", "x", "a"], pathTxHashes: ["0xx-s", "0xa-x"] });
    // Without block numbers the same ledger is ordered by time alone: only c funded x.
    const timeOnly = rows.map((r) => ({ ...r, block: null }));
    const old = await traceTransferExposure({ ...base, at: 1200, ledger: ledgerOf(timeOnly), resolver });
    expect(old.shares.map((s) => [s.category, s.share])).toEqual([["exchange", 1]]);
  });

  it("lets funds move either way inside a block when a position is unknown", async () => {
    // x <- a (native value, log index -1) and x -> s (log 7) in the same block.
    const rows = [inBlock("a", "x", 5, -1), inBlock("x", "s", 5, 7)];
    const resolver = resolverOf([attr("a", "stolen_funds")]);
    const result = await traceTransferExposure({ ...base, at: 1200, ledger: ledgerOf(rows), resolver });
    expect(result.shares.map((s) => [s.category, s.share])).toEqual([["stolen_funds", 1]]);
  });

  it("follows the screened transfer's own block when its position is given", async () => {
    const rows = [inBlock("a", "s", 1, 2), inBlock("b", "s", 1, 8)];
    const resolver = resolverOf([attr("a", "stolen_funds"), attr("b", "scam")]);
    const ledger = ledgerOf(rows);
    const given = await traceTransferExposure({
      ...base,
      position: { block: 100, logIndex: 5 },
      ledger,
      resolver,
    });
    expect(given.shares.map((s) => [s.category, s.share])).toEqual([["stolen_funds", 1]]);
    const timeOnly = await traceTransferExposure({ ...base, ledger, resolver });
    expect(timeOnly.shares.map((s) => [s.category, s.share])).toEqual([["undefined", 1]]);
  });

  it("does not follow a path lighter than the floor, and counts it as undefined", async () => {
    // s <- a 999 @900, s <- b 1 @900 (weight 0.001); a <- e (exchange), b <- m (mixer).
    const rows = [tr("a", "s", 999, 900), tr("b", "s", 1, 900), tr("e", "a", 1, 800), tr("m", "b", 1, 800)];
    const resolver = resolverOf([attr("e", "exchange"), attr("m", "mixer")]);
    const ledger = ledgerOf(rows);
    const floor = await traceTransferExposure({ ...base, minPathWeight: 0.01, ledger, resolver });
    expect(floor.shares.map((s) => [s.category, s.share])).toEqual([
      ["exchange", 0.999],
      ["undefined", 0.0010000000000000009],
    ]);
    expect(floor.edgesRead).toBe(3);
    const none = await traceTransferExposure({ ...base, minPathWeight: 0, ledger, resolver });
    expect(shareOf(none.shares, "mixer")).toBeCloseTo(0.001, 12);
    expect(none.edgesRead).toBe(4);
    // An attributed address is credited however light: the floor only stops following.
    const direct = await traceTransferExposure({
      ...base,
      minPathWeight: 0.01,
      ledger,
      resolver: resolverOf([attr("a", "exchange"), attr("b", "mixer")]),
    });
    expect(shareOf(direct.shares, "mixer")).toBeCloseTo(0.001, 12);
  });
});

describe("order inside a block, outgoing", () => {
  it("follows funds forward to what the receiving transfer may fund in its block", async () => {
    // s -> r at 1000 (block 100, log 2) is the transfer the trace leaves s by; r sends on at
    // log 5 (same block, later: followed) to a scam, and at log 1 (earlier: not followed).
    const inBlock = (from: string, to: string, amount: number, logIndex: number) => ({
      ...tr(from, to, amount, 1000, logIndex),
      txHash: `0x${from}-${to}`,
      block: 100,
    });
    const rows = [inBlock("s", "r", 10, 2), inBlock("r", "x", 10, 5), inBlock("r", "y", 10, 1)];
    const resolver = resolverOf([attr("x", "scam"), attr("y", "exchange")]);
    const result = await traceTransferExposure({
      ...base,
      direction: "outgoing",
      counterparty: "s",
      at: 900,
      ledger: ledgerOf(rows),
      resolver,
    });
    expect(result.shares.map((s) => [s.category, s.share])).toEqual([["scam", 1]]);
    expect(result.shares[0]).toMatchObject({ path: ["s", "r", "x"], pathTxHashes: ["0xs-r", "0xr-x"] });
  });
});
