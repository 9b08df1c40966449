/**
 * The in-memory replay guard against a plain model: a live entry (expiresAt >= now) is a
 * replay; otherwise, if the key or the whole guard holds as many live entries as it may, the
 * answer is full; otherwise fresh. Whatever the order of admissions and expiries, the guard
 * (a map and a min-heap pruned as time goes) answers what the model does.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createMemoryReplayGuard } from "../../src/index.js";

interface Step {
  readonly key: number;
  readonly digest: number;
  readonly lifetime: number;
  readonly advance: number;
}

const step = fc.record({
  key: fc.integer({ min: 0, max: 3 }),
  digest: fc.integer({ min: 0, max: 7 }),
  lifetime: fc.integer({ min: 0, max: 50 }),
  advance: fc.integer({ min: 0, max: 10 }),
});

describe("memory replay guard", () => {
  it("answers as the model does, and never forgets a live entry", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 200 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 10 }),
        async (steps: Step[], perKey, total) => {
          const guard = createMemoryReplayGuard({ perKey, total });
          const model = new Map<string, { key: number; expiresAt: number }>();
          let now = 1_000;
          for (const s of steps) {
            now += s.advance;
            for (const [id, entry] of model) if (entry.expiresAt < now) model.delete(id);
            const id = `${s.key}/${s.digest}`;
            const ofKey = [...model.values()].filter((e) => e.key === s.key).length;
            const expected = model.has(id)
              ? "replay"
              : ofKey >= perKey || model.size >= total
                ? "full"
                : "fresh";
            if (expected === "fresh") model.set(id, { key: s.key, expiresAt: now + s.lifetime });
            const got = await guard.admit(`k${s.key}`, `d${s.digest}`, now + s.lifetime, now);
            expect(got.outcome).toBe(expected);
            if (got.outcome === "full") expect(got.retryAfterMs).toBeGreaterThanOrEqual(1);
            expect(guard.size()).toBe(model.size);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("refuses bounds that are not whole numbers >= 1, naming them", () => {
    expect(() => createMemoryReplayGuard({ perKey: 0 })).toThrow(/perKey must be a whole number >= 1/);
    expect(() => createMemoryReplayGuard({ total: 1.5 })).toThrow(/total must be a whole number >= 1/);
  });
});
