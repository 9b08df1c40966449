/**
 * The store for many processes: Postgres through a pg pool and the shared kysely store. Jobs
 * are claimed `FOR UPDATE SKIP LOCKED`; reads by id inside a transaction lock their row.
 */
import type { JobWatch, Store, StoreCapabilities } from "@openkyt/core";
import { createKyselyStore, defineStoreDialect } from "@openkyt/store-kysely";
import {
  openPostgresDatabase,
  type PostgresPoolOptions,
  type PostgresQueryEvent,
} from "./postgres-database.js";
import { watchPostgresJobs } from "./postgres-job-watch.js";
import { assertMigrated, migrateSchema } from "./postgres-migrate.js";
import { storeSchema } from "./postgres-schema.js";

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions {
  /** A postgres:// URL. */
  readonly connectionString: string;
  /**
   * Schema of the store's tables (a plain identifier); default: the URL's `schema` parameter
   * (`postgres://host/db?schema=kyt`), else "public".
   */
  readonly schema?: string;
  /**
   * Create the schema and run pending migrations before returning the store (default false:
   * run `openkyt migrate` or `migratePostgres` once per release; a store over a schema with
   * pending migrations refuses to open).
   */
  readonly migrate?: boolean;
  /** Connection pool settings. */
  readonly pool?: PostgresPoolOptions;
  /** Called after every statement, with its SQL, parameters and duration (slow-query logs). */
  readonly onQuery?: (event: PostgresQueryEvent) => void;
}

/** Capabilities of the Postgres store: many processes claim jobs. */
export const POSTGRES_STORE_CAPABILITIES: StoreCapabilities = Object.freeze({
  multiProcess: true,
  dialect: "postgres",
});

/**
 * What Postgres changes in the kysely store: many processes on a pool, so reads that lead to a
 * write lock their rows, jobs are claimed `FOR UPDATE SKIP LOCKED`, ties order in byte order
 * (collation "C", as on SQLite), the ledger is numbered in commit order (`seq`), a ledger hop
 * is one lateral join over the frontier as arrays, and a unique violation is SQLSTATE 23505.
 * (Its job watch is not a dialect matter: `createPostgresStore` adds it.)
 */
export const POSTGRES_STORE_DIALECT = defineStoreDialect({
  name: "postgres",
  capabilities: POSTGRES_STORE_CAPABILITIES,
  skipLocked: true,
  rowLocks: true,
  orderCollation: "C",
  ledgerOrder: "seq",
  lateralJoins: true,
  uniqueViolationCodes: Object.freeze(["23505"]),
});

/**
 * Opens a Postgres store over `options.schema`: migrates it first when `migrate` is true,
 * otherwise checks it is migrated (STORE_ERROR naming the pending migrations if not). Text
 * orders in byte order (collation "C"), as on SQLite. It offers `watchJobs`: each watch is a
 * connection of its own, outside the pool, listening on the schema's channel
 * (postgres-job-watch.ts). `close()` closes the watches and ends the pool; idempotent.
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const schema = storeSchema(options.connectionString, options.schema);
  const db = openPostgresDatabase({
    connectionString: options.connectionString,
    schema,
    ...(options.pool === undefined ? {} : { pool: options.pool }),
    ...(options.onQuery === undefined ? {} : { onQuery: options.onQuery }),
  });
  try {
    if (options.migrate ?? false) await migrateSchema(db, schema);
    else await assertMigrated(db, schema);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const store = createKyselyStore(db, POSTGRES_STORE_DIALECT);
  const watches = new Set<JobWatch>();
  let closing: Promise<void> | null = null;
  return {
    ...store,
    async watchJobs(listener) {
      const watch = await watchPostgresJobs({ connectionString: options.connectionString, schema, listener });
      if (closing !== null) {
        await watch.close();
        return watch;
      }
      const tracked: JobWatch = {
        close: () => {
          watches.delete(tracked);
          return watch.close();
        },
      };
      watches.add(tracked);
      return tracked;
    },
    close() {
      closing ??= Promise.all([...watches].map((watch) => watch.close())).then(() => store.close());
      return closing;
    },
  };
}
