import type { ImportProgress } from "@openkyt/datasets";
import { describe, expect, it } from "vitest";
import { progressReporter } from "../src/import-progress.js";

/** A reporter on a clock the test moves, and what it wrote. */
function reporter(tty: boolean, columns?: number) {
  let clock = 1_000_000;
  const written: string[] = [];
  const progress = progressReporter((t) => written.push(t), {
    tty,
    columns,
    everyMs: 5_000,
    now: () => clock,
  });
  const at = (ms: number, p: Partial<ImportProgress>) => {
    clock = 1_000_000 + ms;
    progress.update({ phase: "reading", rowsRead: 0, bytesRead: 0, totalBytes: 1000, ...p });
  };
  return { progress, written, at };
}

const FINISHING = "read 40 rows in 1.0 s (40 rows/s); finishing: the store is committing them\n";

describe("import progress", () => {
  it("logs a line every few seconds while reading, then the end of the reading at once", () => {
    const { progress, written, at } = reporter(false);
    at(1_000, { rowsRead: 100, bytesRead: 100 });
    at(2_000, { rowsRead: 200, bytesRead: 200 }); // within 5 s of the last line: not logged
    at(6_000, { rowsRead: 600, bytesRead: 500 });
    at(6_500, { phase: "finishing", rowsRead: 1_200_000, bytesRead: 1000 });
    at(9_000, { phase: "finishing", rowsRead: 1_200_000, bytesRead: 1000 }); // said once
    progress.done();
    expect(written).toEqual([
      "import: reading: 100 rows, 100 rows/s, 10%, ETA 9 s\n",
      "import: reading: 600 rows, 100 rows/s, 50%, ETA 6 s\n",
      "import: read 1,200,000 rows in 6.5 s (184,615 rows/s); finishing: the store is committing them\n",
    ]);
  });

  it("redraws a bar on a terminal, full once the reading ends, then says so on a line of its own", () => {
    const { progress, written, at } = reporter(true);
    at(500, { rowsRead: 10, bytesRead: 250 });
    at(600, { rowsRead: 11, bytesRead: 260 }); // within 200 ms: not redrawn
    at(1_000, { phase: "finishing", rowsRead: 40, bytesRead: 1000 });
    progress.done(); // the line is already ended
    const first = `[#####${".".repeat(15)}] reading: 10 rows, 20 rows/s, 25%, ETA 2 s`;
    expect(written).toEqual([
      `\r${first}`,
      `\r${`[${"#".repeat(20)}] reading: 40 rows, 100%`.padEnd(first.length)}`,
      "\n",
      FINISHING,
    ]);
  });

  it("cuts the bar to the terminal's width, so that a redraw never wraps", () => {
    const { written, at } = reporter(true, 40);
    at(500, { rowsRead: 1_234_567, bytesRead: 250 });
    expect(written).toEqual([`\r[#####${".".repeat(15)}] reading: 1,234,5`]);
    expect((written[0] ?? "").length - 1).toBe(39);
  });

  it("ends the bar's line when the import fails before finishing, and writes nothing when nothing was drawn", () => {
    const failed = reporter(true);
    failed.at(500, { rowsRead: 10, bytesRead: 250 });
    failed.progress.done();
    expect(failed.written.at(-1)).toBe("\n");
    const silent = reporter(true);
    silent.progress.done();
    expect(silent.written).toEqual([]);
  });
});
