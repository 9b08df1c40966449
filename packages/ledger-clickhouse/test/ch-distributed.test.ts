/**
 * The sharded path: two server processes, a `remote_servers` cluster of both, the ledger's local
 * tables on each shard and `Distributed` tables on the entry server. Rows spread over both
 * shards, and the hops, the hash lookup, the counts of new rows and a bulk load answer as on one
 * server (checked against SQLite on the same rows); the change log's retention upkeep drops old
 * days on each shard, and a follower that lagged past it is told so through the entry.
 */
import { compareLedgerTransfers, type LedgerTransfer, type UtxoTransaction } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { makeUtxoTransaction, spend, BASE_TIME as T0 } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  dropExpiredChanges,
  freePort,
  LEDGER_MIGRATIONS,
  type LocalClickHouse,
  migrateClickHouseLedger,
  openChClient,
  openClickHouseLedger,
  parseClickHouseUrl,
  startLocalClickHouse,
  UTXO_MIGRATIONS,
} from "../src/index.js";
import { CLICKHOUSE_MISSING } from "./ch-test-server.js";

describe.skipIf(CLICKHOUSE_MISSING !== null)("ClickHouse ledger on two shards", () => {
  let shards: LocalClickHouse[] = [];
  beforeAll(async () => {
    const tcp = [await freePort(), await freePort()];
    const clusters = { ledger_two: tcp };
    shards = await Promise.all(tcp.map((tcpPort) => startLocalClickHouse({ tcpPort, clusters })));
  }, 180_000);
  afterAll(async () => {
    await Promise.all(shards.map((s) => s.stop()));
  });

  it("spreads rows over both shards and answers like one database", async () => {
    const [a, b] = shards as [LocalClickHouse, LocalClickHouse];
    const target = parseClickHouseUrl(a.ledgerUrl("sharded", "ledger_two"));
    const outcome = await migrateClickHouseLedger(target, {
      shards: [parseClickHouseUrl(a.ledgerUrl("sharded")), parseClickHouseUrl(b.ledgerUrl("sharded"))],
    });
    expect(outcome.applied[b.httpUrl]).toEqual(
      [...LEDGER_MIGRATIONS, ...UTXO_MIGRATIONS].map((m) => m.version),
    );
    const ledger = openClickHouseLedger(target);
    const sqlite = await createSqliteStore({ filename: ":memory:", migrate: true });
    try {
      const rows: LedgerTransfer[] = Array.from({ length: 400 }, (_, i) => ({
        network: "ETH",
        txHash: `0xt${i % 300}`,
        logIndex: i >= 300 ? 1 : 0,
        tokenId: "native",
        from: `0xf${i % 7}`,
        to: `0xh${i % 5}`,
        amount: i + 0.25,
        occurredAt: T0 + (i % 90) * 1000,
        block: i,
        valueUsd: null,
      }));
      const start = await ledger.ledgerChangesSince(null, 1_000);
      expect(await ledger.putLedgerTransfers(rows.slice(0, 250))).toBe(250);
      expect(await ledger.putLedgerTransfers(rows)).toBe(150);
      await sqlite.putLedgerTransfers(rows);
      // A bulk load through the entry server: only the new keys land.
      const load = await ledger.bulkLedgerWriter();
      const extra: LedgerTransfer = { ...(rows[0] as LedgerTransfer), txHash: "0xextra", to: "0xh1" };
      await load.write([rows[3] as LedgerTransfer, extra]);
      expect(await load.finish()).toBe(1);
      await sqlite.putLedgerTransfers([extra]);

      for (const shard of shards) {
        const local = openChClient(parseClickHouseUrl(shard.ledgerUrl("sharded")));
        const [count] = await local.rows<{ n: number }>("SELECT count() AS n FROM sharded.ledger_tx_local");
        // Migration 5 and entry version 1005 dropped the rows-per-hop-key tables, local and Distributed.
        const degrees = await local.rows<{ name: string }>(
          "SELECT name FROM system.tables WHERE database = 'sharded' AND name LIKE '%degree%'",
        );
        await local.close();
        expect(Number(count?.n)).toBeGreaterThan(100);
        expect(degrees).toEqual([]);
      }
      const incoming = ["0xh0", "0xh1", "0xh4"].map((address) => ({ address, before: T0 + 60_000 }));
      const outgoing = ["0xf0", "0xf6"].map((address) => ({ address, after: T0 + 10_000 }));
      expect(await ledger.ledgerIncoming("ETH", "native", incoming, 7)).toEqual(
        await sqlite.ledgerIncoming("ETH", "native", incoming, 7),
      );
      expect(await ledger.ledgerOutgoing("ETH", "native", outgoing, 9)).toEqual(
        await sqlite.ledgerOutgoing("ETH", "native", outgoing, 9),
      );
      expect(await ledger.ledgerByTxHash("ETH", "0xt7")).toEqual(await sqlite.ledgerByTxHash("ETH", "0xt7"));
      // The change log of migration 6 on both shards, read through the entry's Distributed table.
      const changed = await ledger.ledgerChangesSince(start.next, 1_000);
      expect([...(changed.rows ?? [])].sort(compareLedgerTransfers)).toEqual(
        [...rows, extra].sort(compareLedgerTransfers),
      );
      // Its mark remembers what it gave: nothing stored since, no rows read again.
      expect((await ledger.ledgerChangesSince(changed.next, 1_000)).rows).toEqual([]);

      // The retention upkeep on each shard: a day of changes stamped 10 days ago on both is
      // dropped (the days of today stay), the horizon recorded on each, and a follower whose
      // window starts before it is told to drop its hubs through the entry's Distributed table.
      for (const shard of shards) {
        const local = openChClient(parseClickHouseUrl(shard.ledgerUrl("sharded")));
        await local.command(
          `INSERT INTO sharded.ledger_changes_local (stored_at, network, tx_hash)
           SELECT now() - 10 * 86400, 'ETH', '0xold'`,
        );
        await local.close();
      }
      const upkeep = await dropExpiredChanges(target, {
        retentionDays: 7,
        shards: [parseClickHouseUrl(a.ledgerUrl("sharded")), parseClickHouseUrl(b.ledgerUrl("sharded"))],
      });
      for (const shard of shards) {
        expect(upkeep[shard.httpUrl]?.dropped).toHaveLength(1);
        const local = openChClient(parseClickHouseUrl(shard.ledgerUrl("sharded")));
        const [old] = await local.rows<{ n: number | string }>(
          "SELECT count() AS n FROM sharded.ledger_changes_local WHERE tx_hash = '0xold'",
        );
        const [kept] = await local.rows<{ n: number | string }>(
          "SELECT count() AS n FROM sharded.ledger_changes_local",
        );
        await local.close();
        expect(Number(old?.n)).toBe(0);
        expect(Number(kept?.n)).toBeGreaterThan(0);
      }
      const lagging = await ledger.ledgerChangesSince({ at: changed.at - 9 * 86_400_000 }, 1_000);
      expect(lagging.rows).toBeNull();
      expect((await ledger.ledgerChangesSince({ at: changed.at }, 1_000)).rows).toHaveLength(rows.length + 1);
    } finally {
      await ledger.close();
      await sqlite.close();
    }
  }, 120_000);

  it("keeps the UTXO ledger on both shards and answers like SQLite, through a reorg", async () => {
    const [a] = shards as [LocalClickHouse, LocalClickHouse];
    // Migrated by the test above (same database): the UTXO Distributed tables exist on the entry.
    const ledger = openClickHouseLedger(parseClickHouseUrl(a.ledgerUrl("sharded", "ledger_two")));
    const sqlite = await createSqliteStore({ filename: ":memory:", migrate: true });
    try {
      const txs: UtxoTransaction[] = [];
      let prev = makeUtxoTransaction({ block: 100, position: 0, occurredAt: T0, outputs: [["U0", 50_000]] });
      txs.push(prev);
      for (let i = 1; i < 40; i++) {
        const next = makeUtxoTransaction({
          block: 100 + i,
          occurredAt: T0 + i * 600_000,
          inputs: [spend(prev.txid, 0, `U${(i - 1) % 4}`, 50_000 - (i - 1))],
          outputs: [
            [`U${i % 4}`, 50_000 - i],
            [null, 0],
          ],
        });
        txs.push(next);
        prev = next;
      }
      expect(await ledger.putUtxoTransactions(txs)).toBe(await sqlite.putUtxoTransactions(txs));
      const compare = async () => {
        const ids = txs.map((t) => t.txid);
        const byId = (x: { txid: string }, y: { txid: string }) => (x.txid < y.txid ? -1 : 1);
        expect([...(await ledger.utxoTransactions("BTC", ids))].sort(byId)).toEqual(
          [...(await sqlite.utxoTransactions("BTC", ids))].sort(byId),
        );
        const received = ["U0", "U1", "U3"].map((address) => ({ address, before: T0 + 30 * 600_000 }));
        expect(await ledger.utxoReceived("BTC", received, 4)).toEqual(
          await sqlite.utxoReceived("BTC", received, 4),
        );
        const sent = ["U1", "U2"].map((address) => ({ address, after: T0 }));
        expect(await ledger.utxoSpentFrom("BTC", sent, 5)).toEqual(
          await sqlite.utxoSpentFrom("BTC", sent, 5),
        );
      };
      await compare();
      expect(await ledger.deleteUtxoBlocksFrom("BTC", 120)).toBe(
        await sqlite.deleteUtxoBlocksFrom("BTC", 120),
      );
      await compare();
    } finally {
      await ledger.close();
      await sqlite.close();
    }
  }, 120_000);
});
