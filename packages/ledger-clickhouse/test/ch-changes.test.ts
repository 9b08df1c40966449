/**
 * The change log's upkeep (ch-changes.ts, ch-changes-upkeep.ts): a follower's catch-up reads
 * only the rows its marks have not given yet (a quiet ledger's, none), the rest of a transaction
 * stored in the same second is read all the same, and the retention upkeep drops old days while
 * a follower that lagged past it drops its hubs instead of missing a row. The two-shard path is
 * in ch-distributed.test.ts.
 */
import {
  compareLedgerTransfers,
  createHubCachedLedger,
  type IncomingQuery,
  KytError,
  type LedgerChangesMark,
  type LedgerTransfer,
} from "@openkyt/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ChangesReadStats,
  type ClickHouseLedger,
  dropExpiredChanges,
  type LocalClickHouse,
  openChClient,
  startLocalClickHouse,
} from "../src/index.js";
import { CLICKHOUSE_MISSING, dropLedger, freshLedger } from "./ch-test-server.js";

const BASE = Date.UTC(2024, 0, 1);
const HUB = "0xhub";
const ALL: IncomingQuery[] = [{ address: HUB, before: BASE + 10_000_000 }];
const DAY = 86_400_000;

/** `count` rows into the hub, transactions `0x<tag><i>`, from `at` on. */
function rows(tag: string, count: number, at: number, logIndex = 0): LedgerTransfer[] {
  return Array.from({ length: count }, (_, i) => ({
    network: "ETH",
    txHash: `0x${tag}${i.toString(16).padStart(4, "0")}`,
    logIndex,
    tokenId: "native",
    from: `0xs${i % 23}`,
    to: HUB,
    amount: i + 0.5,
    occurredAt: BASE + at + i * 1_000,
    block: 100 + i,
    valueUsd: null,
  }));
}

const sorted = (list: ReadonlyArray<LedgerTransfer>) => [...list].sort(compareLedgerTransfers);

/** Runs `sql` on the ledger's server. */
async function run(ledger: ClickHouseLedger, sql: string): Promise<void> {
  const admin = openChClient(ledger.target);
  try {
    await admin.command(sql);
  } finally {
    await admin.close();
  }
}

