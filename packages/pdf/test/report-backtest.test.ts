/**
 * The backtest report: its chart drawn to one scale (definition), and a large report rendered
 * for real and read back with poppler (every count and id there, nothing off the page, the
 * tables' headers repeated on each page they span).
 */
import { BACKTEST_WORDS, type BacktestReportResponse, RISK_LEVELS, RISK_TYPES } from "@openkyt/core";
import type { CanvasRect } from "pdfmake/interfaces";
import { describe, expect, it } from "vitest";
import { createPdfRenderer } from "../src/index.js";
import { levelShiftChart } from "../src/report-backtest-sections.js";
import { BAR_LENGTH } from "../src/report-exposure-chart.js";
import { PAGE, PAGE_MARGINS } from "../src/report-styles.js";
import { compactText, pdfInfo, pdfText, pdfWords, popplerMissing } from "./poppler-tools.js";

const counts = [0, 1_234_567, 2_469_134, 617_283, 10, 3];

/** A report of millions of transfers, 50 alert rows (every risk type) and 100 ids each way. */
function bigReport(): BacktestReportResponse {
  const levels = RISK_LEVELS.map((level, i) => ({
    level,
    actual: counts[i] ?? 0,
    candidate: counts[(i + 1) % counts.length] ?? 0,
  }));
  const ids = (prefix: string) => Array.from({ length: 100 }, (_, i) => `${prefix}-${"f".repeat(30)}-${i}`);
  return {
    candidate: `inline:${"a very long model name ".repeat(6).trim()}`,
    candidate_model: { id: "inline", name: "a very long model name ".repeat(6).trim(), version: 1 },
    alert_levels: [
      { level: "low", actual: 10, candidate: 0 },
      { level: "medium", actual: 0, candidate: 0 },
      { level: "high", actual: 2_000, candidate: 81 },
      { level: "severe", actual: 7, candidate: 1_926 },
    ],
    moved: ids("up")
      .slice(0, 60)
      .map((id, i) => ({
        id,
        network: "ETH",
        tx_hash: i === 0 ? null : `0x${i.toString(16).padStart(64, "a")}`,
        amount: 1.5,
        token_symbol: "ETH",
        value_in_fiat: 4_200,
        from: "none" as const,
        to: "high" as const,
      })),
    sanctions_dropped: { count: 3, ids: ["t-1", "t-2", "t-3"] },
    evaluated: 4_321_027,
    unchecked: 17,
    retraced: true,
    retrace_failures: 5,
    actual_models: [
      { version: "default@1", transfers: 4_000_000 },
      { version: "lab@3", transfers: 321_027 },
    ],
    actual_model_missing: 12,
    levels,
    alerts: RISK_TYPES.flatMap((risk_type, i) =>
      ["mixer", "sanctions", "gambling", "scam", "darknet_market"].map((category, j) => ({
        risk_type,
        category,
        actual: i * 1000 + j,
        candidate: i * 1000 + j * 2,
      })),
    ),
    shift: {
      up: 2_000_001,
      down: 999_999,
      same: 1_321_027,
      moves: [
        { from: "none", to: "high", count: 2_000_001 },
        { from: "high", to: "low", count: 999_999 },
      ],
      up_ids: ids("up"),
      down_ids: ids("down"),
    },
    elapsed_ms: 35_123.4,
    transfers_per_second: 123_025.7,
  };
}

/** Text with whitespace removed, as compactText reads a PDF. */
const compactText0 = (text: string) => text.replace(/\s+/g, "");

describe("backtest report", () => {
  it("draws the level-shift chart to one scale: the largest count is a full bar", () => {
    const r = bigReport();
    const chart = levelShiftChart(r) as { table: { body: Array<Array<{ canvas?: CanvasRect[] }>> } };
    const bars = chart.table.body.map((row) => row[2]?.canvas?.[1]?.w ?? 0);
    // Rows: per level highest first, as checked then candidate.
    const expected = [...r.levels].reverse().flatMap((l) => [l.actual, l.candidate]);
    const max = Math.max(...expected);
    expect(bars).toHaveLength(12);
    bars.forEach((w, i) => {
      const n = expected[i] ?? 0;
      if (n === 0) expect(w).toBe(0);
      else expect(w).toBeCloseTo(Math.max(0.8, (n / max) * BAR_LENGTH), 6);
    });
    expect(Math.max(...bars)).toBe(BAR_LENGTH);
  });

  it.skipIf(popplerMissing() !== null)(
    "lays a large report out inside the page, every count and id in it, headers on every page",
    async () => {
      const r = bigReport();
      const bytes = await createPdfRenderer().render({
        data: {
          kind: "backtest",
          backtestId: null,
          from: "2026-10-01",
          to: "2026-10-31",
          report: r,
          riskModel: { id: "inline", name: r.candidate.slice(7), version: r.candidate },
        },
        withRisks: true,
        generatedAt: Date.UTC(2026, 10, 25),
        reportId: "report-1",
      });
      const right = PAGE.width - (PAGE_MARGINS as number[])[2]! + 1;
      const words = pdfWords(bytes);
      expect(words.filter((w) => w.xMax > right || w.yMax > PAGE.height)).toEqual([]);
      const text = pdfText(bytes);
      expect(text).toMatch(/Transfers\s+4,321,027 evaluated, 17 never checked/);
      expect(text).toContain("traced again against the current ledger");
      expect(text).toContain("5 checks could not run");
      expect(text).toContain("12 evaluated transfers were checked by a model version no longer stored");
      expect(text).toMatch(/Throughput\s+123,026 transfers\/s \(35,123 ms\)/);
      expect(text).toContain(
        "3,000,000 transfers change level: 2,000,001 up, 999,999 down; 1,321,027 stay the same.",
      );
      expect(text).toContain("The first 60 of 3,000,000 (up ones, then down ones):");
      expect(text).toContain(
        "Sanctions findings dropped: The candidate raises no sanctions finding on 3 transfers",
      );
      expect(compactText(bytes)).toContain(compactText0(BACKTEST_WORDS.neverCheckedNote));
      expect(text).toMatch(/Alerts by level/);
      expect(text).toContain("a very long model name");
      expect(text).toContain("(version 1)");
      const compact = compactText(bytes);
      for (const m of r.moved) {
        expect(compact).toContain(m.id);
        if (m.tx_hash) expect(compact).toContain(m.tx_hash);
      }
      expect(text).toContain("1.5 ETH (USD 4,200.00)");
      expect(text).toContain(BACKTEST_WORDS.noHash);
      expect(text.match(/Darknet market/g)?.length).toBe(RISK_TYPES.length);
      const pages = Number(pdfInfo(bytes).Pages);
      expect(pages).toBeGreaterThan(2);
      let alertPages = 0;
      for (let page = 1; page <= pages; page += 1) {
        const one = pdfText(bytes, { first: page, last: page });
        expect(one).toContain(`Page ${page} of ${pages}`);
        if (/Darknet market/.test(one)) {
          alertPages += 1;
          expect(one).toMatch(/Risk type\s+Category\s+As checked\s+Candidate\s+Change/);
        }
      }
      expect(alertPages).toBeGreaterThan(1);
    },
  );
});
