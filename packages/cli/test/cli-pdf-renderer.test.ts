import { createEngine, createMemoryStore } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { loadWorld, TX, W } from "../../testkit/src/engine-world.js";
import { lazyPdfRenderer } from "../src/engine-setup.js";

describe("the CLI's PDF renderer", () => {
  it("loads @openkyt/pdf on the first report, renders on its pool, and closes it", async () => {
    const renderer = lazyPdfRenderer();
    await renderer.close(); // never loaded: nothing to close
    const engine = createEngine({ store: createMemoryStore(), reportRenderer: renderer });
    await loadWorld(engine);
    const api = engine.forAccount("acme");
    const { transfer } = await api.registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.deposit,
      output_address: W.client,
    });
    await engine.drain();
    const report = await api.transferReport(transfer.id);
    expect(new TextDecoder().decode(report.bytes.subarray(0, 5))).toBe("%PDF-");
    await renderer.close();
    // A closed renderer loads again on the next report.
    expect(new TextDecoder().decode((await api.transferReport(transfer.id)).bytes.subarray(0, 5))).toBe(
      "%PDF-",
    );
    await renderer.close();
  }, 60_000);
});
