/**
 * The code blocks of the documentation and what the doc test does with each. The convention
 * (also the contract of docs/test/doc-snippets.test.ts):
 *
 * - ```ts, ```typescript, ```js, ```mjs: a program. Written to a file and run with
 *   `node --conditions=source --import tsx` (the workspace packages' TypeScript, nothing built);
 *   it must exit 0 on its own.
 * - ```sh, ```bash, ```shell: commands, run with `bash -e -o pipefail` from a directory that
 *   looks like the repository root.
 * - A block with no language, or text, json, csv, yaml, ...: a sample of output or of a file,
 *   never run.
 * - `<!-- doc-test: skip (reason) -->` on the line before a block: not run; the reason is
 *   printed with the counts. For fragments, deployment commands and long runs.
 * - `<!-- doc-test: server -->` on the line before an sh block: it starts `openkyt serve`; it
 *   runs in the background on a free port until the file's other blocks are done, and the
 *   blocks after it in the same file run against it. `<!-- doc-test: server 8070 -->`: a
 *   server that listens on port 8070 as written (`PORT=8070`, `127.0.0.1:8070` in the file's
 *   blocks), moved to a free port the same way; it is up once it answers HTTP at all.
 * - Any other block (another language, an unknown or malformed marker) fails the doc test,
 *   naming the file and line, until it is marked.
 */

/** What the doc test does with a block. */
export type BlockAction =
  | { readonly kind: "program" }
  | { readonly kind: "shell" }
  | { readonly kind: "server"; readonly port: number }
  | { readonly kind: "sample" }
  | { readonly kind: "skip"; readonly reason: string }
  | { readonly kind: "unclassified"; readonly problem: string };

/** A fenced code block of a Markdown file. */
export interface DocBlock {
  /** The Markdown file, relative to the repository root. */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The info string's first word, lower case ("" when there is none). */
  readonly lang: string;
  /** The block's text, without the fences and the fence's indentation. */
  readonly code: string;
  readonly action: BlockAction;
}

/** How an unmarked block of each language is treated. */
export const LANGUAGE_ACTIONS = Object.freeze({
  ts: "program",
  typescript: "program",
  js: "program",
  javascript: "program",
  mjs: "program",
  sh: "shell",
  bash: "shell",
  shell: "shell",
  "": "sample",
  text: "sample",
  json: "sample",
  csv: "sample",
  tsv: "sample",
  yaml: "sample",
  http: "sample",
} as const satisfies Record<string, "program" | "shell" | "sample">);

/** The port `openkyt serve` listens on as the docs write it. */
export const DEFAULT_SERVER_PORT = 8080;

const FENCE = /^( *)(`{3,}|~{3,})\s*([^\s`]*)/;
const MARKER = /^\s*<!--\s*doc-test:(.*?)-->\s*$/;

/** Reads a marker's directive; null when the line is no marker. */
function markerAction(line: string | undefined, lang: string): BlockAction | null {
  const marker = line === undefined ? null : MARKER.exec(line);
  if (!marker) return null;
  const directive = (marker[1] ?? "").trim();
  const skip = /^skip\s*\((.*\S.*)\)$/.exec(directive);
  if (skip) return { kind: "skip", reason: (skip[1] ?? "").trim() };
  const server = /^server(?:\s+(\d{2,5}))?$/.exec(directive);
  if (server) {
    return LANGUAGE_ACTIONS[lang as keyof typeof LANGUAGE_ACTIONS] === "shell"
      ? { kind: "server", port: Number(server[1] ?? DEFAULT_SERVER_PORT) }
      : { kind: "unclassified", problem: "a server marker is only for sh blocks" };
  }
  return {
    kind: "unclassified",
    problem: `unknown doc-test marker "${directive}" (use "skip (reason)", "server" or "server PORT")`,
  };
}

/** The action of a block from its marker (the last non-blank line before it) or its language. */
function classify(previous: string | undefined, lang: string): BlockAction {
  const marked = markerAction(previous, lang);
  if (marked) return marked;
  const kind = Object.hasOwn(LANGUAGE_ACTIONS, lang)
    ? LANGUAGE_ACTIONS[lang as keyof typeof LANGUAGE_ACTIONS]
    : null;
  if (kind) return { kind };
  return {
    kind: "unclassified",
    problem: `a \`\`\`${lang} block the doc test cannot run: mark it <!-- doc-test: skip (reason) -->`,
  };
}

/** The fenced code blocks of a Markdown text, in order. */
export function extractBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split("\n");
  const blocks: DocBlock[] = [];
  let previous: string | undefined;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? "";
    const open = FENCE.exec(line);
    if (!open) {
      if (line.trim() !== "") previous = line;
      continue;
    }
    const indent = (open[1] ?? "").length;
    const fence = open[2] ?? "```";
    const lang = (open[3] ?? "").toLowerCase();
    const closing = new RegExp(`^ *${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`);
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !closing.test(lines[j] ?? "")) {
      const text = lines[j] ?? "";
      body.push(text.slice(Math.min(indent, text.length - text.trimStart().length)));
      j += 1;
    }
    if (j >= lines.length) {
      blocks.push({
        file,
        line: i + 1,
        lang,
        code: body.join("\n"),
        action: { kind: "unclassified", problem: "the block is never closed" },
      });
      break;
    }
    blocks.push({ file, line: i + 1, lang, code: `${body.join("\n")}\n`, action: classify(previous, lang) });
    previous = undefined;
    i = j;
  }
  return blocks;
}
