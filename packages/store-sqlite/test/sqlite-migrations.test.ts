import { appliedMigrations, migrateDown, migrateToLatest, STORE_MIGRATIONS } from "@openkyt/store-kysely";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createSqliteStore, openSqliteDatabase } from "../src/index.js";

const ALL = Object.keys(STORE_MIGRATIONS);

describe("sqlite migrations", () => {
  it("go up to latest, down to zero and up again", async () => {
    const db = openSqliteDatabase(":memory:");
    try {
      const tables = async () =>
        (
          await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'table' and name not like 'kysely_%' and name not like 'sqlite_%' order by name`.execute(
            db,
          )
        ).rows.map((r) => r.name);
      // Every table and index of the store, with its SQL: what a migration changes.
      const schema = async () =>
        (
          await sql<{
            entry: string;
          }>`select type || ' ' || name || ': ' || coalesce(sql, '') as entry from sqlite_master where name not like 'kysely_%' and name not like 'sqlite_%' order by type, name`.execute(
            db,
          )
        ).rows.map((r) => r.entry);
      const up = await migrateToLatest(db);
      expect(up.applied.map((m) => m.name)).toEqual(ALL);
      expect(await appliedMigrations(db)).toEqual(ALL);
      expect(await tables()).toContain("transfers");
      expect((await migrateToLatest(db)).applied).toEqual([]);
      const latest = await schema();

      // One step down reverts the last migration only, and up again restores the same schema.
      const oneDown = await migrateDown(db);
      expect(oneDown.applied).toEqual([{ name: ALL[ALL.length - 1], direction: "Down" }]);
      expect(await appliedMigrations(db)).toEqual(ALL.slice(0, -1));
      // 0060 adds the change reason of a risk model version: one column of risk_models, nothing else.
      const modelsTable = (entry: string) => entry.startsWith("table risk_models:");
      expect(latest.find(modelsTable)).toMatch(/"change_reason" text/);
      const noReason = await schema();
      expect(noReason.find(modelsTable)).not.toMatch(/change_reason/);
      expect(noReason.filter((e) => !modelsTable(e))).toEqual(latest.filter((e) => !modelsTable(e)));
      await migrateDown(db);
      expect(await appliedMigrations(db)).toEqual(ALL.slice(0, -2));
      const latestBefore0060 = [...noReason];
      // The one before (0031) adds the address clusters' two tables and the members index.
      const clusters = (entry: string) => / utxo_cluster/.test(entry);
      expect(latestBefore0060.filter(clusters)).toHaveLength(3);
      const withoutClusters = latestBefore0060.filter((e) => !clusters(e));
      expect(await schema()).toEqual(withoutClusters);
      // The one before (0030) adds the UTXO ledger's three tables and their indexes, nothing else.
      await migrateDown(db);
      expect(await appliedMigrations(db)).toEqual(ALL.slice(0, -3));
      const utxo = (entry: string) => / utxo_(transactions|outputs|inputs)/.test(entry);
      expect(latestBefore0060.filter(utxo)).toHaveLength(6);
      expect(latest.find((e) => e.startsWith("index utxo_inputs_prevout:"))).toMatch(
        /\("prev_txid", "network", "prev_vout"\)/,
      );
      const withoutUtxo = withoutClusters.filter((e) => !utxo(e));
      expect(await schema()).toEqual(withoutUtxo);
      // The one before (0020) adds the followed blocks of chain followers and the ledger's
      // (network, block) index, nothing else.
      await migrateDown(db);
      expect(await appliedMigrations(db)).toEqual(ALL.slice(0, -4));
      const followed = (entry: string) =>
        entry.startsWith("table followed_blocks:") || entry.startsWith("index ledger_transfers_block:");
      expect(latest.find((e) => e.startsWith("index ledger_transfers_block:"))).toMatch(
        /\("network", "block"\)/,
      );
      expect(latest.find((e) => e.startsWith("table followed_blocks:"))).toMatch(
        /primary key \("network", "height"\)/,
      );
      const withoutFollowed = withoutUtxo.filter((e) => !followed(e));
      expect(await schema()).toEqual(withoutFollowed);
      // The one before (0018) adds the index of the tx_status filter, nothing else.
      await migrateDown(db);
      expect(await appliedMigrations(db)).toEqual(ALL.slice(0, -5));
      const statusIndex = (entry: string) => entry.startsWith("index transfers_account_status:");
      expect(latest.find(statusIndex)).toMatch(/\("account_id", "tx_status", "registered_at"\)/);
      const withoutStatus = withoutFollowed.filter((e) => !statusIndex(e));
      expect(await schema()).toEqual(withoutStatus);
      // The one before (0015) adds the partial index of leased jobs: stepping over it
      // leaves every other table and index as it was.
      await migrateDown(db);
      const leasedIndex = (entry: string) => entry.startsWith("index jobs_leased:");
      const before = await schema();
      expect(before).toEqual(withoutStatus.filter((e) => !leasedIndex(e)));
      expect(latest.find(leasedIndex)).toMatch(/\("lease_until"\) where "lease_until" is not null/);
      // One more step (0014, the transfer's block and log index) leaves every table but
      // transfers as it was, and transfers without the two columns.
      await migrateDown(db);
      const transfersTable = (entry: string) => entry.startsWith("table transfers:");
      const twoDown = await schema();
      expect(twoDown.filter((e) => !transfersTable(e))).toEqual(before.filter((e) => !transfersTable(e)));
      expect(twoDown.find(transfersTable)).not.toMatch(/"block"|"log_index"/);
      expect(latest.find(transfersTable)).toMatch(/"block"/);
      expect(latest.find(transfersTable)).toMatch(/"log_index"/);
      await migrateToLatest(db);
      expect(await schema()).toEqual(latest);

      await migrateDown(db, "zero");
      expect(await appliedMigrations(db)).toEqual([]);
      expect(await tables()).toEqual([]);

      await migrateToLatest(db);
      expect(await appliedMigrations(db)).toEqual(ALL);
      expect(await schema()).toEqual(latest);
    } finally {
      await db.destroy();
    }
  });

  it("leave the schema alone when asked not to migrate", async () => {
    const store = await createSqliteStore({ filename: ":memory:", migrate: false });
    await expect(store.getTransfer("t")).rejects.toThrow(/no such table/);
    await store.close();
    await store.close();
  });

  it("0006 keeps the ledger's rows in their stored order and makes its key a unique index", async () => {
    const db = openSqliteDatabase(":memory:");
    try {
      await migrateToLatest(db);
      // Down to the schema before 0006, whatever came after it.
      while ((await appliedMigrations(db)).at(-1) !== "0005_list_indexes") await migrateDown(db);
      const row = (hash: string, log: number, at: number) =>
        sql`insert into ledger_transfers values ('ETH', ${hash}, ${log}, 'native', '0xa', '0xb', 1.5, ${at}, null, null)`.execute(
          db,
        );
      await row("0xcc", 0, 3);
      await row("0xaa", 1, 1);
      await row("0xbb", 0, 2);
      await expect(row("0xaa", 1, 9)).rejects.toThrow(/UNIQUE/);
      await migrateToLatest(db);
      const rows = await sql<{
        tx_hash: string;
      }>`select tx_hash from ledger_transfers order by rowid`.execute(db);
      expect(rows.rows.map((r) => r.tx_hash)).toEqual(["0xcc", "0xaa", "0xbb"]);
      await expect(row("0xaa", 1, 9)).rejects.toThrow(/UNIQUE/);
      const indexes = await sql<{ name: string; sql: string }>`
        select name, sql from sqlite_master where type = 'index' and tbl_name = 'ledger_transfers' order by name`.execute(
        db,
      );
      expect(indexes.rows.map((r) => r.name)).toEqual([
        "ledger_transfers_block",
        "ledger_transfers_incoming",
        "ledger_transfers_key",
        "ledger_transfers_outgoing",
      ]);
      expect(indexes.rows.find((r) => r.name === "ledger_transfers_key")?.sql).toMatch(/UNIQUE/i);
    } finally {
      await db.destroy();
    }
  });
});
