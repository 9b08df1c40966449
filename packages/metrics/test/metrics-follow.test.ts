/** The follower's metrics count the address-cluster conflicts its steps met, by network. */
import { describe, expect, it } from "vitest";
import { createMetrics, followMetrics } from "../src/index.js";

const conflict = {
  network: "BTC",
  clusterId: "a",
  entities: [
    { name: "Alpha", category: "exchange", address: "a" },
    { name: "Market", category: "darknet_market", address: "e" },
  ],
};
const step = (conflicts: number) =>
  ({
    kind: "blocks",
    from: 1,
    to: 1,
    transfers: 2,
    inserted: 2,
    head: 1,
    safeHead: 1,
    blockTime: 0,
    clustering: {
      transactions: 2,
      joined: 1,
      coinJoins: { whirlpool: 0, wasabi: 0, joinmarket: 0 },
      unions: 1,
      conflicts: Array.from({ length: conflicts }, () => conflict),
    },
  }) as const;

describe("follow metrics", () => {
  it("counts cluster conflicts: 0 from the start, then each one met", async () => {
    const metrics = createMetrics();
    const observer = followMetrics(metrics, "BTC");
    const value = async () =>
      (await metrics.followClusterConflicts.get()).values.find((v) => v.labels.network === "BTC")?.value;
    expect(await value()).toBe(0);
    observer.step(step(1));
    observer.step(step(0));
    observer.step(step(2));
    observer.step({ ...step(0), clustering: null });
    expect(await value()).toBe(3);
  });
});
