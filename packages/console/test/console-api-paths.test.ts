/**
 * Every path the console sends a request to is built by the `apiPath` tag, and no text put into
 * one (an id from the address bar, a filter) can make the request leave for another endpoint:
 * the test walks every `apiPath` template of every screen (read from the sources, so a new
 * screen is walked too), fills each value with hostile ids, resolves the path as a browser does
 * (`new URL`, which resolves dot segments) and checks that it has the shape of the same path
 * with a plain id: the same segments, the value as one segment, the same query, no fragment.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { apiPath, queryString, UnsafePathValue } from "../src/api/api-path.js";

const SRC = resolve(fileURLToPath(new URL(".", import.meta.url)), "../src");
const BASE = "https://console.example/console/";

/** Ids an attacker can put in a `#/transfers/...` link (after the router decodes them). */
const HOSTILE = [
  "../../v1/session/api-keys",
  "../session/api-keys",
  "x/../../session/api-keys",
  "..%2F..%2Fsession%2Fapi-keys",
  "%2e%2e/%2e%2e/session/api-keys",
  "..\\..\\session\\api-keys",
  "?page_size=100",
  "#top",
  "x?wait=30#y",
  "//attacker.example/x",
  "/",
  "a b\tc\nd",
  "..;",
  "\u2025/\uFF0E\uFF0E",
  "%",
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** A template's literal parts and its `${...}` expressions. */
interface Template {
  readonly where: string;
  readonly text: string;
  readonly strings: string[];
  readonly expressions: string[];
}

function parseTemplate(text: string, where: string): Template {
  const strings: string[] = [];
  const expressions: string[] = [];
  let literal = "";
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "$" && text[i + 1] === "{") {
      let depth = 1;
      let j = i + 2;
      while (depth > 0 && j < text.length) {
        if (text[j] === "{") depth++;
        if (text[j] === "}") depth--;
        j++;
      }
      strings.push(literal);
      literal = "";
      expressions.push(text.slice(i + 2, j - 1));
      i = j - 1;
    } else {
      literal += text[i];
    }
  }
  strings.push(literal);
  return { where, text, strings, expressions };
}

const TEMPLATES: Template[] = sources(SRC).flatMap((file) =>
  [...readFileSync(file, "utf8").matchAll(/apiPath`([^`]*)`/g)].map((m) =>
    parseTemplate(m[1] ?? "", `${file.slice(SRC.length + 1)}: ${m[0]}`),
  ),
);

function tag(strings: string[], values: unknown[]): string {
  const array = Object.assign([...strings], { raw: [...strings] }) as unknown as TemplateStringsArray;
  return apiPath(array, ...(values as Parameters<typeof apiPath> extends [unknown, ...infer V] ? V : never));
}

/** The values of a template: a query string for `queryString(...)`, else `id`. */
function values(t: Template, id: string): unknown[] {
  return t.expressions.map((e) =>
    e.startsWith("queryString(") ? queryString({ risk_level: id, page: 2 }) : id,
  );
}

describe("the console's API paths", () => {
  it("are all written with apiPath: no other string or template names a /v1 path", () => {
    expect(TEMPLATES.length).toBeGreaterThan(30);
    for (const file of sources(SRC)) {
      if (file.endsWith("api-path.ts")) continue;
      const text = readFileSync(file, "utf8")
        .replace(/apiPath`[^`]*`/g, "")
        .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, "");
      // The one exception: the client compares a path with the session's, it builds none.
      const left = text.replace(`path !== "/v1/session"`, "");
      expect(left, file).not.toMatch(/["'`]\/v1\//);
    }
  });

  it("keep every hostile id to one segment of the same endpoint, with the same query and no fragment", () => {
    for (const t of TEMPLATES) {
      const plain = new URL(tag(t.strings, values(t, "id-1")), BASE);
      for (const id of HOSTILE) {
        const sent = new URL(tag(t.strings, values(t, id)), BASE);
        const what = `${t.where} with ${JSON.stringify(id)}`;
        expect(sent.origin, what).toBe(plain.origin);
        expect(sent.hash, what).toBe("");
        const plainParts = plain.pathname.split("/");
        const sentParts = sent.pathname.split("/");
        expect(sentParts.length, what).toBe(plainParts.length);
        plainParts.forEach((part, i) => {
          const got = sentParts[i] ?? "";
          if (part.includes("id-1")) expect(decodeURIComponent(got), what).toBe(part.replace("id-1", id));
          else expect(got, what).toBe(part);
        });
        if (t.expressions.some((e) => e.startsWith("queryString("))) {
          expect(sent.searchParams.get("risk_level"), what).toBe(id);
          expect([...sent.searchParams.keys()].sort(), what).toEqual([...plain.searchParams.keys()].sort());
        } else {
          expect(sent.search, what).toBe(plain.search);
        }
      }
    }
  });

  it("refuse an id that a browser would resolve as a dot segment, in any spelling", () => {
    for (const id of [".", "..", "%2e", "%2E%2e", ".%2e", ""]) {
      expect(() => apiPath`/v1/transfers/${id}/risks/`, JSON.stringify(id)).toThrow(UnsafePathValue);
    }
    expect(() => apiPath`/v1/alerts/${queryString({ page: 1 })}x`).toThrow(/at the end/);
  });
});
