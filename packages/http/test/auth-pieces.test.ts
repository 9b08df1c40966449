import { describe, expect, it } from "vitest";
import {
  createRateLimiter,
  createReplayGuard,
  escapeNonAscii,
  parseBody,
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
  it("admits once within the window, again after it, and evicts the oldest past its bound", () => {
    const guard = createReplayGuard({ windowMs: 1_000, maxEntries: 2 });
    expect(guard.admit("k", "s1", 10_000, 10_000)).toEqual({ fresh: true, evicted: 0 });
    expect(guard.admit("k", "s1", 10_000, 10_900)).toEqual({ fresh: false, evicted: 0 });
    expect(guard.admit("other", "s1", 10_000, 10_900).fresh).toBe(true);
    expect(guard.admit("k", "s1", 10_000, 11_001).fresh).toBe(true);
    expect(guard.admit("k", "s2", 11_000, 11_001)).toEqual({ fresh: true, evicted: 1 });
    expect(guard.size()).toBe(2);
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
});
