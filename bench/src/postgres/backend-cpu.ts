/**
 * CPU of the Postgres backends of one database, for benchmarks on a server other sessions share.
 */
import { processCpuMs } from "../bench-stats.js";
import { runPsql } from "../crash/postgres-psql.js";

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
      const ms = processCpuMs(pid, 0);
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
