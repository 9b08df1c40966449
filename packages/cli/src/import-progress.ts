/**
 * Progress of an import: a bar with rows/s and an ETA redrawn on a terminal, plain log lines
 * every few seconds otherwise (CI logs, pipes).
 */
import type { ImportProgress } from "@openkyt/datasets";

/** Reports progress to `write`; `tty` draws a bar, otherwise a line every `everyMs`. */
export function progressReporter(write: (text: string) => void, tty: boolean, everyMs = 5_000) {
  const started = Date.now();
  let last = 0;
  let drawn = false;
  return {
    update(p: ImportProgress) {
      const now = Date.now();
      if (now - last < (tty ? 200 : everyMs)) return;
      last = now;
      const seconds = Math.max(0.001, (now - started) / 1000);
      const rate = Math.round(p.rowsRead / seconds);
      const fraction = p.totalBytes > 0 ? Math.min(1, p.bytesRead / p.totalBytes) : 0;
      const eta = fraction > 0 ? Math.round(seconds / fraction - seconds) : null;
      const text = `${p.rowsRead.toLocaleString("en-US")} rows, ${rate.toLocaleString("en-US")} rows/s, ${Math.round(fraction * 100)}%${eta === null ? "" : `, ETA ${eta} s`}`;
      if (tty) {
        const width = 30;
        const bar = "#".repeat(Math.round(fraction * width)).padEnd(width, ".");
        write(`\r[${bar}] ${text}   `);
        drawn = true;
      } else {
        write(`import: ${text}\n`);
      }
    },
    done() {
      if (drawn) write("\n");
    },
  };
}
