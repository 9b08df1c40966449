import { describe, expect, it } from "vitest";
import type { ExposureResult } from "../../src/domain/records.js";
import { traceUtxoAddressExposure, traceUtxoTransferExposure } from "../../src/exposure/utxo-exposure.js";
import type { UtxoTaintRule } from "../../src/exposure/utxo-taint-rules.js";
import { resolverOf } from "./trace-fixtures.js";
import { battr, btx, coin, held, txid, utxoLedgerOf } from "./utxo-fixtures.js";

const SPAN = { from: 0, to: 10_000 };
const labels = [
  battr("S", "stolen_funds", "Hack"),
  battr("X", "exchange", "ExA"),
  battr("Y", "exchange", "ExB"),
];

/** The exposure of the deposit of `tx` to `address`, by `rule`. */
async function deposit(
  txs: Parameters<typeof utxoLedgerOf>[0],
  name: string,
  address: string,
  rule: UtxoTaintRule,
  limits: { maxHops?: number; edgeBudget?: number; minPathWeight?: number } = {},
): Promise<ExposureResult> {
  const ledger = utxoLedgerOf(txs);
  const tx = held(ledger.index, txs.find((t) => t.txid === txid(name))!);
  return traceUtxoTransferExposure({
    ledger,
    resolver: resolverOf(labels),
    network: "BTC",
    direction: "incoming",
    tx,
    address,
    value: 1000,
    span: SPAN,
    rule,
    ...limits,
  });
}

/** Shares by category, rounded to 1e-9. */
function shares(e: ExposureResult): Record<string, number> {
  return Object.fromEntries(e.shares.map((s) => [s.category, Math.round(s.share * 1e9) / 1e9]));
}

// Funding: coins of S (stolen), X (exchange) and U (an address whose coin the ledger did not see made).
const funding = [btx("fs", 1, "coinbase", [["S", 600]]), btx("fx", 2, "coinbase", [["X", 300]])];

