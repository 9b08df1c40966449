/**
 * @openkyt/store-postgres: OpenKYT's store for many processes. Postgres through pg, sharing
 * the kysely store with SQLite; jobs are leased `FOR UPDATE SKIP LOCKED`.
 */
export {
  openPostgresDatabase,
  type PostgresConnection,
  type PostgresPoolOptions,
  type PostgresQueryEvent,
} from "./postgres-database.js";
export {
  DEFAULT_WATCH_BACKOFF,
  jobsChannel,
  type PostgresJobWatchOptions,
  type WatchBackoff,
  watchPostgresJobs,
} from "./postgres-job-watch.js";
export { migratePostgres } from "./postgres-migrate.js";
export {
  checkSchemaName,
  createSchema,
  DEFAULT_POSTGRES_SCHEMA,
  dropSchema,
  storeSchema,
} from "./postgres-schema.js";
export {
  createPostgresStore,
  POSTGRES_STORE_CAPABILITIES,
  POSTGRES_STORE_DIALECT,
  type PostgresStoreOptions,
} from "./postgres-store.js";
export { isPostgresUrl, schemaOfUrl, withDefaultUser, withoutSchemaParam } from "./postgres-url.js";
