/**
 * The change log's upkeep as `openkyt follow --ledger clickhouse://...` runs it: at start it drops
 * the days past the retention (and reports them), a sharded URL without its shards is reported
 * and left alone, and a retention under a day is refused. Skips without a clickhouse-server.
 */
import { KytError } from "@openkyt/core";
import {
  type LocalClickHouse,
  openChClient,
  openClickHouseLedgerUrl,
  parseClickHouseUrl,
  startLocalClickHouse,
} from "@openkyt/ledger-clickhouse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLICKHOUSE_MISSING } from "../../ledger-clickhouse/test/ch-test-server.js";
import { startChangesUpkeep } from "../src/ledger-changes-upkeep.js";

describe.skipIf(CLICKHOUSE_MISSING !== null)("the change log upkeep of openkyt follow", () => {
  let server: LocalClickHouse;
  beforeAll(async () => {
    server = await startLocalClickHouse();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("drops the days past the retention at start and reports them", async () => {
    const url = server.ledgerUrl("cli_upkeep");
    await (await openClickHouseLedgerUrl(url)).close();
    const admin = openChClient(parseClickHouseUrl(url));
    const count = async () =>
      Number(
        (await admin.rows<{ n: number | string }>("SELECT count() AS n FROM cli_upkeep.ledger_changes"))[0]
          ?.n,
      );
    try {
      await admin.command(
        `INSERT INTO cli_upkeep.ledger_changes (stored_at, network, tx_hash)
         SELECT now() - 3 * 86400, 'ETH', '0xold' UNION ALL SELECT now(), 'ETH', '0xnew'`,
      );
      const lines: string[] = [];
      await expect(
        startChangesUpkeep(url, { retentionDays: 0, report: (l) => lines.push(l) }),
      ).rejects.toThrow(KytError);
      const kept = await startChangesUpkeep(url, { retentionDays: 5, report: (l) => lines.push(l) });
      await kept.first;
      await kept.stop();
      expect(await count()).toBe(2);
      const upkeep = await startChangesUpkeep(url, { retentionDays: 2, report: (l) => lines.push(l) });
      await upkeep.first;
      await upkeep.stop();
      await upkeep.stop();
      expect(await count()).toBe(1);
      expect(lines).toEqual([expect.stringMatching(/dropped 1 day\(s\) older than 2 days/)]);

      const sharded: string[] = [];
      const none = await startChangesUpkeep(server.ledgerUrl("cli_upkeep", "no_such_cluster"), {
        report: (l) => sharded.push(l),
      });
      await none.stop();
      expect(sharded).toEqual([expect.stringMatching(/lists no shards=/)]);
    } finally {
      await admin.command("DROP DATABASE IF EXISTS cli_upkeep");
      await admin.close();
    }
  }, 60_000);
});
