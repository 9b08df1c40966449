import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { type GoldenScreening, goldenScreening } from "./pipeline-golden-scenario.js";

/**
 * Same inputs, same results: the screening pipeline computes exactly the exposures, risks,
 * levels and alerts that the per-transfer path computed before it (commit 9948a4b), whose
 * results on a generated ledger are kept in fixtures/pipeline-golden.json.gz (made by running
 * pipeline-golden-scenario.ts over that commit).
 */
describe("the screening pipeline against the stored results of the per-transfer path", () => {
  it("screens a generated ledger to the same transfers, risks, exposures and alerts", async () => {
    const golden = JSON.parse(
      gunzipSync(readFileSync(new URL("./fixtures/pipeline-golden.json.gz", import.meta.url))).toString(
        "utf8",
      ),
    ) as GoldenScreening;
    const now = await goldenScreening();
    expect(now.ledger).toEqual(golden.ledger);
    expect(golden.alerts.length).toBeGreaterThan(50);
    // Transfer by transfer first, so a difference names the transfer it is in.
    expect(now.transfers.map((t) => t.key)).toEqual(golden.transfers.map((t) => t.key));
    for (const [i, expected] of golden.transfers.entries())
      expect(now.transfers[i], expected.key).toEqual(expected);
    expect(now.alerts).toEqual(golden.alerts);
  });
});
