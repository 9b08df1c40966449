/**
 * `importFile` of UTXO ledgers: a real block with its undo (bitcoin-blocks), and small chains
 * written as Bitcoin Core getblock 3 answers and as Esplora objects, which must give the same
 * ledger. A bad transaction is rejected whole with its line and reason (unknown prevout,
 * outputs above inputs, a value that does not parse, a line that is not JSON) while the others
 * are imported; outputs without an address are kept and counted.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Store, UtxoTransaction } from "@openkyt/core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { detectFormat, importFile, undoFileOf } from "../src/index.js";
import { balanced, counts, STORES } from "./import-fixtures.js";

/** Every transaction of `network` the ledger holds among `txids`, by txid. */
async function ledgerTxs(
  store: Store,
  network: string,
  txids: ReadonlyArray<string>,
): Promise<UtxoTransaction[]> {
  const found = await store.utxoTransactions(network, txids);
  return [...found].sort((a, b) => (a.txid < b.txid ? -1 : 1));
}

const dir = mkdtempSync(join(tmpdir(), "openkyt-utxo-import-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const blockFixture = (name: string) =>
  fileURLToPath(new URL(`../../chain-bitcoin/test/fixtures/${name}`, import.meta.url));

const H = (c: string) => c.repeat(64);
const P2WPKH = "0014751e76e8199196d454941c45d1b3a323f1433bd6";
const ALICE = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const BOB = "1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH";

/** A transaction of the small chain: inputs spend earlier outputs (txid, vout, address, sats). */
interface Spec {
  readonly txid: string;
  readonly inputs: ReadonlyArray<readonly [string, number, string, number | string] | "coinbase">;
  readonly outputs: ReadonlyArray<readonly [string | null, number]>;
}

const BLOCK_1: Spec[] = [
  {
    txid: H("1"),
    inputs: ["coinbase"],
    outputs: [
      [ALICE, 5_000_000_000],
      [null, 0],
    ],
  },
];
const BLOCK_2: Spec[] = [
  { txid: H("2"), inputs: ["coinbase"], outputs: [[BOB, 5_000_010_000]] },
  // Alice pays Bob 1 BTC with change, fee 10,000 sat.
  {
    txid: H("3"),
    inputs: [[H("1"), 0, ALICE, 5_000_000_000]],
    outputs: [
      [BOB, 100_000_000],
      [ALICE, 4_899_990_000],
    ],
  },
  // Pays out more than it spends: rejected.
  { txid: H("4"), inputs: [[H("3"), 0, BOB, 100_000_000]], outputs: [[ALICE, 100_000_001]] },
  // Spends an outpoint without saying what it was: rejected (unknown prevout).
  { txid: H("5"), inputs: [[H("9"), 7, "", 0]], outputs: [[ALICE, 1]] },
  // A value with 9 decimals: rejected.
  { txid: H("6"), inputs: [[H("3"), 1, ALICE, "48.999900001"]], outputs: [[ALICE, 1]] },
];

const btc = (sats: number | string) =>
  typeof sats === "string" ? sats : `${Math.floor(sats / 1e8)}.${String(sats % 1e8).padStart(8, "0")}`;
const spk = (address: string | null) =>
  address === null
    ? `{"hex":"6a00","type":"nulldata"}`
    : `{"hex":"${address === ALICE ? P2WPKH : ""}","address":"${address}"}`;

function coreLine(hash: string, height: number, time: number, specs: Spec[]): string {
  const tx = specs.map((s) => {
    const vin = s.inputs.map((i) =>
      i === "coinbase"
        ? `{"coinbase":"51","sequence":4294967295}`
        : i[2] === ""
          ? `{"txid":"${i[0]}","vout":${i[1]},"sequence":0}`
          : `{"txid":"${i[0]}","vout":${i[1]},"prevout":{"generated":false,"height":1,"value":${btc(i[3])},"scriptPubKey":${spk(i[2])}},"sequence":0}`,
    );
    const vout = s.outputs.map((o, n) => `{"value":${btc(o[1])},"n":${n},"scriptPubKey":${spk(o[0])}}`);
    return `{"txid":"${s.txid}","hash":"${s.txid}","version":2,"vin":[${vin.join(",")}],"vout":[${vout.join(",")}]}`;
  });
  return `{"hash":"${hash}","confirmations":1,"height":${height},"time":${time},"nTx":${specs.length},"tx":[${tx.join(",")}]}`;
}

function esploraLines(hash: string, height: number, time: number, specs: Spec[]): string[] {
  const status = `{"confirmed":true,"block_height":${height},"block_hash":"${hash}","block_time":${time}}`;
  const out = (address: string | null, value: number | string) =>
    address === null
      ? `{"scriptpubkey":"6a00","scriptpubkey_type":"op_return","value":${value}}`
      : `{"scriptpubkey_address":"${address}","value":${value}}`;
  return specs.map((s) => {
    const vin = s.inputs.map((i) =>
      i === "coinbase"
        ? `{"is_coinbase":true,"prevout":null,"txid":"${H("0")}","vout":4294967295}`
        : i[2] === ""
          ? `{"txid":"${i[0]}","vout":${i[1]},"is_coinbase":false,"prevout":null}`
          : `{"txid":"${i[0]}","vout":${i[1]},"is_coinbase":false,"prevout":${out(i[2], typeof i[3] === "string" ? `"${i[3]}"` : i[3])}}`,
    );
    return `{"txid":"${s.txid}","vin":[${vin.join(",")}],"vout":[${s.outputs.map((o) => out(o[0], o[1])).join(",")}],"status":${status}}`;
  });
}

const CORE = `${[coreLine(H("a"), 1, 1_700_000_000, BLOCK_1), coreLine(H("b"), 2, 1_700_000_600, BLOCK_2), "{not json"].join("\n")}\n`;
const ESPLORA = `${[
  ...esploraLines(H("a"), 1, 1_700_000_000, BLOCK_1),
  ...esploraLines(H("b"), 2, 1_700_000_600, BLOCK_2),
].join("\n")}\n`;

describe.each(STORES)("UTXO ledger import, %s store", (_name, makeStore) => {
  const opened: Store[] = [];
  const open = async () => {
    const store = await makeStore();
    opened.push(store);
    return store;
  };
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });

  describe("bitcoin-core and esplora JSON lines", () => {
    it("imports good transactions whole, rejects each bad one with its line and reason", async () => {
      const store = await open();
      const path = file("blocks.jsonl", CORE);
      expect((await detectFormat(path, "ledger")).id).toBe("bitcoin-core");
      const summary = await importFile(store, { kind: "ledger", file: path });
      expect(summary.format).toBe("bitcoin-core");
      expect(counts(summary)).toMatchObject({ rowsRead: 7, added: 3, rejected: 4 });
      expect(balanced(summary)).toBe(true);
      expect(summary.utxo).toMatchObject({ blocks: 2, inputs: 3, outputs: 5, outputsWithoutAddress: 1 });
      expect(summary.rejections.map((r) => [r.line, r.reason])).toEqual([
        [2, `transaction ${H("4")} pays out 100000001 sat but its inputs bring in 100000000 sat`],
        [
          2,
          `${H("5")}: tx[3].vin[0] spends ${H("9")}:7, an unknown prevout (no "prevout": the answer of getblock <hash> 3 gives it)`,
        ],
        [
          2,
          `${H("6")}: tx[4].vin[0].prevout.value is not an amount in coins with at most 8 decimals (got "48.999900001")`,
        ],
        [3, expect.stringMatching(/^not a getblock <hash> 3 answer: .*JSON/)],
      ]);
      const [alicePays] = await ledgerTxs(store, "BTC", [H("3")]);
      expect(alicePays).toMatchObject({
        block: 2,
        blockHash: H("b"),
        position: 1,
        occurredAt: 1_700_000_600_000,
        inputs: [{ prevTxid: H("1"), prevVout: 0, address: ALICE, value: 5_000_000_000, coinbase: false }],
        outputs: [
          { vout: 0, address: BOB, value: 100_000_000 },
          { vout: 1, address: ALICE, value: 4_899_990_000 },
        ],
      });
      expect(await ledgerTxs(store, "BTC", [H("4"), H("5"), H("6")])).toEqual([]);
      const again = await importFile(store, { kind: "ledger", file: path });
      expect(counts(again)).toMatchObject({ rowsRead: 7, added: 0, unchanged: 3, rejected: 4 });
    });

    it("gives the same ledger from Esplora objects", async () => {
      const fromCore = await open();
      await importFile(fromCore, { kind: "ledger", file: file("core.jsonl", CORE) });
      const store = await open();
      const path = file("esplora.jsonl", ESPLORA);
      expect((await detectFormat(path, "ledger")).id).toBe("esplora");
      const summary = await importFile(store, { kind: "ledger", file: path, format: "esplora" });
      expect(counts(summary)).toMatchObject({ rowsRead: 6, added: 3, rejected: 3 });
      expect(summary.rejections.map((r) => r.line)).toEqual([4, 5, 6]);
      expect(summary.rejections[1]?.reason).toBe(
        `${H("5")}: vin[0] spends ${H("9")}:7, an unknown prevout (no "prevout")`,
      );
      const ids = [H("1"), H("2"), H("3")];
      expect(await ledgerTxs(store, "BTC", ids)).toEqual(await ledgerTxs(fromCore, "BTC", ids));
    });

    it("refuses a network that is not a UTXO chain, and a store without a UTXO ledger", async () => {
      const path = file("n.jsonl", CORE);
      await expect(importFile(await open(), { kind: "ledger", file: path, network: "ETH" })).rejects.toThrow(
        /network: a UTXO ledger is BTC or LTC, not "ETH"/,
      );
      await expect(
        importFile(await open(), { kind: "ledger", file: path, chain: "mainnet" }),
      ).rejects.toThrow(/chain: must be one of main, test, regtest/);
    });
  });

  describe("bitcoin-blocks", () => {
    it("imports mainnet block 300,025 with its undo found beside it: 461 transactions, every input resolved", async () => {
      const path = join(dir, "block300025.raw");
      copyFileSync(blockFixture("block300025.raw"), path);
      copyFileSync(blockFixture("block300025-undo.raw"), join(dir, "block300025-undo.raw"));
      const store = await open();
      const summary = await importFile(store, { kind: "ledger", file: path, format: "bitcoin-blocks" });
      expect(counts(summary)).toMatchObject({ rowsRead: 461, added: 461, rejected: 0 });
      expect(summary.utxo).toMatchObject({ blocks: 1, inputs: 1428, outputs: 1226 });
      expect(summary.utxo?.outputsWithoutAddress).toBeGreaterThanOrEqual(0);
      const again = await importFile(store, { kind: "ledger", file: path, format: "bitcoin-blocks" });
      expect(counts(again)).toMatchObject({ rowsRead: 461, unchanged: 461 });
    });

    it("rejects a block whose undo is another block's, naming the block; a missing undo file is NOT_FOUND", async () => {
      const summary = await importFile(await open(), {
        kind: "ledger",
        file: blockFixture("block1087400.raw"),
        format: "bitcoin-blocks",
        chain: "test",
        undoFile: blockFixture("block300025-undo.raw"),
      });
      expect(counts(summary)).toMatchObject({ rowsRead: 1, added: 0, rejected: 1 });
      expect(summary.rejections[0]).toMatchObject({
        line: 1,
        reason: expect.stringMatching(/^block at byte 0 \([0-9a-f]{64}\): the undo does not fit block/),
      });
      await expect(
        importFile(await open(), {
          kind: "ledger",
          file: file("lonely.raw", "x"),
          format: "bitcoin-blocks",
        }),
      ).rejects.toThrow(/lonely-undo.raw: undo file \(give it with --undo\) not found/);
    });
  });
  describe("on a parse thread (parseThread: true)", () => {
    it("gives the inline import's summary and ledger for every format", async () => {
      const blocks = join(dir, "thread-300025.raw");
      copyFileSync(blockFixture("block300025.raw"), blocks);
      copyFileSync(blockFixture("block300025-undo.raw"), join(dir, "thread-300025-undo.raw"));
      const cases = [
        ["bitcoin-core", file("thread-core.jsonl", CORE)],
        ["esplora", file("thread-esplora.jsonl", ESPLORA)],
        ["bitcoin-blocks", blocks],
      ] as const;
      for (const [format, path] of cases) {
        const inline = await open();
        const threaded = await open();
        const a = await importFile(inline, { kind: "ledger", file: path, format, parseThread: false });
        const b = await importFile(threaded, { kind: "ledger", file: path, format, parseThread: true });
        expect(counts(b)).toEqual(counts(a));
        expect(b.rejections).toEqual(a.rejections);
        expect(b.utxo).toEqual(a.utxo);
        // Every txid when the store can list them (SQLite), else the small chain's.
        const listed = await inline.scanUtxoTransactions?.(0, 1_000);
        const ids = listed
          ? listed.txs.map((t) => t.txid)
          : format === "bitcoin-blocks"
            ? []
            : [H("1"), H("2"), H("3")];
        if (listed) expect(ids.length).toBe(counts(a).added);
        expect(await ledgerTxs(threaded, "BTC", ids)).toEqual(await ledgerTxs(inline, "BTC", ids));
      }
      // A thread boots from the sources (tsx) three times: seconds each on a loaded machine.
    }, 240_000);

    it("brings the parse thread's error back with its code, leaving nothing written", async () => {
      const store = await open();
      const failed = importFile(store, {
        kind: "ledger",
        file: file("thread-lonely.raw", "x"),
        format: "bitcoin-blocks",
        parseThread: true,
      });
      await expect(failed).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(failed).rejects.toThrow(
        /thread-lonely-undo.raw: undo file \(give it with --undo\) not found/,
      );
    }, 120_000);
  });
});

describe("undoFileOf", () => {
  it("finds rev*.dat beside blk*.dat", () => {
    expect(undoFileOf("/d/blk00042.dat")).toBe("/d/rev00042.dat");
    expect(undoFileOf("/d/b.raw", "/u/x")).toBe("/u/x");
  });
});
