import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonKeepingNumbers } from "../src/index.js";

/**
 * The model: the first implementation, which steps through every character (strings included)
 * and quotes each number literal outside a string. The scanner that jumps over strings must
 * answer exactly what it answers, for any text.
 */
function modelParse(text: string): unknown {
  const isNumberChar = (c: number) =>
    (c >= 48 && c <= 57) || c === 46 || c === 45 || c === 43 || c === 101 || c === 69;
  let out = "";
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 45 || (c >= 48 && c <= 57)) {
      let j = i + 1;
      while (j < text.length && isNumberChar(text.charCodeAt(j))) j++;
      out += `${text.slice(from, i)}"${text.slice(i, j)}"`;
      from = j;
      i = j - 1;
    }
  }
  out += text.slice(from);
  return JSON.parse(out);
}

/** The answer of `parse`, or the class of the error it threw. */
function outcome(parse: (text: string) => unknown, text: string): unknown {
  try {
    return { value: parse(text) };
  } catch (error) {
    return { threw: (error as Error).constructor.name };
  }
}

describe("parseJsonKeepingNumbers", () => {
  it("keeps every number as its literal, inside arrays and objects, and leaves strings alone", () => {
    expect(
      parseJsonKeepingNumbers(
        '{"value": 0.00015000, "n": 1, "neg": -2.5e-3, "s": "12 \\"3\\" \\\\", "a": [1, "2", 3.10]}',
      ),
    ).toEqual({ value: "0.00015000", n: "1", neg: "-2.5e-3", s: '12 "3" \\', a: ["1", "2", "3.10"] });
    expect(parseJsonKeepingNumbers('"a \\\\"')).toBe("a \\");
    expect(parseJsonKeepingNumbers("true")).toBe(true);
  });

  it("refuses an unterminated string with a SyntaxError; a malformed number is kept as its text", () => {
    expect(() => parseJsonKeepingNumbers('{"a": "b')).toThrow(SyntaxError);
    expect(() => parseJsonKeepingNumbers('{"a": "b\\"}')).toThrow(SyntaxError);
    // The reader of the field refuses it (satsFromCoinText, countAt), naming the field.
    expect(parseJsonKeepingNumbers('{"a": 1.2.3}')).toEqual({ a: "1.2.3" });
  });

  it("answers what the character-by-character model answers, for JSON and for text that is not", () => {
    const text = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.jsonValue().map((v) => JSON.stringify(v, null, 2)),
      fc.string({
        unit: fc.constantFrom('"', "\\", "1", "-", ".", "e", "a", ",", "[", "]", "{", "}", ":", " "),
      }),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(outcome(parseJsonKeepingNumbers, t)).toEqual(outcome(modelParse, t));
      }),
      { numRuns: 2_000 },
    );
  });
});
