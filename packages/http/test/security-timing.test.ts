import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchesAnySignature, type SignedParts } from "../src/auth-signature.js";
import { computeSignature } from "../src/index.js";
import { KEYS } from "./http-harness.js";
import { createSecurityWorld, type SecurityWorld, signatureHeaders } from "./security-fixture.js";

/** Median and interquartile range of samples. */
function stats(samples: number[]): { median: number; iqr: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
  return { median: at(0.5), iqr: at(0.75) - at(0.25) };
}

/** `good` with its characters from `from` on replaced (another valid Base64 digest). */
function wrongFrom(good: string, from: number): string {
  const swap = (ch: string) => (ch === "A" ? "B" : "A");
  return `${good.slice(0, from)}${[...good.slice(from, 43)].map(swap).join("")}=`;
}

/**
 * Times `a` and `b` interleaved (ABBA order, so drift hits both alike) and compares the medians.
 * Passes when they differ by less than `tolerance` of the median or half the spread, in any of
 * three rounds (a loaded 2-core machine has noisy rounds; a real leak shows in every round).
 */
async function sameTiming(
  label: string,
  rounds: number,
  a: () => Promise<unknown> | unknown,
  b: () => Promise<unknown> | unknown,
  tolerance: number,
): Promise<boolean> {
  const time = async (f: () => Promise<unknown> | unknown) => {
    const started = performance.now();
    await f();
    return performance.now() - started;
  };
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const ta: number[] = [];
    const tb: number[] = [];
    for (let i = 0; i < rounds; i += 1) {
      if (i % 2 === 0) {
        ta.push(await time(a));
        tb.push(await time(b));
      } else {
        tb.push(await time(b));
        ta.push(await time(a));
      }
    }
    const sa = stats(ta);
    const sb = stats(tb);
    const pooled = stats([...ta, ...tb]);
    const diff = Math.abs(sa.median - sb.median);
    const allowed = Math.max(tolerance * pooled.median, pooled.iqr / 2);
    console.info(
      `timing ${label} (round ${attempt}, ${rounds} each): 0 chars matching ${sa.median.toFixed(4)} ms, ` +
        `40 matching ${sb.median.toFixed(4)} ms, difference ${diff.toFixed(4)} ms, allowed ${allowed.toFixed(4)} ms`,
    );
    if (diff <= allowed) return true;
  }
  return false;
}

describe("timing of a wrong signature does not depend on how much of it matched", () => {
  let world: SecurityWorld;
  beforeAll(async () => {
    world = await createSecurityWorld();
  });
  afterAll(async () => {
    await world.close();
  });

  it("over the app: 401s for signatures matching 0 and 40 leading characters take the same time", {
    timeout: 120_000,
  }, async () => {
    const timestamp = String(Date.now());
    const base = { method: "GET", target: "/v1/transfers/?page_size=1", timestamp };
    const good = signatureHeaders(base)["API-SIGNATURE"] as string;
    const send = (signature: string) => async () => {
      const response = await world.send({ ...base, headers: { "API-SIGNATURE": signature } });
      await response.arrayBuffer();
      if (response.status !== 401) throw new Error(`expected 401, got ${response.status}`);
    };
    const none = wrongFrom(good, 0);
    const most = wrongFrom(good, 40);
    expect(none.slice(0, 1)).not.toBe(good.slice(0, 1));
    expect(most.slice(0, 40)).toBe(good.slice(0, 40));
    for (let i = 0; i < 200; i += 1) await send(i % 2 ? none : most)();
    expect(await sameTiming("app.fetch", 1_500, send(none), send(most), 0.1)).toBe(true);
  });

  it("in the comparison itself: matchesAnySignature over 4 candidate forms", async () => {
    const parts: SignedParts = {
      method: "POST",
      target: "/v1/transfers/register/",
      timestamp: "1713449845309",
      body: new TextEncoder().encode('{"a":1}'),
    };
    const candidates = [
      parts,
      { ...parts, body: null },
      { ...parts, target: "/v1/transfers/register" },
      parts,
    ];
    const good = computeSignature(KEYS.acme.secret, parts);
    const block = (signature: string) => () => {
      for (let i = 0; i < 200; i += 1) {
        if (matchesAnySignature(KEYS.acme.secret, signature, candidates)) throw new Error("matched");
      }
    };
    expect(
      await sameTiming(
        "matchesAnySignature x200",
        300,
        block(wrongFrom(good, 0)),
        block(wrongFrom(good, 40)),
        0.1,
      ),
    ).toBe(true);
  });
});
