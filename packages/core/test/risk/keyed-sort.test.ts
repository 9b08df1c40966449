import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sortByKeys } from "../../src/risk/keyed-sort.js";

describe("sortByKeys", () => {
  it("sorts by the first key, then the second, keeping the order of equal keys, at every size", () => {
    const entry = fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 }));
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 80, size: "max" }), (entries) => {
        const items = entries.map((_, i) => i);
        const firsts = entries.map(([first]) => first);
        const seconds = entries.map(([, second]) => second);
        const expected = [...items].sort(
          (a, b) => entries[a]![0] - entries[b]![0] || entries[a]![1] - entries[b]![1],
        );
        expect(sortByKeys(items, firsts, seconds)).toEqual(expected);
        expect(firsts).toEqual(expected.map((i) => entries[i]![0]));
        expect(seconds).toEqual(expected.map((i) => entries[i]![1]));
      }),
      { numRuns: 500 },
    );
  });
});
