import { createMemoryStore } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import {
  createRateLimiter,
  createReplayGuard,
  escapeNonAscii,
  parseBody,
  RATE_BUCKETS_MAX,
  replayPerKeyBound,
  signedBodyForms,
  stripJsonWhitespace,
  targetCandidates,
} from "../src/index.js";

const bytes = (text: string) => new TextEncoder().encode(text);
const texts = (forms: Array<Uint8Array | null>) =>
  forms.map((f) => (f === null ? null : new TextDecoder().decode(f)));

describe("body forms", () => {
  it("strips whitespace outside strings only, keeping tokens as written", () => {
    expect(stripJsonWhitespace('{ "a b": "c  d\\" e", "n": 1.0 ,\n"x":[ 1, 2 ] }')).toBe(
      '{"a b":"c  d\\" e","n":1.0,"x":[1,2]}',
    );
  });

  it("escapes non-ASCII like Python's ensure_ascii, surrogate pairs included", () => {
    expect(escapeNonAscii('{"a":"é😀"}')).toBe('{"a":"\\u00e9\\ud83d\\ude00"}');
  });

  it("lists raw, stripped, compact and escaped forms without duplicates, and no-body for empty payloads", () => {
    const raw = bytes('{"a": "é", "n": 1.0}');
    expect(texts(signedBodyForms(raw, parseBody(raw)))).toEqual([
      '{"a": "é", "n": 1.0}',
      '{"a":"é","n":1.0}',
      '{"a":"é","n":1}',
      '{"a":"\\u00e9","n":1}',
    ]);
    const compact = bytes('{"a":1}');
    expect(texts(signedBodyForms(compact, parseBody(compact)))).toEqual(['{"a":1}']);
    const empty = bytes("{}");
    expect(texts(signedBodyForms(empty, parseBody(empty)))).toEqual(["{}", null]);
    expect(texts(signedBodyForms(new Uint8Array(0), parseBody(new Uint8Array(0))))).toEqual([null]);
  });

  it("parses malformed JSON and invalid UTF-8 as values naming the problem", () => {
    expect(parseBody(bytes("{"))).toMatchObject({ kind: "malformed" });
    expect(parseBody(new Uint8Array([0x7b, 0xff, 0x7d]))).toMatchObject({
      kind: "malformed",
      problem: /UTF-8/,
    });
    expect(parseBody(bytes("  \n"))).toEqual({ kind: "empty" });
  });
});

describe("targets", () => {
  it("adds the trailing slash before the query when the path has none", () => {
    expect(targetCandidates(["/v1/transfers?page=2"])).toEqual([
      "/v1/transfers?page=2",
      "/v1/transfers/?page=2",
    ]);
    expect(targetCandidates(["/v1/transfers/"])).toEqual(["/v1/transfers/"]);
  });
});

describe("replay guard", () => {
  const store = createMemoryStore();
  const shared = { ...store, capabilities: { multiProcess: true, dialect: "shared" } };

  it("auto picks the store's guard only for a store shared by several processes", () => {
    const options = { windowMs: 1_000, ratePerKey: null };
    expect(createReplayGuard({ ...options, store }).kind).toBe("memory");
    expect(createReplayGuard({ ...options, store: shared }).kind).toBe("store");
    expect(createReplayGuard({ ...options, store, guard: "store" }).kind).toBe("store");
    expect(createReplayGuard({ ...options, store: shared, guard: "memory" }).kind).toBe("memory");
    expect(() => createReplayGuard({ ...options, store, guard: "lru" as never })).toThrow(
      /auto, memory, store/,
    );
  });

  it("bounds a key by its rate over two windows, and answers full instead of forgetting", async () => {
    expect(replayPerKeyBound({ perSecond: 50, burst: 100 }, 300_000)).toBe(30_100);
    const guard = createReplayGuard({ store, windowMs: 1_000, ratePerKey: { perSecond: 1, burst: 1 } });
    // 1 + 1/s x 2 s: three live entries per key.
    for (const s of ["s1", "s2", "s3"])
      expect(await guard.admit("k", s, 11_000, 10_000)).toEqual({ outcome: "fresh" });
    expect(await guard.admit("k", "s4", 11_000, 10_000)).toEqual({ outcome: "full", retryAfterMs: 1_001 });
    expect(await guard.admit("k", "s1", 11_000, 10_500)).toEqual({ outcome: "replay" });
    expect(await guard.admit("other", "s4", 11_000, 10_500)).toEqual({ outcome: "fresh" });
    // Once they expire there is room again, and the old signatures are new.
    expect(await guard.admit("k", "s4", 12_001, 11_001)).toEqual({ outcome: "fresh" });
    expect(await guard.admit("k", "s1", 12_001, 11_001)).toEqual({ outcome: "fresh" });
  });
});

describe("rate limiter", () => {
  it("allows a burst, then refills at the rate and says when to retry", () => {
    const limiter = createRateLimiter({ perSecond: 2, burst: 2 });
    expect(limiter.take("k", 0).ok).toBe(true);
    expect(limiter.take("k", 0).ok).toBe(true);
    expect(limiter.take("k", 0)).toEqual({ ok: false, retryAfterMs: 500 });
    expect(limiter.take("j", 0).ok).toBe(true);
    expect(limiter.take("k", 500).ok).toBe(true);
    expect(limiter.take("k", 600)).toEqual({ ok: false, retryAfterMs: 400 });
  });

  it("keeps the bucket of a key that keeps asking while made-up keys fill the map", () => {
    const limiter = createRateLimiter({ perSecond: 0.001, burst: 1 });
    expect(limiter.take("attacker", 0).ok).toBe(true);
    expect(limiter.take("attacker", 0).ok).toBe(false);
    // Twice the map's bound of other keys, each spent, the attacker asking again every 100.
    for (let i = 0; i < 2 * RATE_BUCKETS_MAX; i++) {
      limiter.take(`made-up-${i}`, 1);
      if (i % 100 === 0) expect(limiter.take("attacker", 1).ok).toBe(false);
    }
    expect(limiter.take("attacker", 2).ok).toBe(false);
  });
});
