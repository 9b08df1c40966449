/**
 * The nightly-size fuzz run: the suite's generator and properties (never a 5xx, refusals JSON
 * with detail and code, a refused request changes nothing) over many more requests, in chunks
 * on fresh worlds. Prints the figures; exits 1 with fast-check's counterexample on a violation.
 *
 *   node --conditions=source --import tsx bench/src/soak/fuzz-nightly.ts \
 *     [--runs 200000] [--seed N] [--transport in-process|http] [--chunk 2500]
 */
import { runFuzz } from "../../../packages/http/test/security-fuzz-runner.js";
import { argValue } from "./soak-settings.js";

const runs = Number(argValue("--runs", "200000"));
const seedText = argValue("--seed", "");
const transport = argValue("--transport", "in-process") === "http" ? "http" : "in-process";
const started = performance.now();
const report = await runFuzz({
  runs,
  transport,
  chunk: Number(argValue("--chunk", "2500")),
  ...(seedText === "" ? {} : { seed: Number(seedText) }),
});
const seconds = (performance.now() - started) / 1000;
console.log(
  `fuzz (${transport}): ${report.tried} requests in ${seconds.toFixed(1)} s (${(report.tried / seconds).toFixed(0)}/s), seed ${report.seed}`,
);
for (const [status, n] of Object.entries(report.byStatus).sort()) console.log(`  ${status}  ${n}`);
console.log(`  refusals whose rolled-back writes were digest-checked: ${report.digestChecks}`);
if (report.failure) {
  console.log(`\nVIOLATION\n${report.failure}`);
  process.exit(1);
}
console.log("every property held");
