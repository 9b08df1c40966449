/**
 * A fresh schema per store for the Postgres tests: each store the suites create lives in its
 * own schema, migrated on creation and dropped with everything in it afterwards.
 */
import type { Store } from "@openkyt/core";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { createPostgresStore, dropSchema, type PostgresPoolOptions, withDefaultUser } from "../src/index.js";

/** Creates and drops stores in throwaway schemas of one database. */
export interface SchemaStores {
  /** A migrated store in a new schema. */
  createStore(pool?: PostgresPoolOptions): Promise<Store>;
  /** Another store over the same schema as `store` (a second "process"), not migrated again. */
  openAgain(store: Store, pool?: PostgresPoolOptions): Promise<Store>;
  /** Closes `store` and drops its schema (other stores on the schema must be closed first). */
  destroyStore(store: Store): Promise<void>;
  /** The schema of a store this factory created. */
  schemaOf(store: Store): string;
  /** Drops every schema left over and closes the admin connection. */
  close(): Promise<void>;
}

/** A unique schema name for one test. */
function newSchemaName(): string {
  return `kyt_test_${process.pid}_${globalThis.crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
}

/** Stores in throwaway schemas of the database at `url`. */
export function schemaStores(url: string): SchemaStores {
  const admin = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: withDefaultUser(url), max: 2 }) }),
  });
  const schemas = new Map<Store, string>();
  const live = new Set<string>();
  const make = async (pool?: PostgresPoolOptions): Promise<Store> => {
    const schema = newSchemaName();
    live.add(schema);
    const store = await createPostgresStore({
      connectionString: url,
      schema,
      migrate: true,
      pool: { max: 4, ...pool },
    });
    schemas.set(store, schema);
    return store;
  };
  // Migrating a schema takes longer than most tests: the next one is made while a test runs.
  let next: Promise<Store> | null = null;
  return {
    async createStore(pool) {
      if (pool !== undefined) return make(pool);
      const store = await (next ?? make());
      next = make();
      next.catch(() => undefined);
      return store;
    },
    async openAgain(store, pool) {
      const schema = this.schemaOf(store);
      const again = await createPostgresStore({ connectionString: url, schema, pool: { max: 4, ...pool } });
      schemas.set(again, schema);
      return again;
    },
    async destroyStore(store) {
      await store.close();
      const schema = schemas.get(store);
      if (schema === undefined) return;
      schemas.delete(store);
      live.delete(schema);
      await dropSchema(admin, schema);
    },
    schemaOf(store) {
      const schema = schemas.get(store);
      if (schema === undefined) throw new Error("not a store of this factory");
      return schema;
    },
    async close() {
      const spare = await next?.catch(() => null);
      if (spare) await spare.close();
      next = null;
      for (const schema of live) await dropSchema(admin, schema);
      live.clear();
      await admin.destroy();
    },
  };
}
