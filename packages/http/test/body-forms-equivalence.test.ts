/**
 * The fast signed-body forms (slices and bytes instead of a character at a time) give exactly
 * what the plain definitions give: whitespace outside strings dropped, every non-ASCII UTF-16
 * unit (lone surrogates included) escaped as `\uXXXX` in lower-case hex.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeNonAscii, stripJsonWhitespace } from "../src/body-forms.js";

/** The definition: one replace per non-ASCII unit. */
const escapeReference = (json: string) =>
  json.replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** The definition: a character at a time, strings (and their escapes) kept whole. */
function stripReference(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i] as string;
    if (inString) {
      out += ch;
      if (ch === "\\") {
        out += text[i + 1] ?? "";
        i += 1;
      } else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
      out += ch;
    } else if (ch !== " " && ch !== "\t" && ch !== "\n" && ch !== "\r") out += ch;
  }
  return out;
}

const jsonish = fc.oneof(
  fc.json().map((j) => JSON.stringify(JSON.parse(j), null, 2)),
  fc.string({ unit: "binary" }),
  fc.string({
    unit: fc.constantFrom(" ", "\t", "\n", "\r", '"', "\\", "a", "ü", "\u{1F600}", "\ud800", "{", ":"),
  }),
);

describe("signed body forms", () => {
  it("escapeNonAscii equals the one-replace-per-unit definition", () => {
    fc.assert(
      fc.property(jsonish, (text) => escapeNonAscii(text) === escapeReference(text)),
      { numRuns: 2_000 },
    );
    expect(escapeNonAscii("ü\u{1F600}\u0100\u1000")).toBe("\\u00fc\\ud83d\\ude00\\u0100\\u1000");
  });

  it("stripJsonWhitespace equals the character-at-a-time definition", () => {
    fc.assert(
      fc.property(jsonish, (text) => stripJsonWhitespace(text) === stripReference(text)),
      { numRuns: 2_000 },
    );
  });
});
