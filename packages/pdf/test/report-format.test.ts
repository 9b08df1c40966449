/** How values read on the page: exact amounts, money, shares and UTC times. */
import { describe, expect, it } from "vitest";
import {
  categoryColor,
  categoryName,
  formatAmount,
  formatEpoch,
  formatShare,
  formatTime,
  formatUsd,
} from "../src/report-format.js";

describe("report formats", () => {
  it("prints token amounts with every digit the number holds and no exponent", () => {
    expect(formatAmount(10, "ETH")).toBe("10 ETH");
    expect(formatAmount(1234567.891, "USDT")).toBe("1,234,567.891 USDT");
    expect(formatAmount(1e-7, "ETH")).toBe("0.0000001 ETH");
    expect(formatAmount(1.5e-12, null)).toBe("0.0000000000015");
    expect(formatAmount(2.5e21, "X")).toBe("2,500,000,000,000,000,000,000 X");
    expect(formatAmount(-0.25, "ETH")).toBe("-0.25 ETH");
    expect(formatAmount(null, "ETH")).toBe("—");
  });

  it("prints money with two decimals and shares with one", () => {
    expect(formatUsd(20000)).toBe("20,000.00 USD");
    expect(formatUsd(0.005)).toBe("0.01 USD");
    expect(formatUsd(null)).toBe("—");
    expect(formatShare(0.3)).toBe("30.0%");
    expect(formatShare(1)).toBe("100.0%");
    expect(formatShare(0.00001)).toBe("<0.1%");
    expect(formatShare(0)).toBe("0.0%");
  });

  it("prints every time in UTC whatever offset the wire time has", () => {
    expect(formatTime("2024-04-18T14:17:25.309000+00:00")).toBe("2024-04-18 14:17:25 UTC");
    expect(formatTime("2024-04-18T16:17:25.309000+02:00")).toBe("2024-04-18 14:17:25 UTC");
    expect(formatTime("2024-04-18T14:17:25.309000Z")).toBe("2024-04-18 14:17:25 UTC");
    expect(formatTime(null)).toBe("—");
    expect(formatEpoch(Date.UTC(2024, 0, 2))).toBe("2024-01-02 00:00:00 UTC");
  });

  it("names categories and colours them as core's table says", () => {
    expect(categoryName("sanctions")).toBe("Sanctions");
    expect(categoryColor("sanctions")).toBe("#4A148C");
    expect(categoryName("not_a_category")).toBe("not_a_category");
  });
});
