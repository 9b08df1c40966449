/** The doc test's convention: how blocks are found and classified, and how commands are adapted. */
import { describe, expect, it } from "vitest";
import { extractBlocks } from "./doc-blocks.js";
import { withoutSetup, withPort } from "./doc-sandbox.js";

const md = (...lines: string[]) => lines.join("\n");

describe("finding and classifying the blocks of a Markdown file", () => {
  it("classifies by language: programs, commands, samples", () => {
    const blocks = extractBlocks(
      "x.md",
      md("# T", "```ts", "console.log(1);", "```", "", "```sh", "echo hi", "```", "```", "output", "```"),
    );
    expect(blocks.map((b) => [b.line, b.lang, b.action.kind, b.code])).toEqual([
      [2, "ts", "program", "console.log(1);\n"],
      [6, "sh", "shell", "echo hi\n"],
      [9, "", "sample", "output\n"],
    ]);
  });

  it("reads the marker on the last non-blank line before a block", () => {
    const blocks = extractBlocks(
      "x.md",
      md(
        "<!-- doc-test: skip (needs a Postgres) -->",
        "",
        "```sh",
        "createdb kyt",
        "```",
        "<!-- doc-test: server -->",
        "```sh",
        "openkyt serve",
        "```",
        "```sh",
        "echo after",
        "```",
      ),
    );
    expect(blocks.map((b) => b.action)).toEqual([
      { kind: "skip", reason: "needs a Postgres" },
      { kind: "server", port: 8080 },
      { kind: "shell" },
    ]);
  });

  it("a server marker may name the port its server listens on as written", () => {
    const blocks = extractBlocks(
      "x.md",
      md("<!-- doc-test: server 8070 -->", "```sh", "PORT=8070 start", "```"),
    );
    expect(blocks.map((b) => b.action)).toEqual([{ kind: "server", port: 8070 }]);
    expect(withPort("PORT=8070 x && curl http://127.0.0.1:8070/d && echo 18070", 4321, 8070)).toBe(
      "PORT=4321 x && curl http://127.0.0.1:4321/d && echo 18070",
    );
  });

  it("fails what it cannot classify: another language, an unknown marker, a skip without a reason", () => {
    const blocks = extractBlocks(
      "x.md",
      md(
        "```python",
        "print(1)",
        "```",
        "<!-- doc-test: maybe -->",
        "```sh",
        "x",
        "```",
        "<!-- doc-test: skip () -->",
        "```sh",
        "y",
        "```",
        "<!-- doc-test: server -->",
        "```ts",
        "z",
        "```",
        "```sh",
        "never closed",
      ),
    );
    expect(blocks.map((b) => b.action.kind)).toEqual([
      "unclassified",
      "unclassified",
      "unclassified",
      "unclassified",
      "unclassified",
    ]);
    expect(blocks.map((b) => (b.action.kind === "unclassified" ? b.action.problem : ""))).toEqual([
      expect.stringContaining("```python block the doc test cannot run"),
      expect.stringContaining('unknown doc-test marker "maybe"'),
      expect.stringContaining('unknown doc-test marker "skip ()"'),
      "a server marker is only for sh blocks",
      "the block is never closed",
    ]);
  });

  it("keeps longer fences and indented blocks whole", () => {
    const blocks = extractBlocks("x.md", md("- item", "  ````ts", "  const a = 1;", "  ```", "  ````"));
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.code).toBe("const a = 1;\n```\n");
  });
});

describe("adapting commands to the sandbox", () => {
  const scripts = {
    setup: "pnpm install",
    demo: "npm run setup && node cli.js demo",
    build: "turbo run build",
  };

  it("does not repeat the set-up: npm run NAME runs the script without its leading set-up", () => {
    expect(
      withoutSetup(
        md("npm run demo -- --no-serve   # once", "  npm run setup", "npm run build", "npm run nope"),
        scripts,
      ),
    ).toBe(
      md(
        "node cli.js demo --no-serve   # once",
        "  : # npm run setup: done by npm test before the doc test",
        "turbo run build",
        "npm run nope",
      ),
    );
  });

  it("points the address and openkyt serve at the server's port", () => {
    expect(
      withPort(
        md(
          "npx openkyt serve --db demo.db",
          "node packages/cli/bin/openkyt.js serve --port 8080",
          "curl http://127.0.0.1:8080/v1/ http://localhost:8080/x",
          "openkyt serve --port=9000 && echo 18080",
        ),
        4321,
      ),
    ).toBe(
      md(
        "npx openkyt serve --port 4321 --db demo.db",
        "node packages/cli/bin/openkyt.js serve --port 4321",
        "curl http://127.0.0.1:4321/v1/ http://127.0.0.1:4321/x",
        "openkyt serve --port 4321 && echo 18080",
      ),
    );
  });
});
