/**
 * Progress of an import: a bar with rows/s and an ETA redrawn on a terminal (cut to its width,
 * so that a redraw never wraps), plain log lines every few seconds otherwise (CI logs, pipes).
 * When the reading ends, a line of its own says so at once, with its figures, and that the
 * store is finishing: for a large ledger the store then builds its indexes and commits, which
 * can take as long as the reading did.
 */
import type { ImportProgress } from "@openkyt/datasets";

/** How a reporter writes and tells time. */
export interface ProgressOptions {
  /** Draw a bar redrawn in place (a terminal), else write log lines. */
  readonly tty: boolean;
  /** The terminal's width in columns, when known (default 80). */
  readonly columns?: number;
  /** Log lines at most this often while reading (default 5,000 ms). */
  readonly everyMs?: number;
  /** Milliseconds now (default `Date.now`). */
  readonly now?: () => number;
}

/** The reporter of one import. */
export interface ProgressReporter {
  update(progress: ImportProgress): void;
  /** Ends the bar's line, if one is drawn: call it whether the import succeeded or not. */
  done(): void;
}

/** `n` with thousands separators. */
const grouped = (n: number) => n.toLocaleString("en-US");

/** Reports progress to `write`: a bar on a terminal, otherwise a line every `everyMs`. */
export function progressReporter(write: (text: string) => void, options: ProgressOptions): ProgressReporter {
  const now = options.now ?? Date.now;
  const everyMs = options.everyMs ?? 5_000;
  // One column short of the width: a line that fills it wraps on some terminals.
  const width = Math.max(20, (options.columns ?? 80) - 1);
  const started = now();
  let last = Number.NEGATIVE_INFINITY;
  let drawn = 0;
  let finishing = false;
  /** Redraws the bar at `fraction` with `text`, cut to the terminal, over what was drawn. */
  const draw = (text: string, fraction: number) => {
    const bar = "#".repeat(Math.round(fraction * 20)).padEnd(20, ".");
    const line = `[${bar}] ${text}`.slice(0, width);
    write(`\r${line.padEnd(drawn)}`);
    drawn = line.length;
  };
  const endLine = () => {
    if (drawn > 0) write("\n");
    drawn = 0;
  };
  return {
    update(p) {
      if (finishing) return;
      const at = now();
      const seconds = Math.max(0.001, (at - started) / 1000);
      const rate = Math.round(p.rowsRead / seconds);
      if (p.phase === "finishing") {
        finishing = true;
        const text = `read ${grouped(p.rowsRead)} rows in ${seconds.toFixed(1)} s (${grouped(rate)} rows/s); finishing: the store is committing them`;
        if (options.tty) {
          draw(`reading: ${grouped(p.rowsRead)} rows, 100%`, 1);
          endLine();
          write(`${text}\n`);
        } else {
          write(`import: ${text}\n`);
        }
        return;
      }
      if (at - last < (options.tty ? 200 : everyMs)) return;
      last = at;
      const fraction = p.totalBytes > 0 ? Math.min(1, p.bytesRead / p.totalBytes) : 0;
      const eta = fraction > 0 ? Math.round(seconds / fraction - seconds) : null;
      const text = `reading: ${grouped(p.rowsRead)} rows, ${grouped(rate)} rows/s, ${Math.round(fraction * 100)}%${eta === null ? "" : `, ETA ${eta} s`}`;
      if (options.tty) draw(text, fraction);
      else write(`import: ${text}\n`);
    },
    done: endLine,
  };
}
