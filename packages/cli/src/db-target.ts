/**
 * Which store a command uses: `--db` (a SQLite file path or a postgres:// URL), else
 * `OPENKYT_DB`, else `./openkyt.db`; and opening it. The Postgres store is imported only when a
 * postgres:// URL is given, so SQLite use never loads it.
 */
import type { Store } from "@openkyt/core";
import { KytError } from "@openkyt/core";
import { userPath } from "@openkyt/runtime-node";
import type { MigrationOutcome } from "@openkyt/store-kysely";

/** The default database file. */
export const DEFAULT_DB = "./openkyt.db";

/** A resolved store location. */
export type DbTarget =
  | { readonly kind: "sqlite"; readonly filename: string }
  | { readonly kind: "postgres"; readonly url: string };

/**
 * Resolves `--db`, then `OPENKYT_DB`, then the default file. A relative file is relative to
 * where the command was typed, also when npm or pnpm runs it as a script in another folder
 * (`npm run openkyt -- serve --db x.db` typed in a subfolder; runtime-node's `userPath`).
 */
export function resolveDbTarget(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): DbTarget {
  const value = flag ?? env.OPENKYT_DB ?? DEFAULT_DB;
  if (/^postgres(ql)?:\/\//i.test(value)) return { kind: "postgres", url: value };
  return { kind: "sqlite", filename: value === ":memory:" ? value : userPath(value) };
}

/** The target as shown to people (a URL's password hidden). */
export function describeDbTarget(target: DbTarget): string {
  if (target.kind === "sqlite") return target.filename;
  try {
    const url = new URL(target.url);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "postgres://(unparseable URL)";
  }
}

/** What this module needs of @openkyt/store-postgres. */
interface PostgresModule {
  createPostgresStore(options: { connectionString: string; migrate?: boolean }): Promise<Store>;
  /** Runs the pending migrations; answers the ones it ran. */
  migratePostgres(connectionString: string): Promise<MigrationOutcome>;
}

/** Loads @openkyt/store-postgres, or fails with a clear error when it is not available. */
export async function loadPostgres(): Promise<PostgresModule> {
  const mod = (await import("@openkyt/store-postgres").catch((error: unknown) => {
    throw new KytError("NOT_CONFIGURED", "PostgreSQL support needs the @openkyt/store-postgres package", {
      cause: error,
    });
  })) as unknown as Partial<PostgresModule>;
  if (typeof mod.createPostgresStore !== "function" || typeof mod.migratePostgres !== "function") {
    throw new KytError(
      "NOT_CONFIGURED",
      "this build of @openkyt/store-postgres has no createPostgresStore/migratePostgres: use a SQLite --db",
    );
  }
  return mod as PostgresModule;
}

/**
 * Opens the store. SQLite files are migrated on open when `migrateSqlite` is true (the
 * embedded default); Postgres is never migrated implicitly (run `openkyt migrate`).
 */
export async function openStore(target: DbTarget, options: { migrateSqlite: boolean }): Promise<Store> {
  if (target.kind === "postgres") {
    return (await loadPostgres()).createPostgresStore({ connectionString: target.url });
  }
  const { createSqliteStore } = await import("@openkyt/store-sqlite");
  return createSqliteStore({ filename: target.filename, migrate: options.migrateSqlite });
}
