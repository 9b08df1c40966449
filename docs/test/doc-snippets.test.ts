/**
 * The doc test: every code block of README.md, docs/*.md and each examples/NAME/README.md is run, shown
 * to be a sample, or skipped with a stated reason (the convention is in doc-blocks.ts, the
 * sandbox in doc-sandbox.ts). An example's README runs twice, from the repository root and from
 * the example's own folder, as its commands say they may. A block the test cannot classify
 * fails it. The counts are printed at the end.
 */

import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BlockRun,
  type RunningServer,
  runProgram,
  runShell,
  startServer,
  typeCheckPrograms,
} from "./doc-block-runner.js";
import { type DocBlock, extractBlocks } from "./doc-blocks.js";
import { createSandbox, npmScripts, type Sandbox, withoutSetup, withPort } from "./doc-sandbox.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Time limit of one block, and of a server block until it answers. */
const BLOCK_MS = 60_000;

const EXAMPLE_READMES = readdirSync(join(ROOT, "examples"))
  .sort()
  .map((name) => `examples/${name}/README.md`);
const FILES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
  ...EXAMPLE_READMES,
];
/** Where a file's blocks run, relative to the sandbox: the root; an example's README also its folder. */
function placesOf(file: string): string[] {
  return file.startsWith("examples/") ? [".", file.slice(0, -"/README.md".length)] : ["."];
}
const BLOCKS = new Map<string, DocBlock[]>(
  FILES.map((file) => [file, extractBlocks(file, readFileSync(join(ROOT, file), "utf8"))]),
);

type Outcome = "ran" | "sample" | "skipped" | "failed";
const outcomes: Array<{ block: DocBlock; outcome: Outcome; note: string }> = [];
let sandbox: Sandbox | null = null;

/** A free TCP port on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no free port")),
      );
    });
  });
}

/** The start of an output, on one line, for the summary. */
function firstLines(output: string): string {
  const text = output.trim().split("\n").slice(0, 3).join(" | ");
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

function where(block: DocBlock): string {
  return `${block.file}:${block.line} \`\`\`${block.lang}`;
}

/** The TypeScript programs that run: they are also type-checked. */
const TYPESCRIPT = [...BLOCKS.values()]
  .flat()
  .filter((b) => b.action.kind === "program" && (b.lang === "ts" || b.lang === "typescript"));
let typeCheck: Promise<BlockRun> | null = null;
let typeCheckFailed = false;

beforeAll(() => {
  sandbox = createSandbox(ROOT);
  // Started now, awaited by the last test: the compiler runs while the blocks do.
  typeCheck = typeCheckPrograms(TYPESCRIPT, sandbox, ROOT, BLOCK_MS);
  typeCheck.catch(() => {
    typeCheckFailed = true;
  });
});

afterAll(() => {
  const count = (outcome: Outcome) => outcomes.filter((o) => o.outcome === outcome).length;
  const order = (o: (typeof outcomes)[number]) => FILES.indexOf(o.block.file) * 1e6 + o.block.line;
  outcomes.sort((a, b) => order(a) - order(b));
  const lines = outcomes.map(
    (o) => `  ${o.outcome.padEnd(7)} ${where(o.block)}${o.note ? `  ${o.note}` : ""}`,
  );
  console.log(
    `doc test: ${count("ran")} blocks run, ${count("skipped")} skipped, ${count("sample")} samples (not run), ` +
      `${count("failed")} failed\n${lines.join("\n")}`,
  );
  if (count("failed") === 0 && !typeCheckFailed) sandbox?.remove();
  else if (sandbox) console.log(`doc test: the sandbox is kept for inspection: ${sandbox.dir}`);
});

describe("the documentation's code blocks", () => {
  it("README.md's programs (the embedding example, the client) are run, none skipped", () => {
    const programs = (BLOCKS.get("README.md") ?? []).filter((b) => b.lang === "ts");
    expect(programs.length).toBeGreaterThanOrEqual(2);
    expect(programs.map((b) => `${b.line} ${b.action.kind}`)).toEqual(
      programs.map((b) => `${b.line} program`),
    );
  });

  for (const file of FILES) {
    const blocks = BLOCKS.get(file) ?? [];
    for (const block of blocks) {
      if (block.action.kind === "sample") outcomes.push({ block, outcome: "sample", note: "" });
    }
    if (blocks.every((b) => b.action.kind === "sample")) continue;
    for (const place of placesOf(file)) {
      describe(place === "." ? file : `${file} (from ${place})`, () => {
        const scripts = npmScripts(ROOT);
        let session: Record<string, string> = {};
        let port = 8080;
        const serverBlock = blocks.find((b) => b.action.kind === "server")?.action;
        const written = serverBlock?.kind === "server" ? serverBlock.port : 8080;
        let server: RunningServer | null = null;

        beforeAll(async () => {
          session = { ...(sandbox?.env ?? {}) };
          if (blocks.some((b) => b.action.kind === "server")) port = await freePort();
        });
        afterAll(async () => {
          await server?.stop();
        });

        for (const block of blocks) {
          const { action } = block;
          if (action.kind === "sample") continue;
          if (action.kind === "skip") {
            if (place === ".") outcomes.push({ block, outcome: "skipped", note: action.reason });
            it.skip(`${where(block)}: ${action.reason}`, () => {});
            continue;
          }
          it(where(block), { timeout: BLOCK_MS + 15_000 }, async () => {
            const from = place === "." ? "" : ` (from ${place})`;
            const record = (outcome: Outcome, note: string) =>
              outcomes.push({ block, outcome, note: `${note}${from}` });
            try {
              if (action.kind === "unclassified")
                throw new Error(`${block.file}:${block.line} ${action.problem}`);
              if (!sandbox) throw new Error("no sandbox");
              const code = withPort(withoutSetup(block.code, scripts), port, written);
              const cwd = join(sandbox.dir, place);
              let run: BlockRun | null = null;
              if (action.kind === "program")
                run = await runProgram(block, code, sandbox, session, BLOCK_MS, cwd);
              else if (action.kind === "shell")
                run = await runShell(block, code, sandbox, session, BLOCK_MS, cwd);
              else {
                const t0 = Date.now();
                server = await startServer(block, code, sandbox, { ...session }, port, BLOCK_MS, cwd);
                record("ran", `(server on port ${port}, answering after ${Date.now() - t0} ms)`);
                return;
              }
              record("ran", `${run.ms} ms: ${firstLines(run.output)}`);
            } catch (error) {
              const message = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
              record("failed", message.replace(`${block.file}:${block.line} `, ""));
              throw error;
            }
          });
        }
      });
    }
  }

  it(`the TypeScript programs type-check (strict, as in the repository)`, {
    timeout: BLOCK_MS + 15_000,
  }, async () => {
    if (!typeCheck) throw new Error("the type check did not start");
    const { ms } = await typeCheck;
    console.log(`doc test: ${TYPESCRIPT.length} TypeScript programs type-check (${ms} ms)`);
  });
});
