/**
 * `openkyt import ledger` of Bitcoin data: a getblock 3 answer and Esplora objects (recognised
 * from their first line), and a raw block with its undo file (--undo), into a SQLite file; the
 * summary counts blocks, inputs, outputs and outputs without an address, and a rejected
 * transaction is listed with its file, line and reason. The summary counts the clustering and
 * lists a cluster holding two labelled entities (a conflict, also a warning line on stderr);
 * --no-clustering merges nothing.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bitcoinParams, blocksOfFiles } from "@openkyt/chain-bitcoin";
import { inputAddressesOf } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runInProcess } from "./cli-process.js";

const repoFile = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const CORE = repoFile("packages/datasets/test/fixtures/bitcoin-core.jsonl");
const ESPLORA = repoFile("packages/datasets/test/fixtures/esplora.jsonl");
const BLOCK = repoFile("packages/chain-bitcoin/test/fixtures/block300025.raw");
const UNDO = repoFile("packages/chain-bitcoin/test/fixtures/block300025-undo.raw");

let dir = "";
let db = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "openkyt-import-utxo-"));
  db = join(dir, "kyt.db");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("openkyt import ledger, Bitcoin formats", () => {
  it("imports a getblock 3 answer and the same block from Esplora: the second adds nothing", async () => {
    const core = await runInProcess(["import", "ledger", CORE, "--db", db]);
    expect(core.code).toBe(0);
    expect(core.out).toContain("2 rows read, 2 added");
    expect(core.out).toContain(
      "1 blocks, 2 inputs, 4 outputs in the transactions taken; 1 outputs pay no address (OP_RETURN, bare multisig, non-standard: kept, address null)",
    );
    const esplora = await runInProcess(["import", "ledger", ESPLORA, "--db", db, "--json"]);
    expect(JSON.parse(esplora.out)).toMatchObject({ format: "esplora", rowsRead: 2, added: 0, unchanged: 2 });
    const store = await createSqliteStore({ filename: db });
    try {
      const [tx] = await store.utxoTransactions("BTC", ["2".repeat(64)]);
      expect(tx?.outputs.map((o) => o.value)).toEqual([20_000_000, 29_990_000]);
    } finally {
      await store.close();
    }
  });

  it("imports a raw block with --undo and lists a rejected transaction with its line", async () => {
    const blocks = await runInProcess(["import", "ledger", BLOCK, "--undo", UNDO, "--db", db, "--json"]);
    expect(blocks.code).toBe(0);
    expect(JSON.parse(blocks.out)).toMatchObject({
      format: "bitcoin-blocks",
      rowsRead: 461,
      added: 461,
      utxo: { blocks: 1, inputs: 1428, outputs: 1226 },
    });
    const bad = join(dir, "bad.jsonl");
    const { readFile } = await import("node:fs/promises");
    await writeFile(
      bad,
      (await readFile(CORE, "utf8")).replace('"value":0.20000000', '"value":0.2000000001'),
    );
    const run = await runInProcess(["import", "ledger", bad, "--format", "bitcoin-core", "--db", db]);
    expect(run.out).toMatch(
      /rejected .*bad\.jsonl:1: 2{64}: tx\[1\]\.vout\[0\]\.value is not an amount in coins/,
    );
  });

  it("prints the clustering and a conflict; --no-clustering merges nothing, a re-run merges the same clusters", async () => {
    const off = await runInProcess([
      "import",
      "ledger",
      BLOCK,
      "--undo",
      UNDO,
      "--db",
      db,
      "--no-clustering",
    ]);
    expect(off.code).toBe(0);
    expect(off.out).toContain("clustering off (--no-clustering): no address cluster merged");
    // Two input addresses of one transaction of the block, labelled as two different entities.
    const [block] = [
      ...blocksOfFiles(new Uint8Array(readFileSync(BLOCK)), new Uint8Array(readFileSync(UNDO)), {
        params: bitcoinParams("BTC", "main"),
      }),
    ];
    if (!block || "problem" in block) throw new Error("the fixture block did not decode");
    const joint = block.transactions.map(inputAddressesOf).find((a) => a.length >= 2) ?? [];
    const [first, second] = joint as [string, string];
    const store = await createSqliteStore({ filename: db });
    try {
      expect(await store.addressClusters("BTC", [first, second])).toEqual([]);
      await store.putAttributions([
        {
          network: "BTC",
          address: first,
          entityName: "Exchange A",
          entityCategory: "exchange",
          source: "test",
        },
        {
          network: "BTC",
          address: second,
          entityName: "Market B",
          entityCategory: "darknet_market",
          source: "test",
        },
      ]);
    } finally {
      await store.close();
    }
    const on = await runInProcess(["import", "ledger", BLOCK, "--undo", UNDO, "--db", db]);
    expect(on.code).toBe(0);
    expect(on.out).toMatch(
      /clusters: [\d,]+ transactions joined their input addresses, [1-9][\d,]* unions, \d+ CoinJoins left out( \([^)]*\))?, 1 conflicts/,
    );
    expect(on.out).toMatch(
      /conflict: BTC address cluster \w+ holds 2 labelled entities: Exchange A \(exchange, \w+\), Market B \(darknet_market, \w+\)/,
    );
    expect(on.err).toContain("openkyt import: warning: BTC address cluster");
    const again = await runInProcess(["import", "ledger", BLOCK, "--undo", UNDO, "--db", db, "--json"]);
    expect(JSON.parse(again.out)).toMatchObject({ unchanged: 461, utxo: { clustering: { unions: 0 } } });
    expect(JSON.parse(again.out).utxo.clustering.conflicts).toHaveLength(1);
  });

  it("refuses --net outside ledger imports and an unknown network", async () => {
    expect((await runInProcess(["import", "labels", CORE, "--net", "test", "--db", db])).code).toBe(2);
    const ltc = await runInProcess(["import", "ledger", CORE, "--network", "DOGE", "--db", db]);
    expect(ltc.code).not.toBe(0);
    expect(ltc.err).toContain('a UTXO ledger is BTC or LTC, not "DOGE"');
  });
});

const BITFINEX = repoFile("packages/cli/demo-data/bitfinex-2016-hack-receivers.csv");
/** The shared data folder beside the project (or OPENKYT_SHARED_DATA), as the real-data tests find it. */
const SHARED = process.env.OPENKYT_SHARED_DATA ?? repoFile("../shared/data");
const BITFINEX_SOURCE = join(SHARED, "bitcoin/bitfinex-2016-hack/bitfinex_tx_dataset.csv");

