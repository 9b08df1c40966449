/**
 * A hop's counts keep what they learn for the read that follows (ch-hop-prefetch.ts): the read of
 * small addresses asks the server nothing more, and the answers are those of a ledger without
 * the prefetch and of SQLite, with unmerged duplicates, addresses at and just over the
 * prefetch's row limit, and a hot address.
 */
import type { IncomingQuery, LedgerTransfer, OutgoingQuery } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { BASE_TIME as T0 } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PREFETCH_ROWS } from "../src/ch-hop-prefetch.js";
import {
  type ClickHouseLedger,
  type LocalClickHouse,
  openChClient,
  openClickHouseLedger,
  startLocalClickHouse,
} from "../src/index.js";
import { CLICKHOUSE_MISSING, dropLedger, freshLedger } from "./ch-test-server.js";

/** Rows into `to` from `from`, one a second from `start`. */
function rowsTo(to: string, from: string, count: number, start: number, tag: string): LedgerTransfer[] {
  return Array.from({ length: count }, (_, i) => ({
    network: "ETH",
    txHash: `0x${tag}${i}`,
    logIndex: i % 2,
    tokenId: "native",
    from,
    to,
    amount: i + 1.5,
    occurredAt: start + i * 1000,
    block: i,
    valueUsd: null,
  }));
}

/**
 * Hop reads (statements on a hop table with a sort: the counts' statements have none) of
 * `ledger`'s database since `since` (seconds), by the server's log.
 */
async function hopReads(ledger: ClickHouseLedger, since: number): Promise<number> {
  const admin = openChClient(ledger.target);
  try {
    await admin.command("SYSTEM FLUSH LOGS");
    const [row] = await admin.rows<{ q: number | string }>(
      `SELECT count() AS q FROM system.query_log
       WHERE type = 2 AND query_start_time >= ${since}
         AND position(query, '${ledger.target.database}.ledger_hop_in') > 0 AND position(query, 'ORDER BY') > 0`,
    );
    return Number(row?.q ?? 0);
  } finally {
    await admin.close();
  }
}

describe.skipIf(CLICKHOUSE_MISSING !== null)("ClickHouse hop counts that serve the read after them", () => {
  let server: LocalClickHouse;
  let ledger: ClickHouseLedger;
  beforeAll(async () => {
    server = await startLocalClickHouse();
    ledger = await freshLedger(server, { hotAddressRows: 150 });
  }, 120_000);
  afterAll(async () => {
    if (ledger) await dropLedger(ledger);
    await server?.stop();
  });

  it("answers small addresses from the counts' rows, and every answer as without them", async () => {
    const rows = [
      ...rowsTo("0xsmall", "0xsrc", 10, T0, "s"),
      // Exactly the prefetch's limit, and one over it.
      ...rowsTo("0xedge", "0xsrc", PREFETCH_ROWS, T0, "e"),
      ...rowsTo("0xover", "0xsrc", PREFETCH_ROWS + 1, T0, "o"),
      // Over the limit only by its duplicates: counted on the server, read with the LIMIT BY.
      ...rowsTo("0xdup", "0xsrc2", 40, T0, "d"),
      // Hot (over hotAddressRows = 150).
      ...rowsTo("0xhot", "0xsrc2", 400, T0, "h"),
    ];
    await ledger.appendLedgerTransfers(rows);
    await ledger.appendLedgerTransfers(rows.filter((r) => r.to === "0xdup"));
    const sqlite = await createSqliteStore({ filename: ":memory:", migrate: true });
    const plain = openClickHouseLedger(ledger.target, { prefetch: false });
    const logged = openClickHouseLedger(ledger.target, { settings: { log_queries: 1 } });
    try {
      await sqlite.putLedgerTransfers(rows);
      const addresses = ["0xsmall", "0xedge", "0xover", "0xdup", "0xhot", "0xnone"];
      const incoming: IncomingQuery[] = addresses.map((address) => ({ address, before: T0 + 30_500 }));
      // An address listed twice with two bounds is counted for each (a hop's reads list each once).
      const twice: IncomingQuery[] = [...incoming, { address: "0xsmall", before: T0 + 5_000 }];
      const outgoing: OutgoingQuery[] = ["0xsrc", "0xsrc2", "0xnone"].map((address) => ({
        address,
        after: T0 + 2_000,
      }));
      for (const limit of [1, 7, 50, 1_000]) {
        // Counts as the rows SQLite holds before each bound (no cap is reached here).
        const whole = await sqlite.ledgerIncoming("ETH", "native", incoming, 10_000);
        expect(await logged.ledgerIncomingCounts?.("ETH", "native", twice)).toEqual(
          twice.map((q) => whole.filter((r) => r.to === q.address && r.occurredAt < q.before).length),
        );
        expect(await logged.ledgerIncoming("ETH", "native", incoming, limit)).toEqual(
          await sqlite.ledgerIncoming("ETH", "native", incoming, limit),
        );
        expect(await plain.ledgerIncoming("ETH", "native", incoming, limit)).toEqual(
          await sqlite.ledgerIncoming("ETH", "native", incoming, limit),
        );
        await logged.ledgerOutgoingCounts?.("ETH", "native", outgoing);
        expect(await logged.ledgerOutgoing("ETH", "native", outgoing, limit)).toEqual(
          await sqlite.ledgerOutgoing("ETH", "native", outgoing, limit),
        );
      }

      // Counted, then read: small addresses are not read again (a second of their own in the log).
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const since = Math.floor(Date.now() / 1000);
      const small = ["0xsmall", "0xedge", "0xnone"].map((address) => ({ address, before: T0 + 30_500 }));
      const expected = await sqlite.ledgerIncoming("ETH", "native", small, 5);
      await logged.ledgerIncomingCounts?.("ETH", "native", small);
      expect(await logged.ledgerIncoming("ETH", "native", small, 5)).toEqual(expected);
      expect(await hopReads(logged, since)).toBe(0);
      // Taken once: a second read goes to the server.
      expect(await logged.ledgerIncoming("ETH", "native", small, 5)).toEqual(expected);
      expect(await hopReads(logged, since)).toBeGreaterThan(0);
    } finally {
      await sqlite.close();
      await plain.close();
      await logged.close();
    }
  }, 120_000);
});
