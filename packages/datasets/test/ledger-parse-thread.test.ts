/**
 * Ledger imports read on the parse thread against the same imports read inline: the same
 * summary, the same writer calls, the same stored rows, the same progress, the same errors.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Worker } from "node:worker_threads";
import { isKytError, type LedgerTransfer, type Store } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ImportOptions, type ImportProgress, importFile, type LedgerWriter } from "../src/index.js";
import { fixture } from "./import-fixtures.js";

/** Every parse thread started, to check that none outlives its import. */
const threads = vi.hoisted(() => [] as Array<{ worker: Worker; exited: boolean }>);
vi.mock("node:worker_threads", async (importOriginal) => {
  const original = await importOriginal<typeof import("node:worker_threads")>();
  class TrackedWorker extends original.Worker {
    constructor(...args: ConstructorParameters<typeof original.Worker>) {
      super(...args);
      const entry = { worker: this as Worker, exited: false };
      threads.push(entry);
      this.once("exit", () => {
        entry.exited = true;
      });
    }
  }
  return { ...original, Worker: TrackedWorker };
});

const TRON_ADDRESSES = ["TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFg", "TDX3tFFdWFwhBP7Cf5gJRpADpUNxQsys6m"];
const USDT_TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";

/** 64 hex digits derived from n. */
const hex64 = (n: number) => n.toString(16).padStart(64, "0");

/**
 * A ledger CSV with a bit of everything, over several batches: repeated rows, a hash repeated
 * with another log index, upper-case and padded values (taken through core), bad amounts, an
 * unknown network, a quoted record, TRX rows.
 */
function generatedCsv(rows: number): string {
  const lines = ["network,tx_hash,log_index,token_id,from,to,amount,occurred_at,block,value_usd"];
  for (let i = 0; i < rows; i++) {
    const hash = `0x${hex64(i % 7 === 3 ? i - 1 : i)}`;
    const from = `0x${(i % 50).toString(16).padStart(40, "0")}`;
    const to = `0x${(i % 37).toString(16).padStart(40, "a")}`;
    const at = 1_700_000_000_000 + i * 1000;
    if (i % 97 === 5) lines.push(`DOGE,${hash},0,native,${from},${to},1,${at},,`);
    else if (i % 89 === 7) lines.push(`ETH,${hash},0,native,${from},${to},-${i},${at},,`);
    else if (i % 83 === 9)
      lines.push(`ETH,${hash.toUpperCase().replace("0X", "0x")},1,native,${from}, ${to} ,2.5,${at},${i},`);
    else if (i % 79 === 11) lines.push(`"ETH","${hash}","2","native","${from}","${to}","3","${at}","",""`);
    else if (i % 71 === 13)
      lines.push(`TRX,${hex64(i)},0,${USDT_TRON},${TRON_ADDRESSES[0]},${TRON_ADDRESSES[1]},4,${at},,`);
    else
      lines.push(
        `ETH,${hash},${i % 11 === 4 ? 1 : 0},native,${from},${to},${i / 100},${at},${i},${i % 3 ? "" : i}`,
      );
  }
  return `${lines.join("\n")}\n`;
}

