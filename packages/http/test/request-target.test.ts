import { describe, expect, it } from "vitest";
import { isPlainTarget } from "../src/endpoint-runner.js";

/** The target as the URL parser gives it back (what the runner signs when a target is not plain). */
const parsed = (raw: string) => {
  const url = new URL(`http://127.0.0.1${raw}`);
  return `${url.pathname}${url.search}`;
};

describe("plain request targets (signed as sent, without the URL parser)", () => {
  it("takes the interface's ordinary paths", () => {
    for (const raw of ["/", "/v1/transfers/", "/v1/transfers/3f2a-9b_c~d/", "/v1/transfers/a.b", "/v1/x"]) {
      expect(isPlainTarget(raw)).toBe(true);
    }
  });

  it("leaves dot segments, empty segments, escapes, queries and other characters to the parser", () => {
    for (const raw of [
      "",
      "v1",
      "//x",
      "/a//b",
      "/./",
      "/a/..",
      "/.well-known",
      "/%2e/",
      "/a?b=1",
      "/a b",
      "/a\\b",
      "/é",
    ]) {
      expect(isPlainTarget(raw)).toBe(false);
    }
  });

  it("is given back unchanged by the URL parser whenever it is plain (every target of up to 5 characters)", () => {
    const alphabet = [
      "a",
      "Z",
      "0",
      "-",
      "_",
      "~",
      ".",
      "/",
      "%",
      "2",
      "e",
      "?",
      "#",
      "\\",
      " ",
      "é",
      ";",
      ":",
    ];
    let plain = 0;
    const visit = (raw: string, depth: number) => {
      if (isPlainTarget(raw)) {
        plain += 1;
        expect(parsed(raw), raw).toBe(raw);
      }
      if (depth === 0) return;
      for (const ch of alphabet) visit(raw + ch, depth - 1);
    };
    visit("/", 4);
    expect(plain).toBeGreaterThan(1000);
  });
});
