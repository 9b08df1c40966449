import * as crypto from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { computeSignature, matchesAnySignature, type SignedParts } from "../src/auth-signature.js";

// The compare itself, not whole requests: every presented signature is compared with
// crypto.timingSafeEqual on two 32-byte digests, whatever it has in common with the right one.
vi.mock("node:crypto", async (importOriginal) => {
  const original = await importOriginal<typeof import("node:crypto")>();
  return { ...original, timingSafeEqual: vi.fn(original.timingSafeEqual) };
});

const SECRET = "constant-time-secret-0123456789";
const parts = (target: string): SignedParts => ({
  method: "POST",
  target,
  timestamp: "1795317243035",
  body: new TextEncoder().encode('{"a":1}'),
});

/** `good` with its characters from `from` on replaced (another valid Base64 digest). */
function wrongFrom(good: string, from: number): string {
  const swap = (ch: string) => (ch === "A" ? "B" : "A");
  return `${good.slice(0, from)}${[...good.slice(from, 43)].map(swap).join("")}=`;
}

describe("signature compare", () => {
  it("compares every candidate with timingSafeEqual on 32-byte buffers, however much of it matches", () => {
    const compare = vi.mocked(crypto.timingSafeEqual);
    const candidates = [parts("/v1/a/"), parts("/v1/b/"), parts("/v1/c/")];
    const right = computeSignature(SECRET, parts("/v1/c/"));
    for (const matching of [0, 20, 40, 42]) {
      compare.mockClear();
      // Wrong for every candidate: each is compared once, none skipped for a short prefix.
      const wrong = wrongFrom(right, matching);
      expect(matchesAnySignature(SECRET, wrong, candidates)).toBe(false);
      expect(compare).toHaveBeenCalledTimes(candidates.length);
      for (const [given, expected] of compare.mock.calls) {
        expect(Buffer.isBuffer(given) && Buffer.isBuffer(expected)).toBe(true);
        expect([(given as Buffer).length, (expected as Buffer).length]).toEqual([32, 32]);
      }
    }
    compare.mockClear();
    expect(matchesAnySignature(SECRET, right, candidates)).toBe(true);
    expect(compare).toHaveBeenCalledTimes(3);
    expect(compare.mock.results.at(-1)?.value).toBe(true);
  });

  it("refuses a presented value that is not a 32-byte Base64 digest before comparing anything", () => {
    const compare = vi.mocked(crypto.timingSafeEqual);
    compare.mockClear();
    for (const presented of [
      "",
      "abc",
      "A".repeat(44),
      "%".repeat(44),
      Buffer.alloc(31).toString("base64"),
    ]) {
      expect(matchesAnySignature(SECRET, presented, [parts("/v1/a/")])).toBe(false);
    }
    expect(compare).not.toHaveBeenCalled();
  });
});
