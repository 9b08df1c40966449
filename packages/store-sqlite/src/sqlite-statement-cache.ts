/**
 * A better-sqlite3 database whose `prepare` reuses statements: kysely prepares every query it
 * runs, and preparing costs about as much as running a small query. Statements are kept per SQL
 * text, at most `limit` of them, the least recently used dropped first.
 */
import type BetterSqlite3 from "better-sqlite3";
import type { SqliteDatabase, SqliteStatement } from "kysely";

/** Wraps `sqlite` so that repeated SQL texts share one prepared statement. */
export function cachingDatabase(sqlite: BetterSqlite3.Database, limit = 500): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare(sql: string): SqliteStatement {
      const cached = statements.get(sql);
      if (cached) {
        // Refresh its place in the LRU order.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = sqlite.prepare(sql) as unknown as SqliteStatement;
      statements.set(sql, statement);
      if (statements.size > limit) {
        const oldest = statements.keys().next().value;
        if (oldest !== undefined) statements.delete(oldest);
      }
      return statement;
    },
  };
}