describe.skipIf(CLICKHOUSE_MISSING !== null)("the ClickHouse change log's upkeep", () => {
  let server: LocalClickHouse;
  beforeAll(async () => {
    server = await startLocalClickHouse();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("reads no rows per catch-up of a quiet ledger, where a follower without its marks reads the overlap's", async () => {
    const reads: ChangesReadStats[] = [];
    const ledger = await freshLedger(server, { onChangesRead: (s) => reads.push(s) });
    try {
      await ledger.putLedgerTransfers(rows("a", 100, 0));
      const cached = await createHubCachedLedger(ledger, ledger, { minRows: 16, maxLagMs: 60_000 });
      expect(await cached.ledgerIncoming("ETH", "native", ALL, 10_000)).toHaveLength(100);
      await ledger.appendLedgerTransfers(rows("b", 20, 500_000));

      // After the load, one catch-up reads its whole overlap again (the hub's tables may show a
      // row later than its change): the 100 loaded rows and the 20 new; then nothing at all.
      reads.length = 0;
      expect(await cached.catchUp()).toBe(20);
      for (let i = 0; i < 3; i++) expect(await cached.catchUp()).toBe(0);
      expect(reads.map((r) => r.rows)).toEqual([120, 0, 0, 0]);
      expect(reads.map((r) => r.pairs)).toEqual([120, 120, 120, 120]);

      // Before: a follower whose marks carry no memory reads the overlap's rows every time.
      reads.length = 0;
      let mark: LedgerChangesMark = (await ledger.ledgerChangesSince(null, 1_000)).next;
      for (let i = 0; i < 3; i++) mark = { at: (await ledger.ledgerChangesSince({ at: mark.at }, 1_000)).at };
      expect(reads.map((r) => r.rows)).toEqual([120, 120, 120]);

      // One more transaction: the next catch-up reads its row alone.
      await ledger.appendLedgerTransfers(rows("c", 1, 900_000));
      reads.length = 0;
      expect(await cached.catchUp()).toBe(1);
      expect(reads.map((r) => r.rows)).toEqual([1]);
      const held = await cached.ledgerIncoming("ETH", "native", ALL, 10_000);
      expect(held).toHaveLength(121);
      expect(sorted(held)).toEqual(sorted(await ledger.ledgerIncoming("ETH", "native", ALL, 10_000)));
      expect(cached.stats()).toMatchObject({ hubs: 1, loaded: 1 });
    } finally {
      await dropLedger(ledger);
    }
  }, 60_000);

  it("reads again a transaction whose other rows a later INSERT stored in the same second", async () => {
    const ledger = await freshLedger(server);
    try {
      let mark = (await ledger.ledgerChangesSince(null, 1_000)).next;
      let sameSecond = 0;
      for (let attempt = 0; attempt < 8 && sameSecond < 2; attempt++) {
        const [first] = rows(`s${attempt}`, 1, attempt * 10_000, 0) as [LedgerTransfer];
        const second: LedgerTransfer = { ...first, logIndex: 1, amount: 7 };
        await ledger.appendLedgerTransfers([first]);
        const a = await ledger.ledgerChangesSince(mark, 1_000);
        expect(a.rows?.filter((r) => r.txHash === first.txHash)).toEqual([first]);
        await ledger.appendLedgerTransfers([second]);
        const b = await ledger.ledgerChangesSince(a.next, 1_000);
        // The transaction again, both rows: its pair's count grew, or it has a second pair.
        expect(sorted(b.rows?.filter((r) => r.txHash === first.txHash) ?? [])).toEqual(
          sorted([first, second]),
        );
        mark = b.next;
        const admin = openChClient(ledger.target);
        const stamps = await admin.rows<{ s: number | string }>(
          `SELECT DISTINCT toUInt32(stored_at) AS s FROM ${ledger.target.database}.ledger_changes
           WHERE tx_hash = '${first.txHash}'`,
        );
        await admin.close();
        if (stamps.length === 1) sameSecond += 1;
      }
      // Both INSERTs landed in one second at least once (each pair takes a few ms).
      expect(sameSecond).toBeGreaterThan(0);
    } finally {
      await dropLedger(ledger);
    }
  }, 60_000);

  it("drops the days past the retention, and a follower that lagged past them drops its hubs", async () => {
    const ledger = await freshLedger(server);
    const db = ledger.target.database;
    try {
      await ledger.putLedgerTransfers(rows("a", 100, 0));
      // A follower whose catch-ups, from the switch on, start 9 days back (it lagged that long).
      let lagged = false;
      const follower = {
        ledgerChangesSince: (since: LedgerChangesMark | null, limit: number) =>
          ledger.ledgerChangesSince(lagged && since ? { at: since.at - 9 * DAY } : since, limit),
      };
      const cached = await createHubCachedLedger(ledger, follower, { minRows: 16, maxLagMs: 0 });
      expect(await cached.ledgerIncoming("ETH", "native", ALL, 10_000)).toHaveLength(100);

      // A row whose change was stamped 8.5 days ago, within the follower's lag: today's stamps
      // go, and the row's change is written back as of then.
      const [late] = rows("late", 1, 700_000) as [LedgerTransfer];
      await ledger.appendLedgerTransfers([late]);
      await run(ledger, `ALTER TABLE ${db}.ledger_changes DROP PARTITION toYYYYMMDD(now())`);
      await run(
        ledger,
        `INSERT INTO ${db}.ledger_changes (stored_at, network, tx_hash)
         SELECT now() - toUInt32(8.5 * 86400), 'ETH', '${late.txHash}'`,
      );
      await expect(dropExpiredChanges(ledger.target, { retentionDays: 0 })).rejects.toThrow(KytError);
      const outcome = await dropExpiredChanges(ledger.target, { retentionDays: 7 });
      expect(outcome[ledger.target.url]?.dropped).toHaveLength(1);
      // Idempotent: nothing left to drop.
      expect((await dropExpiredChanges(ledger.target))[ledger.target.url]).toEqual({
        dropped: [],
        horizon: null,
      });

      // The change is gone: reading the log alone, the follower would keep its hub and miss the
      // row. The horizon tells it: it drops its hubs and loads the hub again, row included.
      lagged = true;
      const after = await cached.ledgerIncoming("ETH", "native", ALL, 10_000);
      expect(after).toHaveLength(101);
      expect(after.some((r) => r.txHash === late.txHash)).toBe(true);
      expect(cached.stats()).toMatchObject({ hubs: 1, rows: 101, loaded: 2 });
      // A follower that lags less than the retention is answered as before.
      lagged = false;
      const recent = await ledger.ledgerChangesSince({ at: Date.now() - DAY }, 1_000);
      expect(recent.rows).not.toBeNull();
    } finally {
      await dropLedger(ledger);
    }
  }, 60_000);
});
