import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { roundCents } from "../../src/domain/money.js";

/** The cents a decimal text rounds to, half away from zero, computed on the digits (no floats). */
function centsOfDecimal(text: string): number {
  const negative = text.startsWith("-");
  const [whole = "0", fraction = ""] = text.replace("-", "").split(".");
  const digits = `${fraction}000`.slice(0, 3);
  let cents = Number(whole) * 100 + Number(digits.slice(0, 2));
  if (Number(digits[2]) >= 5) cents += 1;
  return negative ? -cents : cents;
}

describe("roundCents, the one rounding rule of fiat values", () => {
  it("rounds the decimals people write half away from zero", () => {
    expect(roundCents(1.005)).toBe(1.01);
    expect(roundCents(-2.345)).toBe(-2.35);
    expect(roundCents(499.66889865320763)).toBe(499.67);
    expect(roundCents(0.001)).toBe(0);
    expect(Object.is(roundCents(-0.001), 0)).toBe(true);
  });

  it("agrees with rounding the decimal's digits, for decimals of up to three places", () => {
    fc.assert(
      fc.property(fc.integer({ min: -100_000_000, max: 100_000_000 }), (thousandths) => {
        const text = `${thousandths < 0 ? "-" : ""}${Math.floor(Math.abs(thousandths) / 1000)}.${String(Math.abs(thousandths) % 1000).padStart(3, "0")}`;
        const cents = centsOfDecimal(text);
        expect(roundCents(Number(text))).toBe(cents === 0 ? 0 : cents / 100);
      }),
    );
  });

  it("is idempotent, odd, and never moves a value by more than half a cent", () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (value) => {
        const rounded = roundCents(value);
        expect(roundCents(rounded)).toBe(rounded);
        expect(roundCents(-value)).toBe(rounded === 0 ? 0 : -rounded);
        expect(Math.abs(rounded - value)).toBeLessThanOrEqual(0.005 + Math.abs(value) * 4 * Number.EPSILON);
      }),
    );
  });
});
