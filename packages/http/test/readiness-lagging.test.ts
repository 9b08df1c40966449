/** /readyz of a process that can fall behind (a chain follower): not ready while it says it lags. */
import { describe, expect, it } from "vitest";
import { createReadiness } from "../src/readiness.js";

describe("readiness with a lag", () => {
  it("answers lagging with the reason while behind, ready once caught up", async () => {
    let behind: string | null = "120 blocks behind the node's head";
    const changes: boolean[] = [];
    const readiness = createReadiness({
      steps: ["store"],
      probe: async () => null,
      probeCacheMs: 0,
      lagging: () => behind,
      onChange: (ready) => changes.push(ready),
    });
    readiness.done("store");
    expect(await readiness.check()).toEqual({
      ready: false,
      status: "lagging",
      detail: "120 blocks behind the node's head",
    });
    behind = null;
    expect(await readiness.check()).toEqual({ ready: true, status: "ready" });
    readiness.drain();
    expect(await readiness.check()).toEqual({ ready: false, status: "draining" });
    expect(changes).toEqual([false, true, false]);
  });
});
