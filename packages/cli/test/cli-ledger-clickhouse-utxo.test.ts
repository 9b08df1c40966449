/**
 * `openkyt import ledger --format bitcoin-core|esplora|bitcoin-blocks --ledger clickhouse://...`:
 * the UTXO transactions go to ClickHouse, none to the SQLite `--db`, while the address clusters
 * (screening state) are merged in SQLite; a re-run adds nothing. Skips without a
 * clickhouse-server binary (fails under OPENKYT_REQUIRE_CLICKHOUSE=1).
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bitcoinParams, blocksOfFiles } from "@openkyt/chain-bitcoin";
import { inputAddressesOf } from "@openkyt/core";
import {
  type LocalClickHouse,
  openClickHouseLedgerUrl,
  startLocalClickHouse,
} from "@openkyt/ledger-clickhouse";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLICKHOUSE_MISSING } from "../../ledger-clickhouse/test/ch-test-server.js";
import { runInProcess } from "./cli-process.js";

const repoFile = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const CORE = repoFile("packages/datasets/test/fixtures/bitcoin-core.jsonl");
const ESPLORA = repoFile("packages/datasets/test/fixtures/esplora.jsonl");
const BLOCK = repoFile("packages/chain-bitcoin/test/fixtures/block300025.raw");
const UNDO = repoFile("packages/chain-bitcoin/test/fixtures/block300025-undo.raw");

describe.skipIf(CLICKHOUSE_MISSING !== null)(
  "openkyt import ledger of Bitcoin data with --ledger clickhouse://",
  () => {
    let dir: string;
    let server: LocalClickHouse;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), "openkyt-cli-ch-utxo-"));
      server = await startLocalClickHouse();
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      await rm(dir, { recursive: true, force: true });
    });

    it("writes the transactions to ClickHouse and the clusters to the --db store", async () => {
      const ledgerUrl = server.ledgerUrl("cli_utxo");
      const db = join(dir, "state.db");
      /** `openkyt import ledger ...args` into the SQLite --db with the ledger in ClickHouse. */
      const importLedger = (...args: string[]) =>
        runInProcess(["import", "ledger", ...args, "--db", db, "--ledger", ledgerUrl, "--json"]);
      const core = await importLedger(CORE);
      expect(core.code, core.err).toBe(0);
      expect(JSON.parse(core.out)).toMatchObject({ format: "bitcoin-core", rowsRead: 2, added: 2 });
      const esplora = await importLedger(ESPLORA);
      expect(JSON.parse(esplora.out)).toMatchObject({ format: "esplora", added: 0, unchanged: 2 });
      const blocks = await importLedger(BLOCK, "--undo", UNDO);
      expect(blocks.code, blocks.err).toBe(0);
      const summary = JSON.parse(blocks.out);
      expect(summary).toMatchObject({ format: "bitcoin-blocks", rowsRead: 461, added: 461 });
      expect(summary.utxo.clustering.unions).toBeGreaterThan(0);

      const [block] = [
        ...blocksOfFiles(new Uint8Array(readFileSync(BLOCK)), new Uint8Array(readFileSync(UNDO)), {
          params: bitcoinParams("BTC", "main"),
        }),
      ];
      if (!block || "problem" in block) throw new Error("the fixture block did not decode");
      const joint = block.transactions.find((t) => inputAddressesOf(t).length >= 2);
      if (!joint) throw new Error("no transaction with two input addresses");
      const ledger = await openClickHouseLedgerUrl(ledgerUrl);
      const sqlite = await createSqliteStore({ filename: db });
      try {
        const [stored] = await ledger.utxoTransactions("BTC", [joint.txid]);
        expect(stored?.inputs).toEqual(joint.inputs);
        expect(stored?.outputs.map((o) => o.value)).toEqual(joint.outputs.map((o) => o.value));
        expect(await ledger.utxoTransactions("BTC", ["2".repeat(64)])).toHaveLength(1);
        expect(await sqlite.utxoTransactions("BTC", [joint.txid, "2".repeat(64)])).toEqual([]);
        const [a, b] = inputAddressesOf(joint) as [string, string];
        const clusters = await sqlite.addressClusters("BTC", [a, b]);
        expect(clusters).toHaveLength(2);
        expect(clusters[0]?.clusterId).toBe(clusters[1]?.clusterId);
      } finally {
        await ledger.close();
        await sqlite.close();
      }
      const again = await importLedger(BLOCK, "--undo", UNDO);
      expect(JSON.parse(again.out)).toMatchObject({ added: 0, unchanged: 461 });
    }, 300_000);
  },
);
