import { describe, expect, it } from "vitest";
import { parseAmount, parseDay, parseTime, scaleUnits } from "../src/row-values.js";

const value = <T>(parsed: { ok: true; value: T } | { ok: false; problem: string }) =>
  parsed.ok ? parsed.value : `! ${parsed.problem}`;

describe("row values", () => {
  it("read times as epoch ms, dates (midnight UTC) and ISO 8601 times with a zone", () => {
    expect(value(parseTime("t", "1709294400000"))).toBe(1709294400000);
    expect(value(parseTime("t", "2024-03-01"))).toBe(Date.UTC(2024, 2, 1));
    expect(value(parseTime("t", "2024-03-01T12:30:00Z"))).toBe(Date.UTC(2024, 2, 1, 12, 30));
    expect(value(parseTime("t", "2024-03-01T12:30:00.5+02:00"))).toBe(Date.UTC(2024, 2, 1, 10, 30, 0, 500));
    expect(value(parseTime("t", "2024-03-01 12:30:00Z"))).toBe(Date.UTC(2024, 2, 1, 12, 30));
  });

  it("refuse times that would be misread: no zone, epoch seconds, impossible dates, words", () => {
    expect(value(parseTime("t", "2024-03-01T12:30:00"))).toMatch(/with a zone/);
    expect(value(parseTime("t", "1709294400"))).toMatch(/not seconds/);
    expect(value(parseTime("t", "2024-02-30"))).toMatch(/not a real date/);
    expect(value(parseTime("t", "yesterday"))).toMatch(/not epoch milliseconds/);
    expect(value(parseTime("t", ""))).toBe("! t is missing");
  });

  it("read amounts and scale base units exactly in decimal", () => {
    expect(value(parseAmount("a", "1e-6"))).toBe(0.000001);
    expect(value(parseAmount("a", ".5"))).toBe(0.5);
    expect(value(parseAmount("a", "-1"))).toMatch(/non-negative/);
    expect(value(parseAmount("a", "1,5"))).toMatch(/non-negative/);
    expect(value(scaleUnits("65290000", 6))).toBe(65.29);
    expect(value(scaleUnits("7", 6))).toBe(0.000007);
    expect(value(scaleUnits("123456789012345678901", 18))).toBe(Number("123.456789012345678901"));
    expect(value(scaleUnits("12", 0))).toBe(12);
    expect(value(scaleUnits("1.5", 6))).toMatch(/whole number/);
  });

  it("check days against the calendar", () => {
    expect(value(parseDay("d", "2024-02-29"))).toBe("2024-02-29");
    expect(value(parseDay("d", "2023-02-29"))).toMatch(/not a real date/);
    expect(value(parseDay("d", "01/03/2024"))).toMatch(/YYYY-MM-DD/);
  });
});
