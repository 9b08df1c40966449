/**
 * Progress of an import: a bar with rows/s and an ETA redrawn on a terminal, plain log lines
 * every few seconds otherwise (CI logs, pipes). When the reading ends, one line says so at once,
 * with its figures, and that the store is finishing: for a large ledger the store then builds
 * its indexes and commits, which can take as long as the reading did.
 */
import type { ImportProgress } from "@openkyt/datasets";

/** How a reporter writes and tells time. */
export interface ProgressOptions {
  /** Draw a bar redrawn in place (a terminal), else write log lines. */
  readonly tty: boolean;
  /** Log lines at most this often while reading (default 5,000 ms). */
  readonly everyMs?: number;
  /** Milliseconds now (default `Date.now`). */
  readonly now?: () => number;
}

/** `n` with thousands separators. */
const grouped = (n: number) => n.toLocaleString("en-US");

/** Reports progress to `write`: a bar on a terminal, otherwise a line every `everyMs`. */
export function progressReporter(write: (text: string) => void, options: ProgressOptions) {
  const now = options.now ?? Date.now;
  const everyMs = options.everyMs ?? 5_000;
  const started = now();
  let last = Number.NEGATIVE_INFINITY;
  let drawn = false;
  let finishing = false;
  /** Draws the bar at `fraction` with `text`, or writes `text` as a log line. */
  const show = (text: string, fraction: number) => {
    if (options.tty) {
      const width = 30;
      const bar = "#".repeat(Math.round(fraction * width)).padEnd(width, ".");
      write(`\r[${bar}] ${text}   `);
      drawn = true;
    } else {
      write(`import: ${text}\n`);
    }
  };
  return {
    update(p: ImportProgress) {
      if (finishing) return;
      const at = now();
      const seconds = Math.max(0.001, (at - started) / 1000);
      const rate = Math.round(p.rowsRead / seconds);
      if (p.phase === "finishing") {
        finishing = true;
        show(
          `read ${grouped(p.rowsRead)} rows in ${seconds.toFixed(1)} s (${grouped(rate)} rows/s); finishing: the store is committing them`,
          1,
        );
        return;
      }
      if (at - last < (options.tty ? 200 : everyMs)) return;
      last = at;
      const fraction = p.totalBytes > 0 ? Math.min(1, p.bytesRead / p.totalBytes) : 0;
      const eta = fraction > 0 ? Math.round(seconds / fraction - seconds) : null;
      show(
        `${grouped(p.rowsRead)} rows, ${grouped(rate)} rows/s, ${Math.round(fraction * 100)}% read${eta === null ? "" : `, reading ETA ${eta} s`}`,
        fraction,
      );
    },
    done() {
      if (drawn) write("\n");
    },
  };
}
