/** Schema names of the Postgres store: checked, quoted, created and dropped. */
import { KytError } from "@openkyt/core";
import { type Kysely, sql } from "kysely";
import { schemaOfUrl } from "./postgres-url.js";

/** The schema a store uses when none is named. */
export const DEFAULT_POSTGRES_SCHEMA = "public";

/** The schema of a store: the one named, else the URL's `schema` parameter, else "public"; checked. */
export function storeSchema(connectionString: string, named?: string): string {
  return checkSchemaName(named ?? schemaOfUrl(connectionString) ?? DEFAULT_POSTGRES_SCHEMA);
}

/** A plain identifier: letters, digits and underscores, not starting with a digit, at most 63 bytes. */
const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** `name` if it is a plain identifier; VALIDATION_ERROR otherwise (it goes into SQL text). */
export function checkSchemaName(name: string): string {
  if (!PLAIN_IDENTIFIER.test(name)) {
    throw new KytError("VALIDATION_ERROR", `schema ${JSON.stringify(name)} is not a plain identifier`, {
      errors: { schema: ["letters, digits and underscores, not starting with a digit, at most 63"] },
    });
  }
  return name;
}

/** The search_path value that puts `schema` (and nothing else) first, quoted. */
export function schemaSearchPath(schema: string): string {
  return `"${checkSchemaName(schema)}"`;
}

/** Creates `schema` unless it exists. */
export async function createSchema<DB>(db: Kysely<DB>, schema: string): Promise<void> {
  await sql`create schema if not exists ${sql.id(checkSchemaName(schema))}`.execute(db);
}

/** Drops `schema` with everything in it, if it exists. */
export async function dropSchema<DB>(db: Kysely<DB>, schema: string): Promise<void> {
  await sql`drop schema if exists ${sql.id(checkSchemaName(schema))} cascade`.execute(db);
}
