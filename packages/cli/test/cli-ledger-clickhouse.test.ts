/**
 * `--ledger clickhouse://...`: `openkyt import ledger` writes the ledger into ClickHouse while the
 * SQLite `--db` keeps none of it (and drops the change log's expired days at its end), and
 * `openkyt serve` binds and checks a transfer from that ledger.
 * Skips without a clickhouse-server binary (fails under OPENKYT_REQUIRE_CLICKHOUSE=1).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type LocalClickHouse,
  openChClient,
  openClickHouseLedgerUrl,
  parseClickHouseUrl,
  startLocalClickHouse,
} from "@openkyt/ledger-clickhouse";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKytClient } from "../../client/src/index.js";
import { CLICKHOUSE_MISSING } from "../../ledger-clickhouse/test/ch-test-server.js";
import { exited, firstLine, runInProcess, start } from "./cli-process.js";

const ENV_KEY = { keyId: "ledger-key-01", secret: "ledger-secret-0123456789", account: "acme" };

describe.skipIf(CLICKHOUSE_MISSING !== null)("openkyt with --ledger clickhouse://", () => {
  let dir: string;
  let server: LocalClickHouse;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "openkyt-cli-ch-"));
    server = await startLocalClickHouse();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("imports the ledger into ClickHouse, not the --db store, and serve binds and checks from it", async () => {
    const ledgerUrl = server.ledgerUrl("cli_ledger");
    const db = join(dir, "state.db");
    const file = join(dir, "ledger.csv");
    const from = `0x${"12".repeat(20)}`;
    const to = `0x${"34".repeat(20)}`;
    const hash = `0x${"56".repeat(32)}`;
    await writeFile(
      file,
      `network,tx_hash,log_index,token_id,from,to,amount,occurred_at\nETH,${hash},0,native,${from},${to},1.5,2024-01-01T00:00:00Z\n`,
    );
    // A day of the change log stamped 9 days ago: the import drops it at its end (retention 7).
    await (await openClickHouseLedgerUrl(ledgerUrl)).close();
    const admin = openChClient(parseClickHouseUrl(ledgerUrl));
    await admin.command(
      "INSERT INTO cli_ledger.ledger_changes (stored_at, network, tx_hash) SELECT now() - 9 * 86400, 'ETH', '0xold'",
    );
    const imported = await runInProcess(["import", "ledger", file, "--db", db, "--ledger", ledgerUrl]);
    expect(imported.code, imported.err).toBe(0);
    expect(imported.err).toMatch(/change log upkeep: dropped 1 day\(s\) older than 7 days/);
    const changes = await admin.rows<{ tx_hash: string }>("SELECT tx_hash FROM cli_ledger.ledger_changes");
    await admin.close();
    expect(changes.map((c) => c.tx_hash)).toEqual([hash]);

    const ledger = await openClickHouseLedgerUrl(ledgerUrl);
    expect(await ledger.ledgerByTxHash("ETH", hash)).toMatchObject([{ from, to, amount: 1.5 }]);
    await ledger.close();
    const sqlite = await createSqliteStore({ filename: db, migrate: true });
    expect(await sqlite.ledgerByTxHash("ETH", hash)).toEqual([]);
    await sqlite.close();

    const refused = await runInProcess(["serve", "--warm", "--port", "0", "--db", db, "--ledger", ledgerUrl]);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/--warm/);
    expect((await runInProcess(["worker", "--db", db, "--ledger", "postgres://x/y"])).err).toMatch(
      /clickhouse:\/\//,
    );

    const serve = start(["serve", "--port", "0", "--db", db, "--ledger", ledgerUrl, "--json"], {
      OPENKYT_API_KEYS: `${ENV_KEY.keyId}:${ENV_KEY.secret}:${ENV_KEY.account}`,
    });
    try {
      const { url } = JSON.parse(await firstLine(serve)) as { url: string };
      const client = createKytClient({ baseUrl: url, keyId: ENV_KEY.keyId, secret: ENV_KEY.secret });
      const { id } = await client.registerTransfer({
        direction: "incoming",
        network: "ETH",
        tx_hash: hash,
        output_address: to,
      });
      const done = await client.waitUntilChecked(id, { timeoutMs: 30_000, intervalMs: 100 });
      expect(done).toMatchObject({ tx_status: "bound", amount: 1.5, risk_level: "none" });
      serve.kill("SIGTERM");
      expect(await exited(serve)).toBe(0);
    } finally {
      serve.kill("SIGKILL");
    }
  }, 180_000);
});
