import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isKytError, type LedgerTransfer, type Store, type StoreOps } from "@openkyt/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ImportProgress, importFile, type LedgerWriter } from "../src/index.js";
import { balanced, counts, fixture, STORES } from "./import-fixtures.js";

const HASH_A = "0xca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb";
const HASH_B = "0x3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d";

/** Every ledger row the store holds for these hashes. */
async function rowsOf(store: Store, network: string, hashes: string[]): Promise<LedgerTransfer[]> {
  return (await Promise.all(hashes.map((h) => store.ledgerByTxHash(network, h)))).flat();
}

describe.each(STORES)("ledger import on the %s store", (_name, createStore) => {
  let store: Store;
  beforeEach(async () => {
    store = await createStore();
  });
  afterEach(async () => {
    await store.close();
  });

  it("imports the CSV: good rows kept, each broken row listed with its line and reason", async () => {
    const summary = await importFile(store, { kind: "ledger", file: fixture("ledger.csv") });
    expect(summary.format).toBe("csv");
    expect(counts(summary)).toEqual({
      rowsRead: 12,
      added: 4,
      updated: 0,
      unchanged: 0,
      duplicates: 1,
      skipped: 0,
      rejected: 7,
      delisted: 0,
    });
    expect(balanced(summary)).toBe(true);
    expect(summary.rejections.map((r) => [r.line, r.reason.split(":")[0]])).toEqual([
      [5, 'from "0xZZ00000000000000000000000000000000000000"'],
      [6, 'unknown network "DOGE"'],
      [7, 'amount "-5" is not a non-negative number'],
      [8, 'occurred_at "2024-13-01" is not a real date'],
      [9, "occurred_at is missing"],
      [12, 'token_id "USDT" must be native or a contract address'],
      [13, 'occurred_at "1709294400" is before 2009'],
    ]);
    const [usdt] = await store.ledgerByTxHash("ETH", HASH_B);
    expect(usdt).toEqual({
      network: "ETH",
      txHash: HASH_B,
      logIndex: 3,
      tokenId: "0xdac17f958d2ee523a2206206994597c13d831ec7",
      from: "0x0000000000000000000000000000000000000002",
      to: "0x0000000000000000000000000000000000000003",
      amount: 250.25,
      occurredAt: 1709294400000,
      block: 19000001,
      valueUsd: 250.25,
    });
    const [tron] = await store.ledgerByTxHash(
      "TRX",
      "2e7d2c03a9507ae265ecf5b5356885a53393a2029d241394997265a1a25aefc6",
    );
    expect(tron).toMatchObject({
      from: "TV6MuMXfmLbBqPZvBHdwFsDnQeVfnmiuSi",
      occurredAt: Date.parse("2022-04-17T06:15:03Z"),
    });
    const [quoted] = await store.ledgerByTxHash(
      "ETH",
      "0xde7d1b721a1e0632b7cf04edf5032c8ecffa9f9a08492152b926f1a5a7e765d7",
    );
    expect(quoted).toMatchObject({ logIndex: 1, amount: 2.5, block: 19000002, valueUsd: null });
  });

  it("adds nothing on a second import of the same file", async () => {
    await importFile(store, { kind: "ledger", file: fixture("ledger.csv") });
    const again = await importFile(store, { kind: "ledger", file: fixture("ledger.csv") });
    expect(counts(again)).toMatchObject({ added: 0, unchanged: 4, duplicates: 1, rejected: 7 });
    expect(await rowsOf(store, "ETH", [HASH_A, HASH_B])).toHaveLength(2);
  });

  it("imports JSON lines, with rows already stored counted as unchanged", async () => {
    await importFile(store, { kind: "ledger", file: fixture("ledger.csv") });
    const summary = await importFile(store, { kind: "ledger", file: fixture("ledger.jsonl") });
    expect(summary.format).toBe("jsonl");
    expect(counts(summary)).toMatchObject({ rowsRead: 6, added: 2, unchanged: 1, rejected: 3 });
    expect(summary.rejections.map((r) => [r.line, r.reason])).toEqual([
      [5, "not a JSON object"],
      [6, "to is missing"],
      [7, "not a JSON object"],
    ]);
    const [btc] = await store.ledgerByTxHash(
      "BTC",
      "1b16b1df538ba12dc3f97edbb85caa7050d46c148134290feba80f8236c83db9",
    );
    expect(btc).toMatchObject({
      tokenId: "native",
      amount: 0.05,
      occurredAt: Date.parse("2024-03-03T08:30:00.250Z"),
    });
  });

  it("imports the Tronscan TRC-20 export: amounts scaled by decimals, failed transfers skipped", async () => {
    const summary = await importFile(store, { kind: "ledger", file: fixture("tronscan-trc20.csv") });
    expect(summary.format).toBe("tronscan-trc20");
    expect(counts(summary)).toMatchObject({ rowsRead: 6, added: 3, duplicates: 1, skipped: 1, rejected: 1 });
    expect(summary.skippedBy).toEqual({ "contract_return REVERT": 1 });
    expect(summary.rejections[0]?.reason).toBe('amount "12.5" is not a whole number of base units');
    const rows = await store.ledgerOutgoing(
      "TRX",
      "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
      [{ address: "TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFg", after: 0 }],
      10,
    );
    expect(rows.map((r) => [r.amount, r.occurredAt])).toEqual([
      [65.29, 1650176103000],
      [0.000007, 1650176300000],
    ]);
  });

  it("keeps a negative log_index (position in the block unknown) from CSV and JSON lines", async () => {
    const dir = await mkdtemp(join(tmpdir(), "openkyt-ledger-"));
    try {
      const from = `0x${"a".repeat(40)}`;
      const to = `0x${"b".repeat(40)}`;
      const csv = join(dir, "ledger.csv");
      await writeFile(
        csv,
        [
          "network,tx_hash,log_index,token_id,from,to,amount,occurred_at,block",
          `ETH,${HASH_A},-1,native,${from},${to},1,1709294400000,19000001`,
          `ETH,${HASH_A},-2,native,${from},${to},2,1709294400000,19000001`,
          `ETH,${HASH_A}, -3 ,native,${from},${to},3,1709294400000,19000001`,
          `ETH,${HASH_A},-1.5,native,${from},${to},4,1709294400000,19000001`,
          `ETH,${HASH_A},--1,native,${from},${to},5,1709294400000,19000001`,
        ].join("\n"),
      );
      const fromCsv = await importFile(store, { kind: "ledger", file: csv });
      expect(counts(fromCsv)).toMatchObject({ rowsRead: 5, added: 3, rejected: 2 });
      expect(fromCsv.rejections.map((r) => [r.line, r.reason])).toEqual([
        [5, 'log_index "-1.5" is not an integer'],
        [6, 'log_index "--1" is not an integer'],
      ]);
      const jsonl = join(dir, "ledger.jsonl");
      const row = {
        network: "ETH",
        tx_hash: HASH_B,
        token_id: "native",
        from,
        to,
        occurred_at: 1709294400000,
      };
      await writeFile(
        jsonl,
        [
          JSON.stringify({ ...row, log_index: -1, amount: 1 }),
          JSON.stringify({ ...row, log_index: "-2", amount: 2 }),
        ].join("\n"),
      );
      const fromJsonl = await importFile(store, { kind: "ledger", file: jsonl });
      expect(counts(fromJsonl)).toMatchObject({ rowsRead: 2, added: 2, rejected: 0 });
      const stored = await rowsOf(store, "ETH", [HASH_A, HASH_B]);
      expect(stored.map((r) => [r.txHash === HASH_A ? "A" : "B", r.logIndex, r.amount]).sort()).toEqual([
        ["A", -1, 1],
        ["A", -2, 2],
        ["A", -3, 3],
        ["B", -1, 1],
        ["B", -2, 2],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("writes in batches, one transaction each, and reports progress", async () => {
    const dir = await mkdtemp(join(tmpdir(), "openkyt-ledger-"));
    try {
      const file = join(dir, "ledger.csv");
      const lines = ["network,tx_hash,log_index,token_id,from,to,amount,occurred_at"];
      for (let i = 0; i < 12_000; i++) {
        const hash = `0x${i.toString(16).padStart(64, "0")}`;
        const to = `0x${(i % 97).toString(16).padStart(40, "0")}`;
        lines.push(`ETH,${hash},0,native,0x${"1".repeat(40)},${to},${i / 100},${1_700_000_000_000 + i}`);
      }
      await writeFile(file, `${lines.join("\n")}\n`);
      const batches: number[] = [];
      const progress: ImportProgress[] = [];
      let reportsBeforeFinish = -1;
      const writer: LedgerWriter = {
        write: async (rows) => {
          batches.push(rows.length);
          await store.transaction((tx) => tx.putLedgerTransfers(rows));
        },
        finish: async () => {
          reportsBeforeFinish = progress.length;
          return batches.reduce((a, b) => a + b, 0);
        },
        abort: async () => {},
      };
      const summary = await importFile(store, {
        kind: "ledger",
        file,
        ledgerWriter: writer,
        onProgress: (p) => progress.push(p),
      });
      expect(batches).toEqual([5000, 5000, 2000]);
      expect(summary.added).toBe(12_000);
      expect(progress.length).toBeGreaterThan(1);
      // The finishing phase is reported once, before the writer's finish, with the final position.
      expect(reportsBeforeFinish).toBe(progress.length);
      expect(progress.at(-1)).toEqual({
        phase: "finishing",
        rowsRead: 12_000,
        bytesRead: summary.bytesRead,
        totalBytes: summary.bytesRead,
      });
      expect(progress.slice(0, -1).every((p) => p.phase === "reading")).toBe(true);
      expect(summary.readingMs).toBeGreaterThan(0);
      expect(summary.readingMs).toBeLessThanOrEqual(summary.durationMs);
      const rowsReadSeen = progress.map((p) => p.rowsRead);
      expect(rowsReadSeen).toEqual([...rowsReadSeen].sort((a, b) => a - b));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("loads through the store's bulk load when it has one, else a batch at a time through the port", async () => {
    let loads = 0;
    const bulk: Store = {
      ...store,
      bulkLedgerWriter: async () => {
        loads++;
        const load = await store.bulkLedgerWriter?.();
        if (!load) throw new Error("both test stores have a bulk ledger load");
        return load;
      },
    };
    const viaBulk = await importFile(bulk, { kind: "ledger", file: fixture("ledger.csv") });
    expect(loads).toBe(1);
    expect(counts(viaBulk)).toMatchObject({ added: 4, duplicates: 1, rejected: 7 });
    let batches = 0;
    const counted = (ops: StoreOps): StoreOps => ({
      ...ops,
      putLedgerTransfers: (rows) => {
        batches++;
        return ops.putLedgerTransfers(rows);
      },
    });
    const portOnly: Store = {
      ...store,
      ...counted(store),
      bulkLedgerWriter: undefined,
      transaction: (fn) => store.transaction((tx) => fn(counted(tx))),
    };
    const viaPort = await importFile(portOnly, { kind: "ledger", file: fixture("ledger.csv") });
    expect(batches).toBe(1);
    expect(counts(viaPort)).toMatchObject({ added: 0, unchanged: 4, duplicates: 1, rejected: 7 });
    expect(await rowsOf(store, "ETH", [HASH_A, HASH_B])).toHaveLength(2);
  });

  it("counts a row as a duplicate only when network, hash and log index all repeat in the batch", async () => {
    const dir = await mkdtemp(join(tmpdir(), "openkyt-ledger-"));
    try {
      const file = join(dir, "ledger.csv");
      const row = (network: string, hash: string, logIndex: number) =>
        `${network},${hash},${logIndex},native,0x${"1".repeat(40)},0x${"2".repeat(40)},1,1709294400000`;
      const lines = [
        "network,tx_hash,log_index,token_id,from,to,amount,occurred_at",
        row("ETH", HASH_A, 0),
        row("ETH", HASH_A, 1),
        row("BSC", HASH_A, 0),
        row("ETH", HASH_A, 0),
        row("ETH", HASH_B, 0),
        row("ETH", HASH_A, 1),
      ];
      await writeFile(file, `${lines.join("\n")}\n`);
      const summary = await importFile(store, { kind: "ledger", file });
      expect(counts(summary)).toMatchObject({ rowsRead: 6, added: 4, duplicates: 2 });
      expect((await store.ledgerByTxHash("ETH", HASH_A)).map((r) => r.logIndex)).toEqual([0, 1]);
      expect(await store.ledgerByTxHash("BSC", HASH_A)).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("fails cleanly on a missing file, a wrong header or an empty file, writing nothing", async () => {
    const attempts = [
      { file: fixture("no-such-file.csv"), code: "NOT_FOUND", message: "file not found" },
      {
        file: fixture("wrong-header.csv"),
        code: "VALIDATION_ERROR",
        message: "not a ledger file of a known format",
      },
      {
        file: fixture("empty.csv"),
        code: "VALIDATION_ERROR",
        message: "not a ledger file of a known format",
      },
      {
        file: fixture("labels.csv"),
        code: "VALIDATION_ERROR",
        message: "not a ledger file of a known format",
      },
    ];
    for (const attempt of attempts) {
      const failure = await importFile(store, { kind: "ledger", file: attempt.file }).catch(
        (e: unknown) => e,
      );
      expect(isKytError(failure, attempt.code as "NOT_FOUND")).toBe(true);
      expect((failure as Error).message).toContain(attempt.file);
      expect((failure as Error).message).toContain(attempt.message);
    }
    const named = await importFile(store, {
      kind: "ledger",
      file: fixture("wrong-header.csv"),
      format: "csv",
    }).catch((e: unknown) => e);
    expect((named as Error).message).toContain("the header lacks network, tx_hash");
    expect(await store.ledgerByTxHash("ETH", HASH_A)).toEqual([]);
  });
});
