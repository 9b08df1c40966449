/**
 * Faults: a server that is slow (SIGSTOP) or down makes calls wait and retry, bounded, and fail
 * naming the server and the last error when it does not come back; an insert whose process is
 * SIGKILLed leaves only whole blocks, and after a retry every row of the batch is read exactly
 * once (duplicates removed by key).
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type LocalClickHouse,
  migrateClickHouseLedger,
  openChClient,
  openClickHouseLedger,
  parseClickHouseUrl,
  startLocalClickHouse,
  stopProcess,
} from "../src/index.js";
import { CLICKHOUSE_MISSING, dropLedger, freshLedger } from "./ch-test-server.js";
import { faultBatch } from "./fixtures/ch-fault-rows.js";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, "../../..");
const T0 = 1_704_067_200_000;

describe.skipIf(CLICKHOUSE_MISSING !== null)("ClickHouse ledger faults", () => {
  let server: LocalClickHouse;
  beforeAll(async () => {
    server = await startLocalClickHouse();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("waits for a stalled server and answers once it resumes", async () => {
    const ledger = await freshLedger(server, { retry: { requestTimeoutMillis: 1_000, totalMillis: 60_000 } });
    try {
      const row = faultBatch(1)[0];
      if (!row) throw new Error("no row");
      await ledger.putLedgerTransfers([row]);
      server.process.kill("SIGSTOP");
      const pending = ledger.ledgerIncoming("ETH", "native", [{ address: row.to, before: T0 + 1 }], 5);
      await new Promise((r) => setTimeout(r, 2_500));
      server.process.kill("SIGCONT");
      expect(await pending).toEqual([row]);
    } finally {
      server.process.kill("SIGCONT");
      await dropLedger(ledger);
    }
  }, 120_000);

  it("retries while a server is down, answers when it is back, and fails naming the error when it stays down", async () => {
    const dir = await mkdtemp(join(tmpdir(), "openkyt-clickhouse-restart-"));
    const first = await startLocalClickHouse({ dir });
    try {
      const target = parseClickHouseUrl(first.ledgerUrl("restart"));
      await migrateClickHouseLedger(target);
      const row = faultBatch(1)[0];
      if (!row) throw new Error("no row");
      const patient = openClickHouseLedger(target, { retry: { totalMillis: 120_000, maxDelayMillis: 500 } });
      await patient.putLedgerTransfers([row]);
      await stopProcess(first.process);

      const impatient = openClickHouseLedger(target, { retry: { totalMillis: 1_500 } });
      const failure = await impatient.ledgerByTxHash("ETH", row.txHash).catch((e: unknown) => e);
      expect(failure).toMatchObject({
        code: "STORE_ERROR",
        message: expect.stringMatching(/did not answer: query failed \d+ times .*ECONNREFUSED/),
      });
      await impatient.close();

      const pending = patient.ledgerByTxHash("ETH", row.txHash);
      await new Promise((r) => setTimeout(r, 1_000));
      const second = await startLocalClickHouse({ dir, httpPort: first.httpPort, tcpPort: first.tcpPort });
      try {
        expect(await pending).toEqual([row]);
      } finally {
        await patient.close();
        await second.stop();
      }
    } finally {
      await stopProcess(first.process);
      await rm(dir, { recursive: true, force: true });
    }
  }, 240_000);

  it("shows no partial block of a SIGKILLed insert after the retry: every row once", async () => {
    const ledger = await freshLedger(server);
    const admin = openChClient(ledger.target);
    const db = ledger.target.database;
    const rows = 300_000;
    const block = 10_000;
    try {
      const child = spawn(
        process.execPath,
        [
          "--conditions=source",
          "--import",
          "tsx",
          join(here, "fixtures/ch-insert-child.ts"),
          server.ledgerUrl(db),
          String(rows),
          String(block),
        ],
        { cwd: repoRoot, stdio: ["ignore", "pipe", "inherit"] },
      );
      const exited = new Promise<void>((r) => child.once("exit", () => r()));
      const count = async () =>
        Number((await admin.rows<{ n: number }>(`SELECT count() AS n FROM ${db}.ledger_tx`))[0]?.n ?? 0);
      // Kill it once some blocks have landed, while the rest of the body is still on its way.
      let landed = 0;
      const deadline = Date.now() + 120_000;
      while (landed === 0 && Date.now() < deadline && child.exitCode === null) {
        await new Promise((r) => setTimeout(r, 20));
        landed = await count();
      }
      child.kill("SIGKILL");
      await exited;
      // The server may still be parsing what it received before the kill (a RowBinary body
      // arrives faster than it is stored): wait until no INSERT of that body runs any more.
      const insertsRunning = async () =>
        Number(
          (
            await admin.rows<{ n: number }>(
              `SELECT count() AS n FROM system.processes WHERE query LIKE 'INSERT INTO ${db}.%'`,
            )
          )[0]?.n ?? 0,
        );
      while ((await insertsRunning()) > 0 && Date.now() < deadline + 120_000) {
        await new Promise((r) => setTimeout(r, 100));
      }
      const afterKill = await count();
      // Only whole blocks are visible: the rows of the INSERT land block by block, never in part.
      expect(afterKill % block).toBe(0);
      expect(afterKill).toBeLessThan(rows);

      // The retry: the same batch again, whole. Reads see every row exactly once.
      const batch = faultBatch(rows);
      await ledger.appendLedgerTransfers(batch);
      const [distinct] = await admin.rows<{ n: number; keys: number }>(
        `SELECT count() AS n, uniqExact(network, tx_hash, log_index) AS keys FROM ${db}.ledger_tx`,
      );
      expect(Number(distinct?.keys)).toBe(rows);
      expect(Number(distinct?.n)).toBe(rows + afterKill);
      const hop = await ledger.ledgerIncoming(
        "ETH",
        "native",
        [{ address: "0xdst7", before: T0 + rows * 1000 }],
        10_000,
      );
      const expected = batch.filter((r) => r.to === "0xdst7").reverse();
      expect(hop).toEqual(expected);
      const sample = batch[12_345];
      if (!sample) throw new Error("no sample");
      expect(await ledger.ledgerByTxHash("ETH", sample.txHash)).toEqual([sample]);
      // And after the merge the duplicates are gone from the parts too.
      await admin.command(`OPTIMIZE TABLE ${db}.ledger_tx FINAL`);
      expect(await count()).toBe(rows);
    } finally {
      await admin.close();
      await dropLedger(ledger);
    }
  }, 300_000);
});