describe("UTXO transfer exposure (worked examples of docs/risk-model.md, Bitcoin)", () => {
  // A consolidation: three coins into a deposit of 700 and change of 300.
  const consolidation = btx(
    "cons",
    10,
    [coin("fs", 0, "S", 600), coin("fx", 0, "X", 300), coin("unseen", 0, "U", 100)],
    [
      ["D", 700],
      ["C", 300],
    ],
  );

  it("haircut: every output carries the inputs' composition pro rata", async () => {
    const e = await deposit([...funding, consolidation], "cons", "D", "haircut");
    expect(shares(e)).toEqual({ stolen_funds: 0.6, exchange: 0.3, undefined: 0.1 });
    const stolen = e.shares.find((s) => s.category === "stolen_funds")!;
    expect(stolen.path).toEqual(["D", "S"]);
    expect(stolen.pathTxHashes).toEqual([`${txid("cons")}:0`, `${txid("fs")}:0`]);
    expect(stolen.proximity).toBe("indirect");
    expect(e.direct).toBeNull();
    expect(e.edgesRead).toBe(3);
  });

  it("fifo: the deposit takes the first 700 satoshis of the inputs in order", async () => {
    const e = await deposit([...funding, consolidation], "cons", "D", "fifo");
    expect(shares(e)).toEqual({ stolen_funds: round(6 / 7), exchange: round(1 / 7) });
    const change = await deposit([...funding, consolidation], "cons", "C", "fifo");
    expect(shares(change)).toEqual({ exchange: round(2 / 3), undefined: round(1 / 3) });
  });

  it("a split: each part is wholly of the coin it split, by either rule", async () => {
    const split = btx(
      "split",
      10,
      [coin("fs", 0, "S", 600)],
      [
        ["A", 300],
        ["B", 200],
        ["C", 100],
      ],
    );
    for (const rule of ["haircut", "fifo"] as const) {
      expect(shares(await deposit([...funding, split], "split", "B", rule))).toEqual({ stolen_funds: 1 });
    }
  });

  it("a peel chain: followed hop by hop through the change, with txid:vout per hop", async () => {
    const chain = [
      ...funding,
      btx(
        "p1",
        10,
        [coin("fs", 0, "S", 600)],
        [
          ["x1", 100],
          ["c1", 500],
        ],
      ),
      btx(
        "p2",
        11,
        [coin("p1", 1, "c1", 500)],
        [
          ["x2", 100],
          ["c2", 400],
        ],
      ),
      btx(
        "p3",
        12,
        [coin("p2", 1, "c2", 400)],
        [
          ["D", 100],
          ["c3", 300],
        ],
      ),
    ];
    for (const rule of ["haircut", "fifo"] as const) {
      const e = await deposit(chain, "p3", "D", rule);
      expect(shares(e)).toEqual({ stolen_funds: 1 });
      expect(e.shares[0]!.minHops).toBe(3);
      expect(e.shares[0]!.path).toEqual(["D", "c2", "c1", "S"]);
      expect(e.shares[0]!.pathTxHashes).toEqual([
        `${txid("p3")}:0`,
        `${txid("p2")}:1`,
        `${txid("p1")}:1`,
        `${txid("fs")}:0`,
      ]);
      // Each coin's value, and where the path starts: the deposit's own output, hop 0.
      expect(e.shares[0]!.pathValues).toEqual([100, 400, 500, 600]);
      expect(e.shares[0]!.pathStartHop).toBe(0);
      expect(e.utxoRule).toBe(rule);
    }
    // Two hops deep is as far as maxHops 2 follows: the rest is undefined.
    expect(shares(await deposit(chain, "p3", "D", "haircut", { maxHops: 2 }))).toEqual({ undefined: 1 });
  });

  it("a CoinJoin: haircut spreads the mix evenly, FIFO keeps the order of inputs and outputs", async () => {
    const txs = [
      btx("fs", 1, "coinbase", [["S", 1000]]),
      btx("fx", 2, "coinbase", [["X", 1000]]),
      btx("fy", 3, "coinbase", [["Y", 1000]]),
      btx(
        "mix",
        10,
        [coin("fs", 0, "S", 1000), coin("fx", 0, "X", 1000), coin("fy", 0, "Y", 1000)],
        [
          ["O1", 900],
          ["O2", 900],
          ["O3", 900],
          ["cS", 100],
          ["cX", 100],
          ["cY", 100],
        ],
      ),
    ];
    expect(shares(await deposit(txs, "mix", "O1", "haircut"))).toEqual({
      exchange: round(2 / 3),
      stolen_funds: round(1 / 3),
    });
    expect(shares(await deposit(txs, "mix", "O1", "fifo"))).toEqual({ stolen_funds: 1 });
    expect(shares(await deposit(txs, "mix", "O2", "fifo"))).toEqual({
      exchange: round(8 / 9),
      stolen_funds: round(1 / 9),
    });
  });

  it("newly mined coins are credited to mining", async () => {
    const txs = [
      btx("cb", 1, "coinbase", [["M", 5000]]),
      btx(
        "pay",
        5,
        [coin("cb", 0, "M", 5000)],
        [
          ["D", 4000],
          ["M", 900],
        ],
      ),
    ];
    const e = await deposit(txs, "pay", "D", "haircut");
    expect(shares(e)).toEqual({ mining: 1 });
    expect(e.shares[0]!.minHops).toBe(2);
  });

  it("a deposit whose every input resolves to one entity is a direct interaction", async () => {
    const txs = [
      ...funding,
      btx("fx2", 3, "coinbase", [["X", 50]]),
      btx("out", 10, [coin("fx", 0, "X", 300), coin("fx2", 0, "X", 50)], [["D", 340]]),
    ];
    const e = await deposit(txs, "out", "D", "haircut");
    expect(e.direct).toEqual({ name: "ExA", category: "exchange", valueInFiat: 1000 });
    expect(shares(e)).toEqual({ exchange: 1 });
  });

  it("sums several outputs paying the deposit address, weighted by value", async () => {
    const txs = [
      ...funding,
      btx(
        "two",
        10,
        [coin("fs", 0, "S", 600), coin("fx", 0, "X", 300)],
        [
          ["D", 600],
          ["D", 300],
        ],
      ),
    ];
    // FIFO: D's first output is all S, its second all X: weighted 600:300.
    expect(shares(await deposit(txs, "two", "D", "fifo"))).toEqual({
      stolen_funds: round(2 / 3),
      exchange: round(1 / 3),
    });
  });

  it("stops at the edge budget and says so", async () => {
    const txs = [
      ...funding,
      btx("cons", 10, [coin("fs", 0, "S", 600), coin("fx", 0, "X", 300)], [["D", 900]]),
    ];
    const e = await deposit(txs, "cons", "D", "haircut", { edgeBudget: 1 });
    expect(e.truncated).toBe(true);
    expect(shares(e)).toEqual({ undefined: 1 });
  });

  it("a withdrawal is traced forward through the transactions that spent the counterparty's coins", async () => {
    const txs = [
      btx("fu", 1, "coinbase", [["user", 1000]]),
      btx(
        "wd",
        5,
        [coin("fu", 0, "user", 1000)],
        [
          ["W", 800],
          ["user", 190],
        ],
      ),
      btx(
        "on",
        8,
        [coin("wd", 0, "W", 800)],
        [
          ["X", 600],
          ["unspent", 200],
        ],
      ),
    ];
    const ledger = utxoLedgerOf(txs);
    const tx = held(ledger.index, txs[1]!);
    const input = {
      ledger,
      resolver: resolverOf(labels),
      network: "BTC",
      direction: "outgoing" as const,
      tx,
      address: "W",
      value: null,
      span: SPAN,
    };
    const e = await traceUtxoTransferExposure(input);
    expect(shares(e)).toEqual({ exchange: 0.75, undefined: 0.25 });
    expect(e.shares[0]!.pathTxHashes).toEqual([`${txid("wd")}:0`, `${txid("on")}:0`]);
    // Forward, the path starts at the counterparty's coin: hop 1.
    expect(e.shares[0]!.pathValues).toEqual([800, 600]);
    expect(e.shares[0]!.pathStartHop).toBe(1);
    const direct = await traceUtxoTransferExposure({ ...input, address: "user" });
    expect(direct.direct).toBeNull();
    const toExchange = await traceUtxoTransferExposure({
      ...input,
      tx: held(ledger.index, txs[2]!),
      address: "X",
    });
    expect(toExchange.direct).toMatchObject({ name: "ExA", category: "exchange" });
  });
});

