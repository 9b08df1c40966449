/**
 * The CLI's start-up: wall time of the built `openkyt --help` and `openkyt --version`, each in a
 * fresh process, beside a bare `node -e 0` of the same run. Prints median, p90 and spread; fails
 * only when a run fails or prints the wrong thing, never on speed.
 *
 *   node --conditions=source --import tsx bench/src/cli/cli-bench.ts [--quick]
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Figure, figure, percentile } from "../bench-stats.js";

const CLI = new URL("../../../packages/cli/", import.meta.url);
const BIN = fileURLToPath(new URL("bin/openkyt.js", CLI));
const BUILT = fileURLToPath(new URL("dist/main.js", CLI));
const runs = process.argv.includes("--quick") ? 10 : 30;

/** The environment of a run: the built CLI, never its sources. */
const env = { ...process.env };
delete env.OPENKYT_FROM_SOURCE;

/** Wall time of `node ...args` in ms, after checking its exit status and output. */
function timed(args: ReadonlyArray<string>, expected: (stdout: string) => boolean): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { encoding: "utf8", env });
  const ms = performance.now() - started;
  if (run.status !== 0 || !expected(run.stdout)) {
    throw new Error(`node ${args.join(" ")} exited ${run.status}: ${run.stdout}${run.stderr}`);
  }
  return ms;
}

/** The median figure (with its target) and the p90 of `runs` timed runs, after two warm-up runs. */
function measure(
  name: string,
  args: ReadonlyArray<string>,
  expected: (stdout: string) => boolean,
  target?: string,
): Figure[] {
  for (let i = 0; i < 2; i += 1) timed(args, expected);
  const samples = Array.from({ length: runs }, () => timed(args, expected));
  return [figure(name, "ms", samples, target), figure(`${name}, p90`, "ms", [percentile(samples, 90)])];
}

if (!existsSync(BUILT)) {
  throw new Error(`${BUILT} is missing: build the CLI first (npm run build; the README's set-up does)`);
}
const { version } = JSON.parse(readFileSync(new URL("package.json", CLI), "utf8")) as { version: string };
const figures: Figure[] = [
  ...measure("bare node -e 0 (same run)", ["-e", "0"], () => true),
  ...measure(
    "openkyt --help (built), wall",
    [BIN, "--help"],
    (out) => out.startsWith("usage: openkyt COMMAND"),
    "< 300 ms",
  ),
  ...measure("openkyt --version (built), wall", [BIN, "--version"], (out) => out === `${version}\n`),
];
console.log(JSON.stringify(figures));