/** A Tronscan TRC-20 export with failed transfers (skipped) and bad quantities (rejected). */
function generatedTronscan(rows: number): string {
  const lines = [
    "wallet,timestamp,tx_id,from_address,to_address,quant,token_id,token_decimal,contract_return",
  ];
  for (let i = 0; i < rows; i++) {
    const outcome = i % 13 === 0 ? "REVERT" : i % 29 === 0 ? "OUT_OF_ENERGY" : "SUCCESS";
    const quant = i % 31 === 0 ? "12.5" : String(1_000_000 + i);
    const [a, b] = i % 2 ? TRON_ADDRESSES : [...TRON_ADDRESSES].reverse();
    lines.push(
      `${a},${1_650_000_000_000 + i},${hex64(i % 9 === 0 ? i + 1 : i)},${a},${b},${quant},${USDT_TRON},6,${outcome}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** A writer that records its calls (rows copied) and writes nothing. */
function recordingWriter(onWrite?: () => void) {
  const calls: Array<["write", LedgerTransfer[]] | ["finish"] | ["abort"]> = [];
  let rows = 0;
  const writer: LedgerWriter = {
    async write(batch) {
      onWrite?.();
      calls.push(["write", batch.map((r) => ({ ...r }))]);
      rows += batch.length;
    },
    async finish() {
      calls.push(["finish"]);
      return rows;
    },
    async abort() {
      calls.push(["abort"]);
    },
  };
  return { writer, calls };
}

/** The summary without its timings. */
function timeless<T extends { readingMs: number; durationMs: number }>(
  summary: T,
): Omit<T, "readingMs" | "durationMs"> {
  expect(summary.readingMs).toBeLessThanOrEqual(summary.durationMs);
  const { readingMs: _, durationMs: __, ...rest } = summary;
  return rest;
}

/** Everything an import shows a caller: summary, writer calls, progress reports. */
async function observed(options: Omit<ImportOptions, "kind">, parseThread: boolean) {
  const { writer, calls } = recordingWriter();
  const progress: ImportProgress[] = [];
  const summary = await importFile({} as Store, {
    kind: "ledger",
    ...options,
    ledgerWriter: writer,
    parseThread,
    onProgress: (p) => progress.push(p),
  });
  return { summary: timeless(summary), calls, progress };
}

/** Every ledger row `store` holds for the rows a writer was given. */
async function storedRows(store: Store, written: ReadonlyArray<LedgerTransfer>): Promise<LedgerTransfer[]> {
  const keys = [...new Set(written.map((r) => `${r.network} ${r.txHash}`))].sort();
  const rows = await Promise.all(
    keys.map((k) => {
      const [network, hash] = k.split(" ") as [string, string];
      return store.ledgerByTxHash(network, hash);
    }),
  );
  return rows.flat();
}

/** The error a promise fails with. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("the import should have failed"),
    (error: unknown) => error,
  );
}

/** What a caller can see of an error. */
function shown(error: unknown) {
  expect(isKytError(error)).toBe(true);
  const e = error as import("@openkyt/core").KytError;
  return { name: e.name, code: e.code, message: e.message, details: e.details, errors: e.errors };
}

describe("ledger import on the parse thread", () => {
  let dir: string;
  const files: Record<string, string> = {};
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "openkyt-parse-thread-"));
    files.csv = join(dir, "generated.csv");
    await writeFile(files.csv, generatedCsv(3_000));
    files.tronscan = join(dir, "tronscan.csv");
    await writeFile(files.tronscan, generatedTronscan(3_000));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    expect(threads.length).toBeGreaterThan(0);
    expect(threads.every((t) => t.exited)).toBe(true);
  });

  const cases: Array<[string, () => Omit<ImportOptions, "kind">]> = [
    ["the CSV fixture", () => ({ file: fixture("ledger.csv") })],
    ["the JSON lines fixture", () => ({ file: fixture("ledger.jsonl") })],
    ["the Tronscan fixture", () => ({ file: fixture("tronscan-trc20.csv") })],
    ["a generated CSV, in batches of 500", () => ({ file: files.csv as string, batchSize: 500 })],
    ["a generated CSV, all problems listed", () => ({ file: files.csv as string, maxReported: 1000 })],
    ["a generated Tronscan export", () => ({ file: files.tronscan as string, batchSize: 700 })],
  ];

  it.each(cases)("gives the inline summary, writer calls and progress on %s", async (_name, options) => {
    const inline = await observed(options(), false);
    const threaded = await observed(options(), true);
    expect(threaded).toEqual(inline);
    expect(inline.summary.rowsRead).toBeGreaterThan(0);
  });

  it("covers duplicates, rejections and skips in the generated files", async () => {
    const csv = await observed({ file: files.csv as string, batchSize: 500 }, true);
    expect(csv.summary).toMatchObject({ rowsRead: 3_000 });
    expect(csv.summary.duplicates).toBeGreaterThan(50);
    expect(csv.summary.rejected).toBeGreaterThan(50);
    expect(csv.summary.rejections).toHaveLength(20);
    expect(csv.calls.filter((c) => c[0] === "write")).toHaveLength(6);
    const tron = await observed({ file: files.tronscan as string }, true);
    expect(tron.summary.skippedBy).toEqual({
      "contract_return REVERT": 231,
      "contract_return OUT_OF_ENERGY": 96,
    });
    expect(tron.summary.rejected).toBeGreaterThan(50);
  });

  it("stores the same ledger in SQLite with the store's own writer", async () => {
    for (const file of [files.csv as string, files.tronscan as string]) {
      const { calls } = await observed({ file }, false);
      const written = calls.flatMap((c) => (c[0] === "write" ? c[1] : []));
      const results = [];
      for (const parseThread of [false, true]) {
        const store = await createSqliteStore({ filename: ":memory:" });
        try {
          const first = timeless(
            await importFile(store, { kind: "ledger", file, parseThread, batchSize: 1000 }),
          );
          const again = timeless(await importFile(store, { kind: "ledger", file, parseThread }));
          results.push({ first, again, rows: await storedRows(store, written) });
        } finally {
          await store.close();
        }
      }
      expect(results[1]).toEqual(results[0]);
      expect(results[0]?.rows.length).toBe(results[0]?.first.added);
      expect(results[0]?.again.added).toBe(0);
    }
  });

  it("fails with the inline error on a header without the required columns, writing nothing", async () => {
    const options = { kind: "ledger" as const, file: fixture("wrong-header.csv"), format: "csv" };
    const errors = [];
    for (const parseThread of [false, true]) {
      const { writer, calls } = recordingWriter();
      errors.push(
        shown(await failure(importFile({} as Store, { ...options, ledgerWriter: writer, parseThread }))),
      );
      expect(calls).toEqual([]);
    }
    expect(errors[1]).toEqual(errors[0]);
    expect(errors[0]?.message).toContain("the header lacks network, tx_hash");
  });

  it("fails with the inline error on a quoted field never closed mid-file, the writer aborted", async () => {
    const file = join(dir, "broken-quote.csv");
    const good = (i: number) =>
      `ETH,0x${hex64(i)},0,native,0x${"1".repeat(40)},0x${"2".repeat(40)},1,${1_700_000_000_000 + i}`;
    const lines = ["network,tx_hash,log_index,token_id,from,to,amount,occurred_at"];
    for (let i = 0; i < 50; i++) lines.push(good(i));
    lines.push(`ETH,"0x${hex64(50)},0,native`);
    for (let i = 51; i < 10_060; i++) lines.push(good(i));
    await writeFile(file, `${lines.join("\n")}\n`);
    const seen = [];
    for (const parseThread of [false, true]) {
      const { writer, calls } = recordingWriter();
      const error = await failure(
        importFile({} as Store, { kind: "ledger", file, batchSize: 20, ledgerWriter: writer, parseThread }),
      );
      seen.push({ error: shown(error), calls });
    }
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[0]?.error.message).toContain("line 52: a quoted field is never closed");
    expect(seen[0]?.calls.at(-1)).toEqual(["abort"]);
    expect(seen[0]?.calls.filter((c) => c[0] === "write")).toHaveLength(2);
  });

  it("aborts the writer, not finishes it, when the progress callback throws at the finishing phase", async () => {
    const seen = [];
    for (const parseThread of [false, true]) {
      const { writer, calls } = recordingWriter();
      const error = await failure(
        importFile({} as Store, {
          kind: "ledger",
          file: files.csv as string,
          ledgerWriter: writer,
          parseThread,
          onProgress: (p) => {
            if (p.phase === "finishing") throw new Error("progress display broke");
          },
        }),
      );
      expect((error as Error).message).toBe("progress display broke");
      seen.push(calls.map((c) => c[0]));
    }
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[0]?.at(-1)).toBe("abort");
    expect(seen[0]).not.toContain("finish");
    // The SQLite store's exclusive load gives its connection back and keeps nothing.
    const store = await createSqliteStore({ filename: ":memory:" });
    try {
      const error = await failure(
        importFile(store, {
          kind: "ledger",
          file: files.csv as string,
          exclusiveStore: true,
          parseThread: true,
          onProgress: (p) => {
            if (p.phase === "finishing") throw new Error("progress display broke");
          },
        }),
      );
      expect((error as Error).message).toBe("progress display broke");
      const again = await importFile(store, {
        kind: "ledger",
        file: files.csv as string,
        exclusiveStore: true,
      });
      expect(again.added).toBeGreaterThan(2_000);
    } finally {
      await store.close();
    }
  });

  it("rethrows the writer's own error, aborts the writer and ends the thread", async () => {
    const broken = new Error("disk full");
    let writes = 0;
    const { writer, calls } = recordingWriter(() => {
      if (++writes === 3) throw broken;
    });
    const started = threads.length;
    const error = await failure(
      importFile({} as Store, {
        kind: "ledger",
        file: files.csv as string,
        batchSize: 100,
        ledgerWriter: writer,
        parseThread: true,
      }),
    );
    expect(error).toBe(broken);
    expect(calls.map((c) => c[0])).toEqual(["write", "write", "abort"]);
    expect(threads.length).toBe(started + 1);
    expect(threads.at(-1)?.exited).toBe(true);
  });

  it("rethrows an error of the writer's finish as inline: no abort, the thread already ended", async () => {
    const seen = [];
    for (const parseThread of [false, true]) {
      const broken = new Error("no space for the index");
      const { writer, calls } = recordingWriter();
      const started = threads.length;
      const failing: LedgerWriter = {
        ...writer,
        finish: async () => {
          await writer.finish();
          throw broken;
        },
      };
      const options = {
        kind: "ledger" as const,
        file: fixture("ledger.csv"),
        ledgerWriter: failing,
        parseThread,
      };
      expect(await failure(importFile({} as Store, options))).toBe(broken);
      expect(threads.length).toBe(started + (parseThread ? 1 : 0));
      if (parseThread) expect(threads.at(-1)?.exited).toBe(true);
      seen.push(calls.map((c) => c[0]));
    }
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[0]).toEqual(["write", "finish"]);
  });

  it("reports progress on this thread while the parse thread reads", async () => {
    const progress: ImportProgress[] = [];
    const summary = await importFile({} as Store, {
      kind: "ledger",
      file: files.csv as string,
      ledgerWriter: recordingWriter().writer,
      parseThread: true,
      onProgress: (p) => progress.push(p),
    });
    expect(progress.length).toBeGreaterThan(2);
    const rows = progress.map((p) => p.rowsRead);
    expect(rows).toEqual([...rows].sort((a, b) => a - b));
    expect(progress.at(-1)).toEqual({
      phase: "finishing",
      rowsRead: summary.rowsRead,
      bytesRead: summary.bytesRead,
      totalBytes: summary.bytesRead,
    });
    expect(progress.filter((p) => p.phase === "finishing")).toHaveLength(1);
  });
});
