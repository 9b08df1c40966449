import { appliedMigrations, migrateDown, STORE_MIGRATIONS } from "@openkyt/store-kysely";
import { makeJob, makeTransfer } from "@openkyt/testkit";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import {
  createPostgresStore,
  dropSchema,
  isPostgresUrl,
  migratePostgres,
  openPostgresDatabase,
  schemaOfUrl,
  withDefaultUser,
  withoutSchemaParam,
} from "../src/index.js";
import { withTestPostgres } from "./pg-test-suite.js";

const ALL = Object.keys(STORE_MIGRATIONS);

describe("postgres URLs", () => {
  it("tells a postgres URL from a SQLite file name", () => {
    expect(isPostgresUrl("postgres://127.0.0.1/kyt")).toBe(true);
    expect(isPostgresUrl(" postgresql://u:p@db:5432/kyt ")).toBe(true);
    expect(isPostgresUrl("./openkyt.db")).toBe(false);
    expect(isPostgresUrl("postgres.db")).toBe(false);
  });

  it("fills in the operating system's user only when nothing names one", () => {
    expect(withDefaultUser("postgres://u@h/db", {})).toBe("postgres://u@h/db");
    expect(withDefaultUser("postgres://h/db", { USER: "me" })).toBe("postgres://h/db");
    expect(withDefaultUser("postgres://h:5432/db", {})).toMatch(/^postgres:\/\/[^@/]+@h:5432\/db$/);
    expect(withDefaultUser("not a url", {})).toBe("not a url");
  });

  it("reads the store's schema from a schema parameter and hides it from pg", () => {
    expect(schemaOfUrl("postgres://h/db?schema=kyt&sslmode=disable")).toBe("kyt");
    expect(schemaOfUrl("postgres://h/db")).toBeUndefined();
    expect(withoutSchemaParam("postgres://h/db?schema=kyt&sslmode=disable")).toBe(
      "postgres://h/db?sslmode=disable",
    );
    expect(withoutSchemaParam("postgres://h/db")).toBe("postgres://h/db");
  });
});

await withTestPostgres("Postgres migrations", ({ url, stores }) => {
  const schemaName = () => `kyt_migrate_${globalThis.crypto.randomUUID().slice(0, 8)}`;

  it("migratePostgres creates the schema, migrates it once and is idempotent", async () => {
    const schema = schemaName();
    const db = openPostgresDatabase({ connectionString: url, schema });
    try {
      const first = await migratePostgres(url, schema);
      expect(first.applied.map((m) => m.name)).toEqual(ALL);
      expect((await migratePostgres(url, schema)).applied).toEqual([]);
      expect(await appliedMigrations(db, { schema })).toEqual(ALL);
      const tables = await sql<{ table_name: string }>`
        select table_name from information_schema.tables
        where table_schema = ${schema} and table_name not like 'kysely_%'`.execute(db);
      expect(tables.rows.map((r) => r.table_name)).toEqual(
        expect.arrayContaining(["transfers", "alerts", "risks", "jobs", "ledger_transfers", "settings"]),
      );
    } finally {
      await dropSchema(db, schema);
      await db.destroy();
    }
  });

  it("takes the schema from the URL when none is named: migrate, then open", async () => {
    const schema = schemaName();
    const withSchema = new URL(withDefaultUser(url));
    withSchema.searchParams.set("schema", schema);
    const db = openPostgresDatabase({ connectionString: url, schema });
    try {
      expect((await migratePostgres(withSchema.toString())).applied.map((m) => m.name)).toEqual(ALL);
      const store = await createPostgresStore({ connectionString: withSchema.toString() });
      await store.insertTransfer(makeTransfer({ id: "in-the-url-schema" }));
      await store.close();
      const rows = await sql<{ id: string }>`select id from ${sql.id(schema, "transfers")}`.execute(db);
      expect(rows.rows).toEqual([{ id: "in-the-url-schema" }]);
    } finally {
      await dropSchema(db, schema);
      await db.destroy();
    }
  });

  it("goes down to zero and up again on Postgres", async () => {
    const schema = schemaName();
    await migratePostgres(url, schema);
    const db = openPostgresDatabase({ connectionString: url, schema });
    try {
      await migrateDown(db, "previous", { schema });
      expect(await appliedMigrations(db, { schema })).toEqual(ALL.slice(0, -1));
      await migrateDown(db, "zero", { schema });
      expect(await appliedMigrations(db, { schema })).toEqual([]);
      expect((await migratePostgres(url, schema)).applied.map((m) => m.name)).toEqual(ALL);
    } finally {
      await dropSchema(db, schema);
      await db.destroy();
    }
  });

  it("keeps the audit log append-only in the database: UPDATE and DELETE are refused", async () => {
    const schema = schemaName();
    await migratePostgres(url, schema);
    const db = openPostgresDatabase({ connectionString: url, schema });
    const store = await createPostgresStore({ connectionString: url, schema });
    try {
      const entry = {
        id: "e-1",
        accountId: "a",
        at: 1,
        actor: null,
        action: "sla.updated" as const,
        subject: null,
        details: {},
      };
      await store.appendAuditEvent(entry);
      await expect(sql`update audit_events set actor = 'someone'`.execute(db)).rejects.toThrow(/append-only/);
      await expect(sql`delete from audit_events`.execute(db)).rejects.toThrow(/append-only/);
      expect((await store.listAuditEvents("a", {}, { page: 1, pageSize: 5 })).items).toEqual([entry]);
    } finally {
      await store.close();
      await dropSchema(db, schema);
      await db.destroy();
    }
  });

  it("never migrates implicitly: a store over an unmigrated schema refuses to open", async () => {
    const schema = schemaName();
    const error = await createPostgresStore({ connectionString: url, schema }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "KytError", code: "STORE_ERROR" });
    expect(String((error as Error).message)).toContain("openkyt migrate");
    await expect(createPostgresStore({ connectionString: url, schema: "bad-name;" })).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
    });
  });

  it("reads every number back as a number, counts and int8 columns included", async () => {
    const store = await stores.createStore();
    try {
      const t = makeTransfer({ registeredAt: 1_717_171_717_171, occurredAt: 1_700_000_000_123 });
      await store.insertTransfer(t);
      await store.enqueueJob(makeJob({ runAt: 1_717_171_717_999 }));
      const back = await store.getTransfer(t.id);
      expect(back).toEqual(t);
      expect(typeof back?.registeredAt).toBe("number");
      const page = await store.listTransfers(t.accountId, {}, { page: 1, pageSize: 5 });
      expect(page.total).toBe(1);
      expect(typeof page.total).toBe("number");
      expect(await store.nextJobAt()).toBe(1_717_171_717_999);
    } finally {
      await stores.destroyStore(store);
    }
  });
});
