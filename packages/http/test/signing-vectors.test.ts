import { signRequest } from "@openkyt/client";
import { describe, expect, it } from "vitest";
import { computeSignature } from "../src/index.js";
import { VECTORS } from "./signing-vector-fixtures.js";

describe("the signing vectors", () => {
  it.each(VECTORS)("server: $method $path", (v) => {
    const body = v.body === null ? null : new TextEncoder().encode(v.body);
    expect(
      computeSignature(v.secret, { method: v.method, target: v.path, timestamp: v.timestamp, body }),
    ).toBe(v.signature);
  });

  it.each(VECTORS)("client: $method $path", (v) => {
    expect(signRequest(v)).toBe(v.signature);
    // The body is the compact re-serialisation of the parsed payload, key order kept.
    if (v.body !== null)
      expect(signRequest({ ...v, body: JSON.stringify(JSON.parse(v.body)) })).toBe(v.signature);
  });

  it("a different separator, body or timestamp gives another signature", () => {
    const v = VECTORS[1];
    expect(signRequest({ ...v, body: '{"network": "TRX", "address": "T1"}' })).not.toBe(v.signature);
    expect(signRequest({ ...v, timestamp: "1713449845310" })).not.toBe(v.signature);
    expect(signRequest({ ...v, path: "/v1/manual-checks/check-address" })).not.toBe(v.signature);
  });
});
