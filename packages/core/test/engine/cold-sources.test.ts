import { describe, expect, it } from "vitest";
import { HOUR, loadWorld, T0, WORLD_LEDGER } from "../../../testkit/src/engine-world.js";
import { createEngine, type Engine } from "../../src/engine/create-engine.js";
import { createColdSources } from "../../src/engine/sources/cold-sources.js";
import { manualClock, sequentialIds } from "../../src/ports/runtime.js";
import type { Store } from "../../src/ports/store.js";
import { createMemoryStore } from "../../src/store/index.js";

/** Registers every world transfer (both directions), drains, and returns what the API answers. */
async function screenWorld(engine: Engine) {
  const api = engine.forAccount("acme");
  for (const row of WORLD_LEDGER) {
    for (const direction of ["incoming", "outgoing"] as const) {
      await api.registerTransfer({
        direction,
        network: row.network,
        tx_hash: row.txHash,
        token_id: row.tokenId,
        output_address: row.to,
      });
    }
  }
  await engine.drain();
  return api.listTransfers({ page_size: "100" });
}

function engineOver(store: Store, extra: object = {}) {
  return createEngine({ store, clock: manualClock(T0 + 240 * HOUR), ids: sequentialIds(), ...extra });
}

describe("cold sources", () => {
  it("screen exactly as the store-backed sources do, the ledger still read from the store", async () => {
    const plainStore = createMemoryStore();
    await loadWorld(engineOver(plainStore));
    const coldStore = createMemoryStore();
    await loadWorld(engineOver(coldStore));
    const sources = await createColdSources(coldStore);
    expect(Object.keys(sources).sort()).toEqual(["attributions", "prices", "sanctions", "tokens"]);
    const expected = await screenWorld(engineOver(plainStore));
    expect(expected.items.some((t) => t.risk_level === "severe")).toBe(true);
    expect(await screenWorld(engineOver(coldStore, sources))).toEqual(expected);
  });

  it("screen the same with the hop counts of concurrent traces joined", async () => {
    const plainStore = createMemoryStore();
    await loadWorld(engineOver(plainStore));
    const coldStore = createMemoryStore();
    await loadWorld(engineOver(coldStore));
    const sources = await createColdSources(coldStore, { coalesceCounts: true });
    expect(sources.ledger?.ledgerIncomingCounts).toBeDefined();
    expect(await screenWorld(engineOver(coldStore, sources))).toEqual(
      await screenWorld(engineOver(plainStore)),
    );
  });

  it("join the hop counts by default unless the store answers in-process", async () => {
    const plainStore = createMemoryStore();
    await loadWorld(engineOver(plainStore));
    expect(plainStore.capabilities.inProcess).toBe(true);
    expect((await createColdSources(plainStore)).ledger).toBeUndefined();
    // A memory store presented as one behind a round trip (no `inProcess`): joined by default.
    const inner = createMemoryStore();
    await loadWorld(engineOver(inner));
    const remote: Store = { ...inner, capabilities: { multiProcess: true, dialect: "memory" } };
    const sources = await createColdSources(remote);
    expect(sources.ledger?.ledgerIncomingCounts).toBeDefined();
    expect(await screenWorld(engineOver(remote, sources))).toEqual(await screenWorld(engineOver(plainStore)));
  });

  it("fall back to caches in front of the store when reference data is not held whole", async () => {
    const store = createMemoryStore();
    await loadWorld(engineOver(store));
    const held = await createColdSources(store);
    const cached = await createColdSources(store, { reference: false });
    const addresses = WORLD_LEDGER.flatMap((r) => [r.from, r.to]);
    expect(await cached.attributions.attributions("ETH", addresses)).toEqual(
      await held.attributions.attributions("ETH", addresses),
    );
    expect(await cached.sanctions.listings(addresses)).toEqual(await held.sanctions.listings(addresses));
  });
});
