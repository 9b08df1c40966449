/** Summaries of repeated measurements: median and spread of runs, percentiles of samples. */
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";

/** A figure: the median of several runs, with the lowest and highest run. */
export interface Figure {
  readonly name: string;
  readonly unit: string;
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly runs: number;
  /** The target, when the figure has one (for the table; never fails the run). */
  readonly target?: string;
}

/** The value after `name` on the command line (`--rows 1000000`), or undefined when absent. */
export function argFlag(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** The `LABEL=FOLDER` arguments of an A/B bench: the checkouts to compare, folders resolved. */
export function checkoutArgs(): Array<{ readonly label: string; readonly dir: string }> {
  return process.argv
    .slice(2)
    .filter((a) => /^[\w.-]+=/.test(a))
    .map((a) => ({ label: a.slice(0, a.indexOf("=")), dir: resolve(a.slice(a.indexOf("=") + 1)) }));
}

/**
 * User + system CPU of process `pid` and its threads so far, in ms (Linux /proc); `whenGone`
 * when it cannot be read (the process exited, or no /proc): NaN unless the caller sums over
 * processes that may exit (Postgres backends: 0).
 */
export function processCpuMs(pid: number, whenGone = Number.NaN): number {
  try {
    return (statOf(readFileSync(`/proc/${pid}/stat`, "utf8")).ticks(false) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return whenGone;
  }
}

/** The p-th percentile (0..100) of samples, by nearest rank. */
export function percentile(samples: ReadonlyArray<number>, p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** A figure from the values of several runs. */
export function figure(name: string, unit: string, values: ReadonlyArray<number>, target?: string): Figure {
  return {
    name,
    unit,
    median: percentile(values, 50),
    min: Math.min(...values),
    max: Math.max(...values),
    runs: values.length,
    ...(target ? { target } : {}),
  };
}

/** Runs `measure` `runs` times and collects each result. */
export async function repeat<T>(runs: number, measure: (run: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let run = 0; run < runs; run += 1) out.push(await measure(run));
  return out;
}

/**
 * CPU time of this process's main thread so far, in ms (Linux: /proc/self/task/<pid>/stat, 10 ms
 * ticks; NaN elsewhere). `process.cpuUsage()` counts every thread: the screening thread's own
 * share is this one.
 */
export function mainThreadCpuMs(): number {
  try {
    const { ticks } = statOf(readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8"));
    return (ticks(false) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU time (ms) of every process of this machine named `name` (its `comm`, as `ps` shows it),
 * with what their exited children used: a local Postgres server's own CPU (its backends are
 * `postgres` processes, and the postmaster collects the time of those that exited). NaN where
 * /proc cannot be read. Take the difference of two readings.
 */
export function processesCpuMs(name: string): number {
  let ticks = 0;
  try {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      } catch {
        continue; // exited meanwhile
      }
      const parsed = statOf(stat);
      if (parsed.name === name) ticks += parsed.ticks(true);
    }
  } catch {
    return Number.NaN;
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * A /proc `stat` line: the command name (in parentheses, and it may hold spaces or parentheses)
 * and the CPU ticks, user and system (utime, stime: the 12th and 13th fields after the name),
 * with the exited children's (cutime, cstime, the next two) when asked.
 */
function statOf(stat: string): { name: string; ticks(withChildren: boolean): number } {
  const close = stat.lastIndexOf(")");
  const fields = stat.slice(close + 2).split(" ");
  const field = (i: number) => Number(fields[i]);
  return {
    name: stat.slice(stat.indexOf("(") + 1, close),
    ticks: (withChildren) => field(11) + field(12) + (withChildren ? field(13) + field(14) : 0),
  };
}

/** Linux's USER_HZ, the unit of /proc's CPU times (100 on every Linux of the last decades). */
const CLOCK_TICKS_PER_SECOND = 100;
