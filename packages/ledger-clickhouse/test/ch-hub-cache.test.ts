/**
 * A worker's hub cache over a ClickHouse ledger follows the change log (migration 6,
 * `ledgerChangesSince`): rows that another process stores reach a held hub within the cache's
 * lag, a row stored twice (a duplicate until ClickHouse merges) is held once, and a catch-up that
 * finds more transactions than it reads drops the hubs and answers as the ledger does. The
 * traces through the cache are compared with the ledger's own in the ledger conformance suite
 * (ch-ledger-conformance.test.ts, `hubCacheConformance`).
 */
import { execFileSync } from "node:child_process";
import {
  compareLedgerTransfers,
  createHubCachedLedger,
  type IncomingQuery,
  type LedgerTransfer,
} from "@openkyt/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ClickHouseLedger,
  type LocalClickHouse,
  openChClient,
  startLocalClickHouse,
} from "../src/index.js";
import { CLICKHOUSE_MISSING, dropLedger, freshLedger } from "./ch-test-server.js";

const BASE = Date.UTC(2024, 0, 1);
const HUB = "0xhub";
const ALL: IncomingQuery[] = [{ address: HUB, before: BASE + 10_000_000 }];

/** `count` rows into the hub, transactions `0x<tag><i>`, from `at` on. */
function rows(tag: string, count: number, at: number): LedgerTransfer[] {
  return Array.from({ length: count }, (_, i) => ({
    network: "ETH",
    txHash: `0x${tag}${i.toString(16).padStart(4, "0")}`,
    logIndex: 0,
    tokenId: "native",
    from: `0xs${i % 23}`,
    to: HUB,
    amount: i + 0.5,
    occurredAt: BASE + at + i * 1_000,
    block: 100 + i,
    valueUsd: null,
  }));
}

/**
 * Stores `batch` from another process: `node` posting JSONEachRow to the server's HTTP interface,
 * as any writer (an `openkyt follow`, an import elsewhere) does.
 */
function insertFromAnotherProcess(ledger: ClickHouseLedger, batch: ReadonlyArray<LedgerTransfer>): void {
  const query = `INSERT INTO ${ledger.target.database}.ledger_tx FORMAT JSONEachRow`;
  const body = batch
    .map((r) =>
      JSON.stringify({
        network: r.network,
        tx_hash: r.txHash,
        log_index: r.logIndex,
        token_id: r.tokenId,
        from_address: r.from,
        to_address: r.to,
        amount: String(r.amount),
        occurred_at: r.occurredAt,
        block_number: r.block,
        value_usd: null,
      }),
    )
    .join("\n");
  const script = `const chunks = [];
process.stdin.on("data", (c) => chunks.push(c)).on("end", async () => {
  const res = await fetch(process.env.CH_URL, { method: "POST", body: Buffer.concat(chunks) });
  if (!res.ok) { console.error(await res.text()); process.exit(1); }
});`;
  execFileSync(process.execPath, ["-e", script], {
    input: body,
    env: { ...process.env, CH_URL: `${ledger.target.url}/?query=${encodeURIComponent(query)}` },
  });
}

const sorted = (list: ReadonlyArray<LedgerTransfer>) => [...list].sort(compareLedgerTransfers);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(CLICKHOUSE_MISSING !== null)("hub cache over a ClickHouse ledger", () => {
  let server: LocalClickHouse;
  beforeAll(async () => {
    server = await startLocalClickHouse();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("sees rows another process stores within its lag, each once though stored twice", async () => {
    const ledger = await freshLedger(server);
    try {
      await ledger.putLedgerTransfers(rows("a", 100, 0));
      const cached = await createHubCachedLedger(ledger, ledger, { minRows: 16, maxLagMs: 300 });
      expect(await cached.ledgerIncoming("ETH", "native", ALL, 10_000)).toHaveLength(100);
      expect(cached.stats()).toMatchObject({ hubs: 1, rows: 100, loaded: 1 });

      // 30 new rows, and 10 held ones again: the server holds them twice until a merge.
      insertFromAnotherProcess(ledger, [...rows("b", 30, 500_000), ...rows("a", 10, 0)]);
      const admin = openChClient(ledger.target);
      const [raw] = await admin.rows<{ n: number | string }>(
        `SELECT count() AS n FROM ${ledger.target.database}.ledger_tx`,
      );
      await admin.close();
      expect(Number(raw?.n)).toBe(140);

      await sleep(400);
      const after = await cached.ledgerIncoming("ETH", "native", ALL, 10_000);
      expect(after).toHaveLength(130);
      expect(sorted(after)).toEqual(sorted(await ledger.ledgerIncoming("ETH", "native", ALL, 10_000)));
      expect(await cached.ledgerIncomingCounts?.("ETH", "native", ALL)).toEqual([130]);
      // Answered from the hub it held, caught up: not loaded again.
      expect(cached.stats()).toMatchObject({ hubs: 1, rows: 130, loaded: 1 });

      // The import paths stamp the change log too: a bulk load's INSERT ... SELECT, and the RowBinary ingest.
      const load = await ledger.bulkLedgerWriter();
      await load.write(rows("c", 5, 900_000));
      expect(await load.finish()).toBe(5);
      await ledger.ingestLedgerRows(rows("d", 7, 950_000));
      await sleep(400);
      expect(await cached.ledgerIncoming("ETH", "native", ALL, 10_000)).toHaveLength(142);
      expect(cached.stats()).toMatchObject({ rows: 142, loaded: 1 });
    } finally {
      await dropLedger(ledger);
    }
  }, 60_000);

  it("drops its hubs when more transactions were stored since its last catch-up than it reads", async () => {
    const ledger = await freshLedger(server);
    try {
      await ledger.putLedgerTransfers(rows("a", 50, 0));
      const cached = await createHubCachedLedger(ledger, ledger, { minRows: 16, maxLagMs: 0, maxChanges: 5 });
      expect(await cached.ledgerIncoming("ETH", "native", ALL, 10_000)).toHaveLength(50);
      await ledger.appendLedgerTransfers(rows("b", 20, 500_000));
      const after = await cached.ledgerIncoming("ETH", "native", ALL, 10_000);
      expect(sorted(after)).toEqual(sorted(await ledger.ledgerIncoming("ETH", "native", ALL, 10_000)));
      expect(after).toHaveLength(70);
      // Dropped, then loaded again whole by the read that found it missing.
      expect(cached.stats()).toMatchObject({ hubs: 1, rows: 70, loaded: 2 });
    } finally {
      await dropLedger(ledger);
    }
  }, 60_000);
});
