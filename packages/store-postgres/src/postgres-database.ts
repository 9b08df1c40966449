/**
 * Opening a Postgres database through a pg pool as a kysely database: int8 columns read back
 * as numbers, every connection's search_path set to the store's schema.
 */
import type { Database } from "@openkyt/store-kysely";
import { CompiledQuery, Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { schemaSearchPath } from "./postgres-schema.js";
import { withDefaultUser, withoutSchemaParam } from "./postgres-url.js";

/** Pool settings of a Postgres store (pg's names; everything else keeps pg's default). */
export interface PostgresPoolOptions {
  /** Most connections the pool opens (default 10). */
  readonly max?: number;
  /** Milliseconds an idle connection stays open (default 10,000). */
  readonly idleTimeoutMillis?: number;
  /** Milliseconds to wait for a connection before failing (default 0: wait forever). */
  readonly connectionTimeoutMillis?: number;
  /** Shown in pg_stat_activity (default "openkyt"). */
  readonly applicationName?: string;
}

/** One statement the store ran, for slow-query logs and plan checks. */
export interface PostgresQueryEvent {
  /** The SQL text, with $n placeholders. */
  readonly sql: string;
  readonly parameters: ReadonlyArray<unknown>;
  readonly durationMs: number;
  /** The error when the statement failed. */
  readonly error?: unknown;
}

/** Where a Postgres database is and how to pool connections to it. */
export interface PostgresConnection {
  /**
   * A postgres:// URL (without a user: PGUSER, USER, else the operating system's user); a
   * `schema` parameter in it is left out of what pg sees.
   */
  readonly connectionString: string;
  /** The schema that holds the store's tables (a plain identifier). */
  readonly schema: string;
  readonly pool?: PostgresPoolOptions;
  /** Called after every statement (default: nothing). */
  readonly onQuery?: (event: PostgresQueryEvent) => void;
}

/** OID of int8 (bigint), which pg returns as a string by default. */
const INT8_OID = 20;

/** Parses int8 text as a number: the store's int8 columns hold epoch ms, counts and block numbers. */
const parseInt8 = (text: string): number => Number(text);

/** pg's type parsers, with int8 read as a number. Per pool, so pg's global parsers stay as they are. */
const storeTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8_OID && format !== "binary") return parseInt8;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** Opens a pool to `connection` as a kysely database. The caller destroys it (a store's `close()` does). */
export function openPostgresDatabase(connection: PostgresConnection): Kysely<Database> {
  const searchPath = schemaSearchPath(connection.schema);
  const pool = new pg.Pool({
    connectionString: withDefaultUser(withoutSchemaParam(connection.connectionString)),
    max: connection.pool?.max ?? 10,
    idleTimeoutMillis: connection.pool?.idleTimeoutMillis ?? 10_000,
    connectionTimeoutMillis: connection.pool?.connectionTimeoutMillis ?? 0,
    application_name: connection.pool?.applicationName ?? "openkyt",
    types: storeTypes,
  });
  // A connection that dies (server restart, failover, pg_terminate_backend) is dropped by the
  // pool and replaced on next use; a statement running on it fails, and the caller gets that
  // error. pg also emits the failure as an 'error' event, on the pool for an idle connection and
  // on the client for one in use: without listeners those are uncaught and end the process.
  pool.on("error", () => undefined);
  pool.on("connect", (client) => client.on("error", () => undefined));
  const onQuery = connection.onQuery;
  return new Kysely<Database>({
    dialect: new PostgresDialect({
      pool,
      onCreateConnection: async (conn) => {
        await conn.executeQuery(CompiledQuery.raw(`set search_path to ${searchPath}`));
      },
    }),
    ...(onQuery === undefined
      ? {}
      : {
          log: (event) =>
            onQuery({
              sql: event.query.sql,
              parameters: event.query.parameters,
              durationMs: event.queryDurationMillis,
              ...(event.level === "error" ? { error: event.error } : {}),
            }),
        }),
  });
}
