/**
 * Migration 3 (hop tables ordered by a 64-bit hop key): a ledger written under migrations 1 and 2
 * reads the same after it and the later ones (rows and duplicates copied, the per-hop-key tables
 * dropped again by migration 5), and the hop key is only an index: a row that shares an
 * address's key but not its strings is never read as that address's.
 */
import type { LedgerTransfer } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { BASE_TIME as T0 } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlIdentifier } from "../src/ch-escape.js";
import { runMigrationStatement } from "../src/ch-migrate.js";
import { dayOf, LEDGER_MIGRATIONS, recordVersion, versionsTable } from "../src/ch-schema.js";
import {
  type LocalClickHouse,
  migrateClickHouseLedger,
  openChClient,
  openClickHouseLedger,
  parseClickHouseUrl,
  startLocalClickHouse,
} from "../src/index.js";
import { CLICKHOUSE_MISSING, dropLedger, freshLedger } from "./ch-test-server.js";

/** 300 rows over a few addresses (one of them past the hot threshold used below), 40 repeated. */
function rows(): LedgerTransfer[] {
  return Array.from({ length: 340 }, (_, i) => {
    const n = i % 300;
    return {
      network: "ETH",
      txHash: `0xt${n}`,
      logIndex: n % 3,
      tokenId: n % 4 === 0 ? "0xtoken" : "native",
      from: `0xf${n % 7}`,
      to: n % 2 === 0 ? "0xhot" : `0xh${n % 5}`,
      amount: n + 0.5,
      occurredAt: T0 + (n % 50) * 1000,
      block: n,
      valueUsd: n % 3 === 0 ? null : n * 2,
    };
  });
}

const ADDRESSES = ["0xhot", "0xh1", "0xh3", "0xf0", "0xf2", "0xf5", "0xnone"];

