import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coinJoinKind } from "../../src/domain/coinjoin.js";
import { clusterUtxoTransactions } from "../../src/exposure/utxo-clustering.js";
import { createMemoryStore } from "../../src/store/index.js";
import { resolverOf } from "./trace-fixtures.js";
import { battr, btx, coin } from "./utxo-fixtures.js";

/** A transaction spending one coin from each of `from` and paying `outputs`. */
const spendFrom = (
  name: string,
  from: ReadonlyArray<string>,
  outputs: ReadonlyArray<readonly [string, number]>,
) =>
  btx(
    name,
    10,
    from.map((a, i) => coin(`f${name}${i}`, 0, a, 1_000_000)),
    outputs,
  );

describe("CoinJoin rules", () => {
  it("recognises Whirlpool, Wasabi and JoinMarket mixes, and not ordinary payments", () => {
    const five = ["a", "b", "c", "d", "e"];
    expect(
      coinJoinKind(
        spendFrom(
          "w",
          five,
          five.map((a) => [`o${a}`, 5_000_000] as const),
        ),
      ),
    ).toBe("whirlpool");
    // Five inputs and five equal outputs of a value that is no Whirlpool pool: JoinMarket's shape.
    expect(
      coinJoinKind(
        spendFrom(
          "x",
          five,
          five.map((a) => [`o${a}`, 4_000_000] as const),
        ),
      ),
    ).toBe("joinmarket");
    const twelve = Array.from({ length: 12 }, (_, i) => `p${i}`);
    expect(
      coinJoinKind(
        spendFrom("ww", twelve, [
          ...twelve.map((a) => [`o${a}`, 10_000_000] as const),
          ["coordinator", 30_000],
        ]),
      ),
    ).toBe("wasabi");
    // JoinMarket: 3 equal outputs, 3 changes, 3 inputs.
    expect(
      coinJoinKind(
        spendFrom(
          "jm",
          ["m", "n", "t"],
          [
            ["x1", 2_000_000],
            ["x2", 2_000_000],
            ["x3", 2_000_000],
            ["c1", 1],
            ["c2", 2],
            ["c3", 3],
          ],
        ),
      ),
    ).toBe("joinmarket");
    // A payment with change, a consolidation, a batch payout of distinct values: none.
    expect(
      coinJoinKind(
        spendFrom(
          "pay",
          ["a"],
          [
            ["shop", 300_000],
            ["a", 600_000],
          ],
        ),
      ),
    ).toBeNull();
    expect(coinJoinKind(spendFrom("cons", ["a", "b", "c"], [["d", 2_900_000]]))).toBeNull();
    expect(
      coinJoinKind(
        spendFrom(
          "batch",
          ["hot"],
          Array.from({ length: 20 }, (_, i) => [`u${i}`, 1000 + i] as const),
        ),
      ),
    ).toBeNull();
    // Two equal outputs are too few to call a mix.
    expect(
      coinJoinKind(
        spendFrom(
          "two",
          ["a", "b"],
          [
            ["x", 500],
            ["y", 500],
          ],
        ),
      ),
    ).toBeNull();
  });
});

describe("clustering by common-input ownership", () => {
  it("joins the inputs' addresses, leaves CoinJoins out and reports two entities in one cluster", async () => {
    const store = createMemoryStore();
    await store.putAttributions([
      battr("ex1", "exchange", "Exchange One"),
      battr("dark", "darknet_market", "Market"),
    ]);
    const five = ["ex1", "v", "w", "dark", "z"];
    const txs = [
      spendFrom("t1", ["ex1", "hot1"], [["u", 1]]),
      spendFrom("t2", ["hot1", "hot2", "hot3"], [["u", 1]]),
      spendFrom(
        "mix",
        five,
        five.map((a) => [`o${a}`, 1_000_000] as const),
      ),
      spendFrom("t3", ["solo"], [["u", 1]]),
    ];
    const resolver = resolverOf([
      battr("ex1", "exchange", "Exchange One"),
      battr("dark", "darknet_market", "Market"),
    ]);
    const summary = await clusterUtxoTransactions(store, txs, resolver);
    expect(summary).toMatchObject({ transactions: 4, joined: 2, unions: 3, conflicts: [] });
    expect(summary.coinJoins.whirlpool).toBe(1);
    const clusters = await store.addressClusters("BTC", ["ex1", "hot3", "dark", "solo"]);
    expect(clusters.map((c) => [c.address, c.clusterId, c.size])).toEqual([
      ["ex1", "ex1", 4],
      ["hot3", "ex1", 4],
    ]);
    // The market's wallet spends with the exchange's hot wallet: a conflict, reported.
    const bad = await clusterUtxoTransactions(
      store,
      [spendFrom("t4", ["dark", "hot2"], [["u", 1]])],
      resolver,
    );
    expect(bad.conflicts).toEqual([
      {
        network: "BTC",
        clusterId: "ex1",
        entities: [
          { name: "Exchange One", category: "exchange", address: "ex1" },
          { name: "Market", category: "darknet_market", address: "dark" },
        ],
      },
    ]);
  });

  it("gives the clusters of an independent union-find on random transactions", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 4 }), {
          maxLength: 25,
        }),
        async (groups) => {
          const store = createMemoryStore();
          const txs = groups.map((g, i) =>
            spendFrom(
              `g${i}`,
              g.map((a) => `a${a}`),
              [["sink", 1]],
            ),
          );
          await clusterUtxoTransactions(store, txs, null);
          // The model: connected components by repeated relabelling.
          const label = new Map<string, string>();
          for (const g of groups) for (const a of g) label.set(`a${a}`, `a${a}`);
          for (let changed = true; changed; ) {
            changed = false;
            for (const g of groups) {
              const min = g.map((a) => label.get(`a${a}`)!).sort()[0]!;
              for (const a of g) {
                if (label.get(`a${a}`) !== min) {
                  label.set(`a${a}`, min);
                  changed = true;
                }
              }
            }
          }
          const joined = [...label.keys()].filter((a) =>
            groups.some((g) => g.length > 1 && g.includes(Number(a.slice(1)))),
          );
          const got = await store.addressClusters("BTC", [...label.keys()]);
          expect(got.map((c) => c.address).sort()).toEqual(joined.sort());
          const ids = new Map(got.map((c) => [c.address, c.clusterId]));
          for (const a of joined) {
            for (const b of joined) expect(ids.get(a) === ids.get(b)).toBe(label.get(a) === label.get(b));
            const size = joined.filter((b) => label.get(b) === label.get(a)).length;
            expect(got.find((c) => c.address === a)?.size).toBe(size);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
