import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ETH_LABELS_CATEGORIES, TAGPACK_ABUSES, TAGPACK_CATEGORIES } from "../src/index.js";

const DOC = readFileSync(fileURLToPath(new URL("../../../docs/data.md", import.meta.url)), "utf8");

/** The label -> category table of docs/data.md whose header's second column is `title`. */
function documented(title: string): Record<string, string> {
  const lines = DOC.split("\n");
  const start = lines.findIndex((l) => l.startsWith("| category") && l.includes(title));
  expect(start).toBeGreaterThanOrEqual(0);
  const out: Record<string, string> = {};
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const [category, ...labels] = [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    for (const label of labels) out[label] = category as string;
  }
  return out;
}

describe("docs/data.md", () => {
  it("shows the category mappings exactly as the code has them", () => {
    expect(documented("dawsbot/eth-labels labels")).toEqual(ETH_LABELS_CATEGORIES);
    expect(documented("TagPack `abuse`")).toEqual(TAGPACK_ABUSES);
    expect(documented("TagPack `category`")).toEqual(TAGPACK_CATEGORIES);
  });
});
