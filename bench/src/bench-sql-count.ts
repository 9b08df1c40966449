/**
 * Counts the SQL statements better-sqlite3 runs while counting is on: every prepared
 * statement's run, get, all and iterate, wrapped once per statement when it is prepared. The
 * SQLite store and this process share one better-sqlite3 module (one install in the workspace),
 * so statements the store prepares after `countSqlStatements()` are counted.
 */
import Database from "better-sqlite3";

/** A running count. */
export interface SqlCounter {
  /** Statements run since counting started, in all. */
  total(): number;
  /** The statements run most, by the first 60 characters of their SQL. */
  top(n: number): ReadonlyArray<readonly [string, number]>;
  /** The statements that took longest in all (milliseconds inside better-sqlite3), by the first 60 characters. */
  slowest(n: number): ReadonlyArray<readonly [string, number]>;
  start(): void;
  stop(): void;
}

type Prepare = (this: unknown, sql: string) => Record<string, unknown>;

let installed: SqlCounter | null = null;

/** Installs the counter (once per process) and answers it; counting starts stopped. */
export function countSqlStatements(): SqlCounter {
  if (installed) return installed;
  const counts = new Map<string, number>();
  const times = new Map<string, number>();
  let on = false;
  const proto = (Database as unknown as { prototype: { prepare: Prepare } }).prototype;
  const prepare = proto.prepare;
  proto.prepare = function (this: unknown, sql: string) {
    const statement = prepare.call(this, sql);
    const key = sql.length > 100 ? `${sql.slice(0, 60)} … ${sql.slice(-30)}` : sql.slice(0, 60);
    for (const method of ["run", "get", "all", "iterate"]) {
      const original = statement[method] as (...args: unknown[]) => unknown;
      statement[method] = (...args: unknown[]) => {
        if (!on) return original.apply(statement, args);
        counts.set(key, (counts.get(key) ?? 0) + 1);
        const t0 = performance.now();
        try {
          return original.apply(statement, args);
        } finally {
          times.set(key, (times.get(key) ?? 0) + performance.now() - t0);
        }
      };
    }
    return statement;
  };
  installed = {
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    top: (n) => [...counts].sort((a, b) => b[1] - a[1]).slice(0, n),
    slowest: (n) => [...times].sort((a, b) => b[1] - a[1]).slice(0, n),
    start() {
      counts.clear();
      times.clear();
      on = true;
    },
    stop() {
      on = false;
    },
  };
  return installed;
}
