import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDateBound } from "../../src/schemas/index.js";

const ms = (text: string, bound: "from" | "to" = "from") => {
  const r = parseDateBound(text, bound);
  return r.ok ? r.ms : r.problem;
};

describe("date filters", () => {
  it("a date covers the whole UTC day, both ends inclusive", () => {
    expect(ms("2024-04-18", "from")).toBe(Date.UTC(2024, 3, 18));
    expect(ms("2024-04-18", "to")).toBe(Date.UTC(2024, 3, 18, 23, 59, 59, 999));
    expect(ms("2024-02-29", "to")).toBe(Date.UTC(2024, 1, 29, 23, 59, 59, 999));
  });

  it("a datetime with Z or an offset is that instant, at either end", () => {
    expect(ms("2024-04-18T14:17:25Z", "to")).toBe(Date.UTC(2024, 3, 18, 14, 17, 25));
    expect(ms("2024-04-18T14:17:25.309Z")).toBe(Date.UTC(2024, 3, 18, 14, 17, 25, 309));
    expect(ms("2024-04-18T14:17:25.309123+03:00")).toBe(Date.UTC(2024, 3, 18, 11, 17, 25, 309));
    expect(ms("2024-04-18T14:17-0130")).toBe(Date.UTC(2024, 3, 18, 15, 47));
    // "+" decoded to a space by a query string.
    expect(ms("2024-04-18T14:17:25 03:00")).toBe(Date.UTC(2024, 3, 18, 11, 17, 25));
  });

  it("refuses impossible dates, naive datetimes and other text", () => {
    expect(ms("2023-02-29")).toMatch(/not a valid date/);
    expect(ms("2024-13-01")).toMatch(/not a valid date/);
    expect(ms("2024-04-18T24:00:00Z")).toMatch(/not a valid datetime/);
    expect(ms("2024-04-18T10:00:00")).toMatch(/needs Z or a UTC offset/);
    expect(ms("18/04/2024")).toMatch(/expected a date YYYY-MM-DD/);
    expect(ms("1713449845309")).toMatch(/expected a date/);
  });

  it("agrees with Date.parse on every ISO instant", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date(0), max: new Date(Date.UTC(9999, 0, 1)), noInvalidDate: true }),
        (d) => {
          const iso = d.toISOString();
          expect(ms(iso, "from")).toBe(d.getTime());
          expect(ms(iso, "to")).toBe(d.getTime());
          const day = iso.slice(0, 10);
          expect(ms(day, "from") as number).toBeLessThanOrEqual(d.getTime());
          expect(ms(day, "to") as number).toBeGreaterThanOrEqual(d.getTime());
        },
      ),
    );
  });
});
