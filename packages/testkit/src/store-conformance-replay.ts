/** Conformance of `admitRequestSignature`, the replay guard every store offers. */
import { describe, expect, it } from "vitest";
import type { ConformanceContext } from "./store-conformance.js";
import { BASE_TIME as T0 } from "./store-factories.js";

const WINDOW = 300_000;
const DIGEST = "c2lnbmF0dXJlLW9mLWEtcmVxdWVzdC0wMDAwMDAwMDAwMDA=";

/** Registers the replay guard tests. */
export function replayConformance(ctx: ConformanceContext): void {
  describe("replay guard", () => {
    it("admits a signature once per key until it expires", async () => {
      const s = ctx.store();
      expect(await s.admitRequestSignature("key-a", DIGEST, T0 + WINDOW, T0)).toEqual({ outcome: "fresh" });
      expect(await s.admitRequestSignature("key-a", DIGEST, T0 + WINDOW, T0 + 1)).toEqual({
        outcome: "replay",
      });
      // Still live at its expiry, to the millisecond.
      expect(await s.admitRequestSignature("key-a", DIGEST, T0 + 2 * WINDOW, T0 + WINDOW)).toEqual({
        outcome: "replay",
      });
      // Another key with the same digest, and another digest of the same key, are other requests.
      expect(await s.admitRequestSignature("key-b", DIGEST, T0 + WINDOW, T0)).toEqual({ outcome: "fresh" });
      expect(await s.admitRequestSignature("key-a", `${DIGEST}x`, T0 + WINDOW, T0)).toEqual({
        outcome: "fresh",
      });
    });

    it("treats an expired entry as absent, and the renewed one as live", async () => {
      const s = ctx.store();
      expect(await s.admitRequestSignature("key-a", DIGEST, T0 + WINDOW, T0)).toEqual({ outcome: "fresh" });
      const later = T0 + WINDOW + 1;
      expect(await s.admitRequestSignature("key-a", DIGEST, later + WINDOW, later)).toEqual({
        outcome: "fresh",
      });
      expect(await s.admitRequestSignature("key-a", DIGEST, later + WINDOW, later + 5)).toEqual({
        outcome: "replay",
      });
    });

    it("admits exactly one of concurrent copies of a request, new or over an expired entry", async () => {
      const s = ctx.store();
      const copies = (now: number) =>
        Promise.all(
          Array.from({ length: 8 }, () => s.admitRequestSignature("key-a", DIGEST, now + WINDOW, now)),
        );
      const first = await copies(T0);
      expect(first.filter((a) => a.outcome === "fresh")).toHaveLength(1);
      expect(first.filter((a) => a.outcome === "replay")).toHaveLength(7);
      const again = await copies(T0 + WINDOW + 1);
      expect(again.filter((a) => a.outcome === "fresh")).toHaveLength(1);
      expect(again.filter((a) => a.outcome === "replay")).toHaveLength(7);
    });

    it("drops expired entries along the way but never a live one", async () => {
      const s = ctx.store();
      expect(await s.admitRequestSignature("key-long", DIGEST, T0 + 10 * WINDOW, T0)).toEqual({
        outcome: "fresh",
      });
      for (let i = 0; i < 150; i++) {
        expect(await s.admitRequestSignature(`key-${i % 3}`, `short-${i}`, T0 + 1_000, T0)).toEqual({
          outcome: "fresh",
        });
      }
      // Past the short entries' expiry: enough admissions for the store to prune them.
      const now = T0 + 2_000;
      for (let i = 0; i < 150; i++) {
        expect(await s.admitRequestSignature(`key-${i % 3}`, `short-${i}`, now + WINDOW, now)).toEqual({
          outcome: "fresh",
        });
      }
      expect(await s.admitRequestSignature("key-long", DIGEST, now + WINDOW, now)).toEqual({
        outcome: "replay",
      });
      expect(await s.admitRequestSignature("key-1", "short-1", now + WINDOW, now + 1)).toEqual({
        outcome: "replay",
      });
    });
  });
}
