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
      // Migrations applied up to and including `name`.
      const upTo = (name: string) => ALL.slice(0, ALL.indexOf(name) + 1);
      const tableOrIndex = (entry: string) => entry.replace(/:.*$/, "");
      // The last migration (0101) rebuilds the UTXO tables in narrow form (outputs and inputs
      // keyed by their transaction's id, WITHOUT ROWID; the transactions' txid key a unique
      // index), every other table and index as it was.
      expect(await appliedMigrations(db)).toEqual(upTo("0100_job_notify"));
      const utxoLedger = (entry: string) => / utxo_(transactions|outputs|inputs)[_:]/.test(entry);
      expect(latest.filter(utxoLedger).map(tableOrIndex)).toEqual([
        "index utxo_inputs_prevout",
        "index utxo_outputs_address",
        "index utxo_transactions_block",
        "index utxo_transactions_key",
        "table utxo_inputs",
        "table utxo_outputs",
        "table utxo_transactions",
      ]);
      expect(latest.find((e) => e.startsWith("table utxo_transactions:"))).toMatch(
        /"id" integer primary key/,
      );
      expect(latest.find((e) => e.startsWith("table utxo_outputs:"))).toMatch(
        /primary key \("tx", "vout"\)\) without rowid$/,
      );
      expect(latest.find((e) => e.startsWith("table utxo_inputs:"))).toMatch(
        /primary key \("tx", "vin"\)\) without rowid$/,
      );
      expect(latest.find((e) => e.startsWith("index utxo_outputs_address:"))).toMatch(
        /\("address", "occurred_at"\)/,
      );
      expect(latest.find((e) => e.startsWith("index utxo_inputs_prevout:"))).toMatch(
        /\("prev_txid", "prev_vout"\)/,
      );
      const wide = await schema();
      expect(wide.filter((e) => !utxoLedger(e))).toEqual(latest.filter((e) => !utxoLedger(e)));
      expect(wide.filter(utxoLedger)).toHaveLength(9);
      await migrateDown(db);
      // The one before (0100) notifies job enqueues on Postgres: nothing on SQLite.
      expect(await appliedMigrations(db)).toEqual(upTo("0090_cluster_labels"));
      expect(await schema()).toEqual(wide);
      await migrateDown(db);
      // The one before (0090) keeps the clusters' labelled members: one table, nothing else.
      expect(await appliedMigrations(db)).toEqual(upTo("0080_team_approval"));
      const clusterLabels = (entry: string) => entry.startsWith("table utxo_cluster_labels:");
      expect(wide.filter(clusterLabels)).toHaveLength(1);
      expect(wide.find(clusterLabels)).toMatch(/primary key \("network", "cluster_id", "address"\)/);
      const before0090 = await schema();
      expect(before0090).toEqual(wide.filter((e) => !clusterLabels(e)));
      // The one before (0080) adds a version's approval (six columns of risk_models), the
      // shared flag of saved views and its index, nothing else.
      await migrateDown(db);
      expect(await appliedMigrations(db)).toEqual(upTo("0070_ledger_rewinds"));
      const modelsTable = (entry: string) => entry.startsWith("table risk_models:");
      const viewsTable = (entry: string) => entry.startsWith("table saved_views:");
      const sharedIndex = (entry: string) => entry.startsWith("index saved_views_shared:");
      for (const column of [
        "approval_state",
        "proposed_by",
        "make_default",
        "decided_by",
        "decided_at",
        "decision_reason",
      ])
        expect(before0090.find(modelsTable)).toContain(`"${column}"`);
      expect(before0090.find(viewsTable)).toMatch(/"shared" integer default 0 not null/);
      expect(before0090.find(sharedIndex)).toMatch(/\("account_id", "shared"\)/);
      const before0080 = await schema();
      expect(before0080.find(modelsTable)).not.toMatch(/approval_state|decision_reason/);
      expect(before0080.find(viewsTable)).not.toMatch(/shared/);
      const touched0080 = (e: string) => modelsTable(e) || viewsTable(e) || sharedIndex(e);
      expect(before0080.filter((e) => !touched0080(e))).toEqual(before0090.filter((e) => !touched0080(e)));
      // The one before (0070) adds the rewind log of the chain followers' undos: one table.
      await migrateDown(db);
      expect(await appliedMigrations(db)).toEqual(upTo("0060_model_change_reason"));
      const rewinds = (entry: string) => entry.startsWith("table ledger_rewinds:");
      expect(before0080.filter(rewinds)).toHaveLength(1);
      const beforeRewinds = await schema();
      expect(beforeRewinds).toEqual(before0080.filter((e) => !rewinds(e)));
      // The one before (0060) adds the change reason of a risk model version: one column of
      // risk_models, nothing else.
      await migrateDown(db);
      expect(await appliedMigrations(db)).toEqual(upTo("0040_casework"));
      expect(beforeRewinds.find(modelsTable)).toMatch(/"change_reason" text/);
      const before0060 = await schema();
      expect(before0060.find(modelsTable)).not.toMatch(/change_reason/);
      expect(before0060.filter((e) => !modelsTable(e))).toEqual(beforeRewinds.filter((e) => !modelsTable(e)));
      // The one before (0040) adds casework: decisions, the audit log (with its two append-only
      // triggers), SLA policies, saved views and a name column of api_keys.
      await migrateDown(db);
      expect(await appliedMigrations(db)).toEqual(upTo("0032_utxo_keys"));
      const casework = (entry: string) => / (decisions|audit_events|sla_policies|saved_views)/.test(entry);
      expect(wide.filter((e) => e.startsWith("trigger audit_events_no_"))).toHaveLength(2);
      const keysTable = (entry: string) => entry.startsWith("table api_keys:");
      expect(wide.find(keysTable)).toMatch(/"name" text/);
      const before0040 = await schema();
      expect(before0040.filter((e) => !keysTable(e))).toEqual(
        before0060.filter((e) => !casework(e) && !keysTable(e)),
      );
      expect(before0040.find(keysTable)).not.toMatch(/"name"/);
      // The one before (0032) makes the UTXO tables' keys unique indexes instead of primary
      // keys, the tables otherwise as they were.
      await migrateDown(db);
      expect(await appliedMigrations(db)).toEqual(upTo("0031_utxo_clusters"));
      const utxoKey = (entry: string) => /^index utxo_(transactions|outputs|inputs)_key:/.test(entry);
      expect(wide.filter(utxoKey)).toHaveLength(3);
      expect(wide.find((e) => e.startsWith("index utxo_outputs_key:"))).toMatch(
        /UNIQUE INDEX .*\("txid", "network", "vout"\)/,
      );
      const before0032 = await schema();
      expect(before0032.filter(utxoKey)).toEqual([]);
      expect(before0032.find((e) => e.startsWith("table utxo_inputs:"))).toMatch(
        /primary key \("txid", "network", "vin"\)/,
      );
      expect(before0032.map(tableOrIndex)).toEqual(before0040.filter((e) => !utxoKey(e)).map(tableOrIndex));
      // The one before (0031) adds the address clusters' two tables and the members index.
      await migrateDown(db);
      expect(await appliedMigrations(db)).toEqual(upTo("0030_utxo_ledger"));
      const clusters = (entry: string) => / utxo_cluster/.test(entry);
      expect(before0032.filter(clusters)).toHaveLength(3);
      const withoutClusters = before0032.filter((e) => !clusters(e));
      expect(await schema()).toEqual(withoutClusters);
      // The one before (0030) adds the UTXO ledger's three tables and their indexes, nothing else.
      await migrateDown(db);
      expect(await appliedMigrations(db)).toEqual(upTo("0020_followed_blocks"));
      const utxo = (entry: string) => / utxo_(transactions|outputs|inputs)/.test(entry);
      expect(before0032.filter(utxo)).toHaveLength(6);
      expect(wide.find((e) => e.startsWith("index utxo_inputs_prevout:"))).toMatch(
        /\("prev_txid", "network", "prev_vout"\)/,
      );
      const withoutUtxo = withoutClusters.filter((e) => !utxo(e));
      expect(await schema()).toEqual(withoutUtxo);
      // The one before (0020) adds the followed blocks of chain followers and the ledger's
      // (network, block) index, nothing else.
      await migrateDown(db);
      expect(await appliedMigrations(db)).toEqual(upTo("0018_transfer_status_index"));
      const followed = (entry: string) =>
        entry.startsWith("table followed_blocks:") || entry.startsWith("index ledger_transfers_block:");
      expect(wide.find((e) => e.startsWith("index ledger_transfers_block:"))).toMatch(
        /\("network", "block"\)/,
      );
      expect(wide.find((e) => e.startsWith("table followed_blocks:"))).toMatch(
        /primary key \("network", "height"\)/,
      );
      const withoutFollowed = withoutUtxo.filter((e) => !followed(e));
      expect(await schema()).toEqual(withoutFollowed);
      // The one before (0018) adds the index of the tx_status filter, nothing else.
      await migrateDown(db);
      expect(await appliedMigrations(db)).toEqual(upTo("0015_job_leases"));
      const statusIndex = (entry: string) => entry.startsWith("index transfers_account_status:");
      expect(wide.find(statusIndex)).toMatch(/\("account_id", "tx_status", "registered_at"\)/);
      const withoutStatus = withoutFollowed.filter((e) => !statusIndex(e));
      expect(await schema()).toEqual(withoutStatus);
      // The one before (0015) adds the partial index of leased jobs: stepping over it
      // leaves every other table and index as it was.
      await migrateDown(db);
      const leasedIndex = (entry: string) => entry.startsWith("index jobs_leased:");
      const before = await schema();
      expect(before).toEqual(withoutStatus.filter((e) => !leasedIndex(e)));
      expect(wide.find(leasedIndex)).toMatch(/\("lease_until"\) where "lease_until" is not null/);
      // One more step (0014, the transfer's block and log index) leaves every table but
      // transfers as it was, and transfers without the two columns.
      await migrateDown(db);
      const transfersTable = (entry: string) => entry.startsWith("table transfers:");
      const twoDown = await schema();
      expect(twoDown.filter((e) => !transfersTable(e))).toEqual(before.filter((e) => !transfersTable(e)));
      expect(twoDown.find(transfersTable)).not.toMatch(/"block"|"log_index"/);
      expect(wide.find(transfersTable)).toMatch(/"block"/);
      expect(wide.find(transfersTable)).toMatch(/"log_index"/);
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

  it("0090 keeps the labelled members of the clusters already stored", async () => {
    const db = openSqliteDatabase(":memory:");
    try {
      await migrateToLatest(db);
      while ((await appliedMigrations(db)).at(-1) !== "0080_team_approval") await migrateDown(db);
      const member = (address: string, network: string, cluster: string) =>
        sql`insert into utxo_clusters values (${address}, ${network}, ${cluster})`.execute(db);
      await member("a1", "BTC", "a1");
      await member("a2", "BTC", "a1");
      await member("a3", "BTC", "a1");
      await member("b1", "BTC", "b1");
      await member("a2", "LTC", "x");
      await member("s1", "LTC", "x");
      // a2 is attributed on BTC only; s1 is sanctioned (any network); b1 is labelled on ETH only.
      const attribution = (network: string, address: string) =>
        sql`insert into attributions values (${network}, ${address}, 'E', 'exchange', null)`.execute(db);
      await attribution("BTC", "a2");
      await attribution("ETH", "b1");
      await sql`insert into sanctions_listings (address, list_name, listed_at, network) values ('s1', 'L', 0, 'ETH')`.execute(
        db,
      );
      await migrateToLatest(db);
      const kept = await sql<{
        network: string;
        cluster_id: string;
        address: string;
      }>`select network, cluster_id, address from utxo_cluster_labels order by network, cluster_id, address`.execute(
        db,
      );
      expect(kept.rows).toEqual([
        { network: "BTC", cluster_id: "a1", address: "a2" },
        { network: "LTC", cluster_id: "x", address: "s1" },
      ]);
    } finally {
      await db.destroy();
    }
  });

  it("0101 moves the UTXO rows into the narrow tables and back, networks kept apart", async () => {
    const db = openSqliteDatabase(":memory:");
    try {
      await migrateToLatest(db);
      await migrateDown(db);
      expect((await appliedMigrations(db)).at(-1)).toBe("0100_job_notify");
      const [t1, t2] = ["b".repeat(64), "a".repeat(64)];
      // The wide form (0032): t1 on BTC and on LTC (one txid, two networks), t2 on BTC spends
      // t1:0 of BTC; rows written in an order unlike their keys.
      const tx = (txid: string, network: string, block: number, at: number) =>
        sql`insert into utxo_transactions values (${txid}, ${network}, ${block}, ${`h${block}`}, ${at}, 0, 0)`.execute(
          db,
        );
      const output = (
        txid: string,
        network: string,
        vout: number,
        address: string,
        value: number,
        at: number,
      ) =>
        sql`insert into utxo_outputs values (${txid}, ${network}, ${vout}, ${address}, ${value}, ${at}, ${at / 10}, 0)`.execute(
          db,
        );
      const input = (txid: string, network: string, vin: number, prev: string, value: number, at: number) =>
        sql`insert into utxo_inputs values (${txid}, ${network}, ${vin}, ${prev}, 0, 'x', ${value}, 0, ${at})`.execute(
          db,
        );
      await tx(t1, "LTC", 7, 70);
      await tx(t1, "BTC", 5, 50);
      await tx(t2, "BTC", 6, 60);
      await output(t1, "BTC", 1, "b1", 300, 50);
      await output(t1, "BTC", 0, "b0", 200, 50);
      await output(t1, "LTC", 0, "l0", 9, 70);
      await output(t2, "BTC", 0, "c0", 150, 60);
      await input(t2, "BTC", 0, t1, 200, 60);
      await input(t1, "LTC", 0, "c".repeat(64), 10, 70);
      const wideRows = async () => ({
        txs: (await sql`select rowid, * from utxo_transactions order by rowid`.execute(db)).rows,
        outputs: (await sql`select * from utxo_outputs order by txid, network, vout`.execute(db)).rows,
        inputs: (await sql`select * from utxo_inputs order by txid, network, vin`.execute(db)).rows,
      });
      const before = await wideRows();

      await migrateToLatest(db);
      const txs = await sql<{ id: number; txid: string; network: string }>`
        select id, txid, network from utxo_transactions order by id`.execute(db);
      // The rowid stays each transaction's id (a warm copy's scan position).
      expect(txs.rows).toEqual([
        { id: 1, txid: t1, network: "LTC" },
        { id: 2, txid: t1, network: "BTC" },
        { id: 3, txid: t2, network: "BTC" },
      ]);
      const outputs =
        await sql`select tx, vout, address, value, occurred_at from utxo_outputs order by tx, vout`.execute(
          db,
        );
      expect(outputs.rows).toEqual([
        { tx: 1, vout: 0, address: "l0", value: 9, occurred_at: 70 },
        { tx: 2, vout: 0, address: "b0", value: 200, occurred_at: 50 },
        { tx: 2, vout: 1, address: "b1", value: 300, occurred_at: 50 },
        { tx: 3, vout: 0, address: "c0", value: 150, occurred_at: 60 },
      ]);
      const inputs =
        await sql`select tx, vin, prev_txid, prev_vout, value from utxo_inputs order by tx, vin`.execute(db);
      expect(inputs.rows).toEqual([
        { tx: 1, vin: 0, prev_txid: "c".repeat(64), prev_vout: 0, value: 10 },
        { tx: 3, vin: 0, prev_txid: t1, prev_vout: 0, value: 200 },
      ]);
      // (txid, network) stays unique.
      await expect(
        sql`insert into utxo_transactions (txid, network, block, occurred_at, position, coinbase) values (${t1}, 'BTC', 9, 90, 0, 0)`.execute(
          db,
        ),
      ).rejects.toThrow(/UNIQUE/);

      await migrateDown(db);
      expect(await wideRows()).toEqual(before);
    } finally {
      await db.destroy();
    }
  });
});