describe("the Bitfinex 2016 hack receivers", () => {
  it("import as 2,072 stolen_funds labels on BTC, whose theft amounts sum to 119,756.62 BTC", async () => {
    const run = await runInProcess(["import", "labels", BITFINEX, "--db", db, "--json"]);
    expect(JSON.parse(run.out)).toMatchObject({ format: "csv", rowsRead: 2072, added: 2072, rejected: 0 });
    const { readFile } = await import("node:fs/promises");
    const rows = (await readFile(BITFINEX, "utf8"))
      .trim()
      .split(/\r?\n/)
      .slice(1)
      .map((l) => l.split(","));
    const sats = rows.reduce((sum, r) => {
      const [whole, frac = ""] = (r[6] as string).split(".");
      return sum + BigInt(whole as string) * 100_000_000n + BigInt(frac.padEnd(8, "0"));
    }, 0n);
    expect(sats).toBe(11_975_662_032_288n);
    const store = await createSqliteStore({ filename: db });
    try {
      const first = rows[0]?.[1] as string;
      const found = await store.getAttributions("BTC", [first]);
      expect(found).toEqual([
        expect.objectContaining({
          address: first,
          entityName: "Bitfinex hack 2016",
          entityCategory: "stolen_funds",
        }),
      ]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!existsSync(BITFINEX_SOURCE))(
    "hold exactly the receivers of the source data set (when ../shared is there)",
    async () => {
      const { readFile } = await import("node:fs/promises");
      const source = (await readFile(BITFINEX_SOURCE, "utf8"))
        .trim()
        .split(/\r?\n/)
        .slice(1)
        .map((l) => l.split(","));
      const ours = (await readFile(BITFINEX, "utf8"))
        .trim()
        .split(/\r?\n/)
        .slice(1)
        .map((l) => l.split(","));
      const key = (txid: string, to: string, amount: string) => `${txid} ${to} ${amount}`;
      expect(new Set(ours.map((r) => key(r[5] as string, r[1] as string, r[6] as string)))).toEqual(
        new Set(source.map((r) => key(r[0] as string, r[2] as string, r[3] as string))),
      );
    },
  );
});
