/**
 * The sanctions section says what a listing's date is: a designation date when the source gave
 * one, otherwise the list snapshot the listing was first read from (never "listed since" a
 * snapshot's date).
 */
import type { SanctionsListing } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { listedText, sanctionsSection } from "../src/report-sanctions-section.js";

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const LAZARUS: SanctionsListing = {
  network: "ETH",
  address: "0x098b716b8aaf21512996dc57eb0615e2383e2f96",
  listName: "OFAC SDN",
  program: "DPRK3",
  entity: "LAZARUS GROUP",
  listedAt: day("2026-08-20"),
  delistedAt: null,
};

/** Every text of the section's content, in order. */
function texts(content: unknown): string[] {
  if (Array.isArray(content)) return content.flatMap(texts);
  if (typeof content !== "object" || content === null) return typeof content === "string" ? [content] : [];
  return Object.values(content).flatMap(texts);
}

describe("the sanctions section's listing dates", () => {
  it("says 'in list snapshot of DATE' when the source gives no designation date", () => {
    expect(listedText(LAZARUS)).toBe("in list snapshot of 2026-08-20");
    const section = sanctionsSection({
      sanctions: { address: LAZARUS.address, hit: true, listings: [LAZARUS] },
      state: "checked",
      at: null,
    });
    const all = texts(section);
    expect(all).toContain("in list snapshot of 2026-08-20");
    expect(all).toContain("Listed");
    expect(all.join(" ")).not.toContain("Listed since");
  });

  it("gives the designation date when the source has one, and the undated and timed cases", () => {
    expect(listedText({ ...LAZARUS, designatedAt: day("2022-04-14") })).toBe("since 2022-04-14 (designated)");
    expect(listedText({ ...LAZARUS, designatedAt: null })).toBe("in list snapshot of 2026-08-20");
    expect(listedText({ ...LAZARUS, listedAt: null })).toBe("from the start of the list");
    expect(listedText({ ...LAZARUS, listedAt: Date.parse("2026-08-22T04:25:46Z") })).toBe(
      "in list snapshot of 2026-08-22 04:25:46 UTC",
    );
  });
});
