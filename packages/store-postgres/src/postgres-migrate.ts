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

/** Attempts of a migrator call that lost the race described at {@link whileSchemasChange}. */
const SCHEMA_RACE_ATTEMPTS = 8;

/**
 * Postgres codes of an object that vanished while a statement read the catalog: schema
 * (3F000), table (42P01) or column (42703) does not exist.
 */
const VANISHED = new Set(["3F000", "42P01", "42703"]);

/**
 * True when `error` (or its cause) says a schema, table or column vanished: one of the codes
 * above, or the internal error (XX000) Postgres raises when a relation it listed is dropped
 * before it names it ("cache lookup failed for relation", from `pg_get_serial_sequence`, seen
 * in a parallel worker of the migrator's listing).
 */
function isVanishedObject(error: unknown): boolean {
  for (let e: unknown = error; typeof e === "object" && e !== null; e = (e as { cause?: unknown }).cause) {
    const { code, routine, message } = e as { code?: unknown; routine?: unknown; message?: unknown };
    if (VANISHED.has(String(code))) return true;
    if (
      code === "XX000" &&
      (routine === "generate_qualified_relation_name" ||
        /cache lookup failed for relation/.test(String(message)))
    ) {
      return true;
    }
  }
  return false;
}

/**
 * Runs a migrator call again when it failed because some schema, table or column vanished
 * under it. kysely's migrator lists every table and column of the database (through
 * `has_schema_privilege` and `pg_get_serial_sequence`, by name) to see whether its own
 * bookkeeping tables exist; a schema dropped meanwhile, by anyone, fails that listing. A failed
 * run changed nothing (each migration runs in a transaction), so trying again is safe.
 */
async function whileSchemasChange<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= SCHEMA_RACE_ATTEMPTS || !isVanishedObject(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}

/**
 * Creates `schema` if needed and runs every pending migration in it. Safe to run from several
 * processes at once: kysely's migrator holds a Postgres advisory lock while it migrates.
 */
export async function migrateSchema(db: Kysely<Database>, schema: string): Promise<MigrationOutcome> {
  await createSchema(db, schema);
  return whileSchemasChange(() => migrateToLatest(db, { schema }));
}

/** Throws STORE_ERROR naming the pending migrations unless `schema` is at the latest one. */
export async function assertMigrated(db: Kysely<Database>, schema: string): Promise<void> {
  const applied = new Set(await whileSchemasChange(() => appliedMigrations(db, { schema })));
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
