/**
 * Conformance of the address clusters (common-input ownership's union-find): merges are
 * transitive across calls, the larger cluster's id survives, sizes add up, a failed transaction
 * undoes a merge, and a cluster's labelled members are found by attribution or sanctions listing.
 */
import { describe, expect, it } from "vitest";
import type { ConformanceContext } from "./store-conformance.js";

/** Registers the cluster tests. */
export function clusterConformance(ctx: ConformanceContext): void {
  describe("utxo clusters", () => {
    const clustersOf = async (addresses: string[]) =>
      Object.fromEntries(
        (await ctx.store().addressClusters("BTC", addresses)).map((c) => [c.address, [c.clusterId, c.size]]),
      );

    it("joins groups transitively, keeps the larger cluster's id and counts the unions", async () => {
      const store = ctx.store();
      expect(await store.mergeAddressClusters("BTC", [["a", "b", "c"]])).toEqual({
        unions: 2,
        clusterIds: ["a"],
      });
      expect(await store.mergeAddressClusters("BTC", [["x", "y"]])).toEqual({ unions: 1, clusterIds: ["x"] });
      // y's cluster (2) joins a's (3): a's id survives.
      expect(await store.mergeAddressClusters("BTC", [["y", "c"]])).toEqual({ unions: 1, clusterIds: ["a"] });
      expect(await clustersOf(["a", "b", "c", "x", "y", "nobody"])).toEqual({
        a: ["a", 5],
        b: ["a", 5],
        c: ["a", 5],
        x: ["a", 5],
        y: ["a", 5],
      });
      // Idempotent: joining members of one cluster changes nothing.
      expect(await store.mergeAddressClusters("BTC", [["x", "b"], ["a"]])).toEqual({
        unions: 0,
        clusterIds: ["a"],
      });
      expect(await store.mergeAddressClusters("BTC", [])).toEqual({ unions: 0, clusterIds: [] });
      // Networks are apart.
      expect(await store.addressClusters("LTC", ["a"])).toEqual([]);
    });

    it("joins several groups of one call, and a newcomer joins the cluster it meets", async () => {
      const store = ctx.store();
      await store.mergeAddressClusters("BTC", [["p", "q", "r"]]);
      const outcome = await store.mergeAddressClusters("BTC", [
        ["s", "t"],
        ["t", "u"],
        ["new", "q"],
      ]);
      expect(outcome.unions).toBe(3);
      expect([...outcome.clusterIds].sort()).toEqual(["p", "s"]);
      const got = await clustersOf(["p", "new", "s", "t", "u"]);
      expect(got.new).toEqual(["p", 4]);
      expect(got.p).toEqual(["p", 4]);
      expect(got.s?.[1]).toBe(3);
      expect(got.t?.[0]).toBe(got.s?.[0]);
      expect(got.u?.[0]).toBe(got.s?.[0]);
    });

    it("a failed transaction undoes a merge", async () => {
      await ctx.store().mergeAddressClusters("BTC", [["a", "b"]]);
      await expect(
        ctx.store().transaction(async (tx) => {
          await tx.mergeAddressClusters("BTC", [
            ["b", "c"],
            ["d", "e"],
          ]);
          throw new Error("abort");
        }),
      ).rejects.toThrow("abort");
      expect(await clustersOf(["a", "b", "c", "d"])).toEqual({ a: ["a", 2], b: ["a", 2] });
    });

    it("lists a cluster's members that carry an attribution or a sanctions listing", async () => {
      const store = ctx.store();
      await store.mergeAddressClusters("BTC", [
        ["m1", "m2", "m3", "m4"],
        ["o1", "o2"],
      ]);
      await store.putAttributions([
        { network: "BTC", address: "m3", entityName: "Ex", entityCategory: "exchange", source: null },
        {
          network: "ETH",
          address: "m2",
          entityName: "Other chain",
          entityCategory: "exchange",
          source: null,
        },
      ]);
      await store.putSanctions([
        {
          network: "BTC",
          address: "m1",
          listName: "OFAC SDN",
          program: null,
          entity: "Bad",
          listedAt: null,
          delistedAt: null,
        },
      ]);
      expect(await store.clusterLabelledMembers("BTC", ["m1", "o1"], 10)).toEqual([
        { clusterId: "m1", address: "m1" },
        { clusterId: "m1", address: "m3" },
      ]);
      expect(await store.clusterLabelledMembers("BTC", ["m1"], 1)).toEqual([
        { clusterId: "m1", address: "m1" },
      ]);
      expect(await store.clusterLabelledMembers("BTC", [], 10)).toEqual([]);
      // Several clusters in one call: the limit holds per cluster, clusters in id order.
      await store.putAttributions([
        { network: "BTC", address: "o2", entityName: "Shop", entityCategory: "exchange", source: null },
      ]);
      expect(await store.clusterLabelledMembers("BTC", ["o1", "m1", "o1"], 1)).toEqual([
        { clusterId: "m1", address: "m1" },
        { clusterId: "o1", address: "o2" },
      ]);
    });

    it("keeps a member's labels when its cluster is swallowed, and labels newcomers labelled before", async () => {
      const store = ctx.store();
      const attribution = (address: string) => ({
        network: "BTC",
        address,
        entityName: `E ${address}`,
        entityCategory: "exchange",
        source: null,
      });
      // Labelled before any cluster holds them.
      await store.putAttributions([attribution("p2"), attribution("q3"), attribution("z9")]);
      await store.mergeAddressClusters("BTC", [["p1", "p2", "p3"]]);
      await store.mergeAddressClusters("BTC", [["q1", "q2"]]);
      expect(await store.clusterLabelledMembers("BTC", ["p1", "q1"], 10)).toEqual([
        { clusterId: "p1", address: "p2" },
      ]);
      // q1's cluster (2) is swallowed by p1's (3), and q3 joins as a new labelled address.
      await store.mergeAddressClusters("BTC", [["q2", "p3", "q3"]]);
      expect(await store.clusterLabelledMembers("BTC", ["p1"], 10)).toEqual([
        { clusterId: "p1", address: "p2" },
        { clusterId: "p1", address: "q3" },
      ]);
      expect(await store.clusterLabelledMembers("BTC", ["q1"], 10)).toEqual([]);
      // Labelled again (an upsert) and sanctioned too: still one row.
      await store.putAttributions([attribution("p2")]);
      expect(await store.clusterLabelledMembers("BTC", ["p1"], 10)).toHaveLength(2);
    });

    it("reads a large cluster's few labelled members in order, across label kinds", async () => {
      const store = ctx.store();
      const size = 3_000;
      const members = Array.from({ length: size }, (_, i) => `big${String(i).padStart(5, "0")}`);
      await store.mergeAddressClusters("BTC", [members]);
      const [cluster] = await store.addressClusters("BTC", [members[0]!]);
      expect(cluster?.size).toBe(size);
      await store.putAttributions([
        {
          network: "BTC",
          address: members[2_999]!,
          entityName: "A",
          entityCategory: "exchange",
          source: null,
        },
        {
          network: "BTC",
          address: members[1_500]!,
          entityName: "B",
          entityCategory: "exchange",
          source: null,
        },
        { network: "ETH", address: members[7]!, entityName: "C", entityCategory: "exchange", source: null },
      ]);
      await store.putSanctions([
        {
          network: "ETH",
          address: members[42]!,
          listName: "OFAC SDN",
          program: null,
          entity: "Bad",
          listedAt: null,
          delistedAt: null,
        },
      ]);
      const id = cluster!.clusterId;
      expect(await store.clusterLabelledMembers("BTC", [id], 100)).toEqual([
        { clusterId: id, address: members[42] },
        { clusterId: id, address: members[1_500] },
        { clusterId: id, address: members[2_999] },
      ]);
      expect(await store.clusterLabelledMembers("BTC", [id], 2)).toEqual([
        { clusterId: id, address: members[42] },
        { clusterId: id, address: members[1_500] },
      ]);
      expect(await store.clusterLabelledMembers("BTC", [id], 0)).toEqual([]);
    });
  });
}
