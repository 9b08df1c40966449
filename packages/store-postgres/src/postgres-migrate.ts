/**
 * Migrating a Postgres store: the shared versioned migrations, run on demand (by `openkyt
 * migrate` or `createPostgresStore({ migrate: true })`), never implicitly by a running engine.
 */
import { KytError } from "@openkyt/core";
import {
  appliedMigrations,
  type Database,
  type MigrationOutcome,
  migrateToLatest,
  STORE_MIGRATIONS,
} from "@openkyt/store-kysely";
import type { Kysely } from "kysely";
import { openPostgresDatabase } from "./postgres-database.js";
import { createSchema, storeSchema } from "./postgres-schema.js";

/**
 * Creates `schema` if needed and runs every pending migration in it. Safe to run from several
 * processes at once: kysely's migrator holds a Postgres advisory lock while it migrates.
 */
export async function migrateSchema(db: Kysely<Database>, schema: string): Promise<MigrationOutcome> {
  await createSchema(db, schema);
  return migrateToLatest(db, { schema });
}

/** Throws STORE_ERROR naming the pending migrations unless `schema` is at the latest one. */
export async function assertMigrated(db: Kysely<Database>, schema: string): Promise<void> {
  const applied = new Set(await appliedMigrations(db, { schema }));
  const pending = Object.keys(STORE_MIGRATIONS).filter((name) => !applied.has(name));
  if (pending.length > 0) {
    throw new KytError(
      "STORE_ERROR",
      `schema ${schema} has pending migrations (${pending.join(", ")}): run \`openkyt migrate\` first`,
    );
  }
}

/**
 * Migrates the store in `schema` (default: the URL's `schema` parameter, else "public") of the
 * database at `connectionString` to the latest version, creating the schema if needed, and
 * closes its connection. Returns the migrations it ran (none when the schema was up to date).
 */
export async function migratePostgres(connectionString: string, named?: string): Promise<MigrationOutcome> {
  const schema = storeSchema(connectionString, named);
  const db = openPostgresDatabase({ connectionString, schema, pool: { max: 1 } });
  try {
    return await migrateSchema(db, schema);
  } finally {
    await db.destroy();
  }
}
