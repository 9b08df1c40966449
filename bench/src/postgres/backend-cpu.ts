/**
 * CPU of the Postgres backends of one database, for benchmarks on a server other sessions share.
 */
import { readFileSync } from "node:fs";
import { runPsql } from "../crash/postgres-psql.js";

/** User + system CPU ms of process `pid` and its threads so far (0 when it is gone). */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * CPU of the Postgres backends of the database at `url`: their pids (pg_stat_activity) and CPU
 * (/proc) read by {@link BackendCpu.sample}, each backend counted up to its last sample (one
 * that exits counts what it used up to the sample before; the pools hold their connections
 * while checks run). Other databases' backends, other helpers' on a shared server, are not.
 */
export class BackendCpu {
  readonly #seen = new Map<number, number>();
  readonly #url: string;
  readonly #schema: string;

  constructor(url: string, schema: string) {
    this.#url = url;
    this.#schema = schema;
  }

  /** Reads the backends of this database now. */
  sample(): void {
    const out = runPsql(
      this.#url,
      this.#schema,
      "select pid from pg_stat_activity where datname = current_database();",
    );
    for (const pid of out.split("\n").filter(Boolean).map(Number)) {
      const ms = processCpuMs(pid);
      if (ms > 0) this.#seen.set(pid, ms);
    }
  }

  /** CPU ms of every backend seen, at its last sample. */
  totalMs(): number {
    let ms = 0;
    for (const v of this.#seen.values()) ms += v;
    return ms;
  }
}