describe("UTXO address exposure", () => {
  const txs = [
    ...funding,
    btx(
      "a1",
      10,
      [coin("fs", 0, "S", 600)],
      [
        ["A", 500],
        ["S", 90],
      ],
    ),
    btx(
      "a2",
      20,
      [coin("fx", 0, "X", 300)],
      [
        ["A", 250],
        ["X", 40],
      ],
    ),
    btx(
      "a3",
      30,
      [coin("a1", 0, "A", 500), coin("a2", 0, "A", 250)],
      [
        ["Y", 700],
        ["A", 40],
      ],
    ),
  ];

  it("a sender's every coin received before the check is traced back", async () => {
    const ledger = utxoLedgerOf(txs);
    const check = (at: number) =>
      traceUtxoAddressExposure({
        ledger,
        resolver: resolverOf(labels),
        network: "BTC",
        address: "A",
        side: "sender",
        at,
        span: SPAN,
      });
    const all = await check(100);
    // 500 from S, 250 from X, 40 change from a3 (itself 2/3 S, 1/3 X by haircut).
    expect(all.exposure!.shares.map((s) => [s.category, round(s.share)])).toEqual([
      ["stolen_funds", round((500 + 40 * (2 / 3)) / 790)],
      ["exchange", round((250 + 40 * (1 / 3)) / 790)],
    ]);
    expect(all.exposure!.shares[0]!.proximity).toBe("direct");
    const early = await check(15);
    expect(early.exposure!.shares.map((s) => s.category)).toEqual(["stolen_funds"]);
  });

  it("a recipient's every coin spent before the check is traced forward", async () => {
    const ledger = utxoLedgerOf(txs);
    const check = (at: number) =>
      traceUtxoAddressExposure({
        ledger,
        resolver: resolverOf(labels),
        network: "BTC",
        address: "A",
        side: "recipient",
        at,
        span: SPAN,
      });
    const e = await check(100);
    expect(e.exposure!.shares.map((s) => [s.category, round(s.share)])).toEqual([
      ["exchange", round(700 / 740)],
      ["undefined", round(40 / 740)],
    ]);
    expect((await check(30)).exposure!.shares.map((s) => s.category)).toEqual(["undefined"]);
    const labelled = await traceUtxoAddressExposure({
      ledger,
      resolver: resolverOf(labels),
      network: "BTC",
      address: "S",
      side: "sender",
      at: 100,
      span: SPAN,
    });
    expect(labelled).toMatchObject({ entity: { name: "Hack", category: "stolen_funds" }, exposure: null });
  });
});

function round(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}
