// Prints the closing line of a test run ("N passed, N failed, N skipped") from vitest's JSON report.
import { existsSync, readFileSync } from "node:fs";

const file = process.argv[2] ?? "test-output/vitest.json";
if (!existsSync(file)) {
  console.log(`no test report at ${file}`);
  process.exit(0);
}
const report = JSON.parse(readFileSync(file, "utf8"));
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`Tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
