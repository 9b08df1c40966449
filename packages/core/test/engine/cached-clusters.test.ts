/**
 * The cluster cache of a warm process: answers as the store does (clusters, misses, labelled
 * members in the store's order), reads the store once per address and cluster while an answer
 * is young, and sees a merge once its answers are older than `ttlMs`.
 */
import { describe, expect, it } from "vitest";
import { cachingClusterReader, createMemoryStore, manualClock } from "../../src/index.js";

describe("cachingClusterReader", () => {
  it("answers as the store, from memory while young, and anew after ttlMs", async () => {
    const store = createMemoryStore();
    await store.mergeAddressClusters("BTC", [
      ["a1", "a2", "a3"],
      ["b1", "b2"],
    ]);
    await store.putAttributions([
      { network: "BTC", address: "a2", entityName: "Exchange", entityCategory: "exchange", source: "t" },
      { network: "BTC", address: "c1", entityName: "Mixer", entityCategory: "mixer", source: "t" },
    ]);
    let reads = 0;
    const counted = {
      addressClusters: (n: string, a: ReadonlyArray<string>) => {
        reads++;
        return store.addressClusters(n, a);
      },
      clusterLabelledMembers: (n: string, ids: ReadonlyArray<string>, limit: number) => {
        reads++;
        return store.clusterLabelledMembers(n, ids, limit);
      },
    };
    const clock = manualClock(1_000);
    const cache = cachingClusterReader(counted, { ttlMs: 500, clock });
    const byAddress = <T extends { address: string }>(list: ReadonlyArray<T>) =>
      [...list].sort((x, y) => (x.address < y.address ? -1 : 1));
    const asked = ["a1", "b2", "c1", "zz"];
    expect(byAddress(await cache.addressClusters("BTC", asked))).toEqual(
      byAddress(await store.addressClusters("BTC", asked)),
    );
    const ids = (await store.addressClusters("BTC", ["a1", "b1"])).map((c) => c.clusterId);
    expect(await cache.clusterLabelledMembers("BTC", ids, 10)).toEqual(
      await store.clusterLabelledMembers("BTC", ids, 10),
    );
    const before = reads;
    await cache.addressClusters("BTC", ["a1", "zz"]);
    await cache.clusterLabelledMembers("BTC", ids, 10);
    expect(reads).toBe(before);
    // c1 joins a's cluster: seen once the answers are older than ttlMs.
    await store.mergeAddressClusters("BTC", [["c1", "a1"]]);
    clock.advance(501);
    const merged = await cache.addressClusters("BTC", ["c1", "a1"]);
    expect(new Set(merged.map((c) => c.clusterId)).size).toBe(1);
    expect(reads).toBe(before + 1);
    const [cluster] = merged;
    expect(
      (await cache.clusterLabelledMembers("BTC", [cluster?.clusterId ?? ""], 10))
        .map((m) => m.address)
        .sort(),
    ).toEqual(["a2", "c1"]);
  });
});
