/** Opening the store of a crash run: a postgres:// URL (one schema of it), or a SQLite file. */
import type { Store } from "@openkyt/core";
import { createPostgresStore, isPostgresUrl } from "@openkyt/store-postgres";
import { createSqliteStore } from "@openkyt/store-sqlite";

/** Where a crash run keeps its data. */
export interface CrashDatabase {
  /** A postgres:// URL or a SQLite file path. */
  readonly db: string;
  /** The Postgres schema (ignored for SQLite). */
  readonly schema?: string;
}

/** Opens the store; `migrate` only in the driver, never in a worker. */
export function openCrashStore(target: CrashDatabase, migrate: boolean): Promise<Store> {
  if (isPostgresUrl(target.db)) {
    return createPostgresStore({
      connectionString: target.db,
      ...(target.schema === undefined ? {} : { schema: target.schema }),
      migrate,
      pool: { max: 8 },
    });
  }
  return createSqliteStore({ filename: target.db, migrate });
}
