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

  it("0101 moves the UTXO rows into the narrow tables and back, networks kept apart", async () => {
    const schema = schemaName();
    await migratePostgres(url, schema);
    const db = openPostgresDatabase({ connectionString: url, schema });
    try {
      await migrateDown(db, "previous", { schema });
      expect((await appliedMigrations(db, { schema })).at(-1)).toBe("0100_job_notify");
      const [t1, t2] = ["b".repeat(64), "a".repeat(64)];
      // The wide form (0032): t1 on BTC and on LTC, t2 on BTC spends t1:0 of BTC.
      await sql`insert into utxo_transactions values
        (${t1}, 'LTC', 7, 'h7', 70, 0, 0), (${t1}, 'BTC', 5, 'h5', 50, 0, 0), (${t2}, 'BTC', 6, null, 60, 1, 0)`.execute(
        db,
      );
      await sql`insert into utxo_outputs values
        (${t1}, 'BTC', 1, 'b1', 300, 50, 5, 0), (${t1}, 'BTC', 0, 'b0', 200, 50, 5, 0),
        (${t1}, 'LTC', 0, 'l0', 9, 70, 7, 0), (${t2}, 'BTC', 0, null, 150, 60, 6, 1)`.execute(db);
      await sql`insert into utxo_inputs values
        (${t2}, 'BTC', 0, ${t1}, 0, 'b0', 200, 0, 60), (${t1}, 'LTC', 0, null, null, null, 10, 1, 70)`.execute(
        db,
      );
      const wideRows = async () => ({
        txs: (await sql`select * from utxo_transactions order by txid, network`.execute(db)).rows,
        outputs: (await sql`select * from utxo_outputs order by txid, network, vout`.execute(db)).rows,
        inputs: (await sql`select * from utxo_inputs order by txid, network, vin`.execute(db)).rows,
      });
      const before = await wideRows();

      expect((await migratePostgres(url, schema)).applied.map((m) => m.name)).toEqual(["0101_utxo_narrow"]);
      const outputs = await sql`select t.txid, t.network, o.vout, o.address, o.value::int as value
        from utxo_outputs o join utxo_transactions t on t.id = o.tx order by t.txid, t.network, o.vout`.execute(
        db,
      );
      expect(outputs.rows).toEqual([
        { txid: t2, network: "BTC", vout: 0, address: null, value: 150 },
        { txid: t1, network: "BTC", vout: 0, address: "b0", value: 200 },
        { txid: t1, network: "BTC", vout: 1, address: "b1", value: 300 },
        { txid: t1, network: "LTC", vout: 0, address: "l0", value: 9 },
      ]);
      const inputs = await sql`select t.txid, t.network, i.vin, i.prev_txid, i.coinbase
        from utxo_inputs i join utxo_transactions t on t.id = i.tx order by t.txid, t.network, i.vin`.execute(
        db,
      );
      expect(inputs.rows).toEqual([
        { txid: t2, network: "BTC", vin: 0, prev_txid: t1, coinbase: 0 },
        { txid: t1, network: "LTC", vin: 0, prev_txid: null, coinbase: 1 },
      ]);
      // New rows get ids after the copied ones; (txid, network) stays unique.
      await sql`insert into utxo_transactions (txid, network, occurred_at, position, coinbase) values (${"c".repeat(64)}, 'BTC', 80, 0, 0)`.execute(
        db,
      );
      await expect(
        sql`insert into utxo_transactions (txid, network, occurred_at, position, coinbase) values (${t1}, 'BTC', 90, 0, 0)`.execute(
          db,
        ),
      ).rejects.toThrow(/unique/i);
      await sql`delete from utxo_transactions where txid = ${"c".repeat(64)}`.execute(db);

      await migrateDown(db, "previous", { schema });
      expect(await wideRows()).toEqual(before);
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
