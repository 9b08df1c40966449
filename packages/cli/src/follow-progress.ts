/**
 * Progress of `openkyt follow`: while it backfills, a line at most every few seconds with the
 * blocks done and left, blocks/s, rows/s and an ETA; a line when it catches up with the node;
 * a line for each reorganisation undone.
 */
import type { FollowStep } from "@openkyt/core";

/** How a reporter writes and tells time. */
export interface FollowProgressOptions {
  /** Backfill lines at most this often (default 5,000 ms; 0: every step). */
  readonly everyMs?: number;
  /** Milliseconds now (default `Date.now`). */
  readonly now?: () => number;
}

const grouped = (n: number) => n.toLocaleString("en-US");

/** A reporter: give it every step. */
export function followProgress(
  network: string,
  write: (text: string) => void,
  options: FollowProgressOptions = {},
): (step: FollowStep) => void {
  const now = options.now ?? Date.now;
  const everyMs = options.everyMs ?? 5_000;
  let run: { startedAt: number; blocks: number; rows: number } | null = null;
  let lastLine = Number.NEGATIVE_INFINITY;
  let caughtUp = false;
  // A backfill's rates count from when the reporter began or last caught up (the first step's own time included).
  let since = now();
  return (step) => {
    const at = now();
    if (step.kind === "reorg") {
      caughtUp = false;
      write(
        `${network}: reorganisation: blocks from ${grouped(step.from)} replaced, ${grouped(step.removedBlocks)} blocks and ${grouped(step.removedTransfers)} rows undone\n`,
      );
      return;
    }
    if (step.kind === "idle") {
      if (!caughtUp) {
        caughtUp = true;
        const where = step.cursor === null ? "no block written yet" : `block ${grouped(step.cursor)}`;
        write(`${network}: caught up at ${where} (head ${grouped(step.head)})\n`);
      }
      run = null;
      since = at;
      return;
    }
    caughtUp = false;
    run ??= { startedAt: since, blocks: 0, rows: 0 };
    run.blocks += step.to - step.from + 1;
    run.rows += step.transfers;
    const left = Math.max(0, step.safeHead - step.to);
    if (left === 0 || at - lastLine < everyMs) return;
    lastLine = at;
    const seconds = Math.max(0.001, (at - run.startedAt) / 1000);
    const blocksPerSecond = run.blocks / seconds;
    const total = run.blocks + left;
    const eta = blocksPerSecond > 0 ? Math.round(left / blocksPerSecond) : null;
    write(
      `${network}: backfill at block ${grouped(step.to)} of ${grouped(step.safeHead)}: ${grouped(run.blocks)} of ${grouped(total)} blocks (${Math.floor((100 * run.blocks) / total)}%), ${grouped(Math.round(blocksPerSecond))} blocks/s, ${grouped(Math.round(run.rows / seconds))} rows/s${eta === null ? "" : `, ETA ${grouped(eta)} s`}\n`,
    );
  };
}