describe.skipIf(CLICKHOUSE_MISSING !== null)("ClickHouse ledger migration 3", () => {
  let server: LocalClickHouse;
  beforeAll(async () => {
    server = await startLocalClickHouse();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  /**
   * A ledger written under migrations 1 and 2, then migrated; `cut` first runs migration 3's
   * statements up to and including the first that matches it without recording the version, as
   * a run killed there would leave them.
   */
  async function carryOver(cut: RegExp | null): Promise<void> {
    const database = `m${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const target = parseClickHouseUrl(server.ledgerUrl(database));
    const admin = openChClient(target, { database: null });
    const db = sqlIdentifier(database);
    const sqlite = await createSqliteStore({ filename: ":memory:", migrate: true });
    const data = rows();
    try {
      // The schema as it was before migration 3, with rows in it (twice, so parts hold duplicates).
      await admin.command(`CREATE DATABASE ${db}`);
      await admin.command(versionsTable(db));
      for (const migration of LEDGER_MIGRATIONS.filter((m) => m.version <= 2)) {
        for (const statement of migration.statements(db, ""))
          await runMigrationStatement(admin, database, statement);
        await admin.command(recordVersion(db, migration));
      }
      const before = openClickHouseLedger(target);
      await before.appendLedgerTransfers(data);
      await before.appendLedgerTransfers(data.slice(0, 120));
      await before.close();
      await sqlite.putLedgerTransfers(data);
      if (cut !== null) {
        const third = LEDGER_MIGRATIONS.find((m) => m.version === 3);
        for (const statement of third?.statements(db, "") ?? []) {
          await runMigrationStatement(admin, database, statement);
          if (cut.test(typeof statement === "string" ? statement : statement.sql)) break;
        }
      }

      const outcome = await migrateClickHouseLedger(target);
      expect(outcome.applied[target.url]).toContain(3);
      expect(outcome.applied[target.url]).toContain(5);
      expect(outcome.applied[target.url]).not.toContain(2);
      const tables = await admin.rows<{ name: string }>(
        `SELECT name FROM system.tables WHERE database = '${database}' AND name LIKE 'ledger_%' ORDER BY name`,
      );
      const names = tables.map((t) => t.name);
      expect(names).toContain("ledger_hop_in");
      expect(names).toContain("ledger_hop_out_days");
      // Migration 3's string-ordered tables and migration 5's per-hop-key tables are gone.
      const gone = /^ledger_(in|out)(_degree)?(_mv)?$|^ledger_hop_(in|out)_degree(_mv)?$/;
      expect(names.filter((n) => gone.test(n))).toEqual([]);

      // hotAddressRows 20: 0xhot (150 rows) is routed by the backfilled day counts to the top-n path.
      const ledger = openClickHouseLedger(target, { hotAddressRows: 20 });
      const compare = async () => {
        for (const tokenId of ["native", "0xtoken"]) {
          for (const limit of [1, 3, 200]) {
            const incoming = ADDRESSES.map((address) => ({ address, before: T0 + 30_000 }));
            const outgoing = ADDRESSES.map((address) => ({ address, after: T0 + 10_000 }));
            expect(await ledger.ledgerIncoming("ETH", tokenId, incoming, limit)).toEqual(
              await sqlite.ledgerIncoming("ETH", tokenId, incoming, limit),
            );
            expect(await ledger.ledgerOutgoing("ETH", tokenId, outgoing, limit)).toEqual(
              await sqlite.ledgerOutgoing("ETH", tokenId, outgoing, limit),
            );
          }
        }
      };
      await compare();
      const [days] = await admin.rows<{ n: number }>(
        `SELECT sum(rows) AS n FROM ${db}.ledger_hop_in_days WHERE hop_key = cityHash64('ETH', 'native', '0xhot')`,
      );
      expect(Number(days?.n)).toBeGreaterThan(20);

      // Rows written after the migration go through the new views.
      const later: LedgerTransfer[] = data.slice(0, 30).map((r, i) => ({ ...r, txHash: `0xnew${i}` }));
      expect(await ledger.putLedgerTransfers(later)).toBe(30);
      await sqlite.putLedgerTransfers(later);
      await compare();
      await ledger.close();
    } finally {
      await sqlite.close();
      await admin.command(`DROP DATABASE IF EXISTS ${db}`);
      await admin.close();
    }
  }

  it("carries a ledger written under migrations 1 and 2 to the hop-key tables with the same answers", async () => {
    await carryOver(null);
  }, 120_000);

  it("finishes migration 3 after a run killed between its drops and its version, with the same answers", async () => {
    // The incoming tables are gone, the outgoing ones not yet: the rerun copies only what is left.
    await carryOver(/DROP TABLE IF EXISTS \S+\.ledger_in_degree\b/);
  }, 120_000);

  it("finishes migration 3 after a run killed after its copies, before any drop", async () => {
    await carryOver(/INSERT INTO \S+\.ledger_hop_out_degree\b/);
  }, 120_000);

  it("never reads a row that shares an address's hop key but not its address", async () => {
    const ledger = await freshLedger(server, { hotAddressRows: 5 });
    const db = ledger.target.database;
    const admin = openChClient(ledger.target);
    try {
      const row: LedgerTransfer = {
        network: "ETH",
        txHash: "0xreal",
        logIndex: 0,
        tokenId: "native",
        from: "0xsrc",
        to: "0xa",
        amount: 1,
        occurredAt: T0,
        block: 1,
        valueUsd: null,
      };
      await ledger.putLedgerTransfers([row]);
      // A forged collision: rows filed under 0xa's hop key whose strings name another address,
      // another token and another network, in both directions.
      for (const [table, column] of [
        ["ledger_hop_in", "to_address"],
        ["ledger_hop_out", "from_address"],
      ] as const) {
        const key = column === "to_address" ? "'0xa'" : "'0xsrc'";
        await admin.command(
          `INSERT INTO ${db}.${table} (hop_key, network, tx_hash, log_index, token_id, from_address, to_address,
             amount, occurred_at, block_number, value_usd)
           VALUES (cityHash64('ETH', 'native', ${key}), 'ETH', '0xforged1', 0, 'native', '0xother', '0xother', '2', ${T0}, 2, NULL),
                  (cityHash64('ETH', 'native', ${key}), 'ETH', '0xforged2', 0, 'other', '0xsrc', '0xa', '3', ${T0}, 3, NULL),
                  (cityHash64('ETH', 'native', ${key}), 'TRX', '0xforged3', 0, 'native', '0xsrc', '0xa', '4', ${T0}, 4, NULL)`,
        );
      }
      const incoming = [{ address: "0xa", before: T0 + 1 }];
      const outgoing = [{ address: "0xsrc", after: T0 - 1 }];
      expect(await ledger.ledgerIncoming("ETH", "native", incoming, 10)).toEqual([row]);
      expect(await ledger.ledgerOutgoing("ETH", "native", outgoing, 10)).toEqual([row]);
      // A shared key over-counts the days: the address goes to the exact top-n path, same answer.
      await admin.command(
        `INSERT INTO ${db}.ledger_hop_in_days (hop_key, day, rows) VALUES (cityHash64('ETH', 'native', '0xa'), ${dayOf(T0)}, 1000)`,
      );
      await admin.command(
        `INSERT INTO ${db}.ledger_hop_out_days (hop_key, day, rows) VALUES (cityHash64('ETH', 'native', '0xsrc'), ${dayOf(T0)}, 1000)`,
      );
      expect(await ledger.ledgerIncoming("ETH", "native", incoming, 10)).toEqual([row]);
      expect(await ledger.ledgerOutgoing("ETH", "native", outgoing, 10)).toEqual([row]);
    } finally {
      await admin.close();
      await dropLedger(ledger);
    }
  }, 120_000);
});
