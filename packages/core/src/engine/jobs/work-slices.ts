/**
 * Long work in slices: a loop that calls `pause()` between items gives the event loop a turn
 * (timers, I/O, other requests) once it has worked for a slice, so no job blocks the process
 * however long it runs. This matters on stores whose calls complete without I/O (SQLite's
 * driver is synchronous, the memory store): there every `await` resumes at once and a loop of
 * thousands of items would otherwise hold the event loop from its first item to its last.
 */
import type { Timer } from "../../ports/runtime.js";

/** The longest stretch of work between two turns of the event loop, in ms. */
export const WORK_SLICE_MS = 20;

/** Pauses a long loop at the end of each slice. */
export interface WorkSlicer {
  /** Resolves at once within a slice; past it, after the event loop has had a turn. */
  pause(): Promise<void>;
}

/** A slicer over `timer` (`soon` gives the turn, `elapsed` measures the slice). */
export function createWorkSlicer(timer: Timer, sliceMs = WORK_SLICE_MS): WorkSlicer {
  let started = timer.elapsed();
  return {
    async pause() {
      if (timer.elapsed() - started < sliceMs) return;
      await new Promise<void>((resolve) => timer.soon(resolve));
      started = timer.elapsed();
    },
  };
}
