/**
 * Which texts are laid out as one run: only those that surely fit their width on one line, by
 * an upper bound that reads runs, their font sizes, styles and character spacing.
 */
import { describe, expect, it } from "vitest";
import { fitsOneLine, paragraph, unwrapped, widthBound } from "../src/report-blocks.js";
import { CONTENT_WIDTH } from "../src/report-styles.js";

describe("fitsOneLine", () => {
  it("compares the bound of a string with the width", () => {
    const text = "Trace complete: 3 edges read, deepest hop reached 3.";
    const bound = widthBound(text, 9);
    expect(fitsOneLine(text, bound, 9)).toBe(true);
    expect(fitsOneLine(text, bound - 1, 9)).toBe(false);
  });

  it("never fits a text with a line break, or a run it cannot read", () => {
    expect(fitsOneLine("a\nb", 1000, 9)).toBe(false);
    expect(fitsOneLine(["a", { stack: ["b"] }], 1000, 9)).toBe(false);
  });

  it("adds up runs at their own size, style size and character spacing", () => {
    const plain = widthBound("ab", 9);
    expect(fitsOneLine(["ab", { text: "cd", fontSize: 20 }], plain + widthBound("cd", 20), 9)).toBe(true);
    expect(fitsOneLine(["ab", { text: "cd", fontSize: 20 }], plain + widthBound("cd", 9), 9)).toBe(false);
    // The token style: 8.5 points and 0.1 of character spacing per character.
    const token = widthBound("0xabc", 8.5);
    expect(fitsOneLine({ text: "0xabc", style: "token" }, token + 0.5, 9)).toBe(true);
    expect(fitsOneLine({ text: "0xabc", style: "token" }, token + 0.4, 9)).toBe(false);
  });
});

describe("unwrapped and paragraph", () => {
  it("marks each text of a stacked cell that fits, and leaves the others to wrap", () => {
    const long = "word ".repeat(40).trim();
    const cell = unwrapped({ stack: [{ text: "short" }, { text: long }] }, 200);
    expect(cell.stack[0]).toMatchObject({ noWrap: true });
    expect(cell.stack[1]).not.toHaveProperty("noWrap");
  });

  it("lays out a short paragraph as one run and lets a long one wrap", () => {
    expect(paragraph("No alert was raised for this transfer.")).toMatchObject({ noWrap: true });
    const long = "x".repeat(Math.ceil(CONTENT_WIDTH / (0.6 * 9)) + 1);
    expect(paragraph(long)).not.toHaveProperty("noWrap");
  });
});
