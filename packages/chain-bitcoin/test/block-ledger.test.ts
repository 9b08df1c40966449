/**
 * Real blocks with their undo data to UTXO transactions: mainnet block 300,025 (461
 * transactions, every input resolved by its undo) and testnet block 1,087,400. The
 * txids are checked against the header's merkle root (computed here with node:crypto), the
 * values against the block reward (coinbase = subsidy + fees), and the addresses against core's
 * validator. Then the failures: a truncated block, an undo of another block, Core's undo format.
 */
import { createHash } from "node:crypto";
import { checkAddress, type UtxoTransaction } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import {
  bitcoinParams,
  blocksOfFiles,
  decompressAmount,
  parseBlock,
  parsePlainUndo,
  TruncatedError,
  UndoMismatchError,
  undoChecksum,
  utxoTransactionProblem,
  utxoTransactionsOfBlock,
} from "../src/index.js";
import { block300025, block1087400 } from "./fixture-blocks.js";

const main = bitcoinParams("BTC");
const test = bitcoinParams("BTC", "test");

const dsha = (b: Buffer) => createHash("sha256").update(createHash("sha256").update(b).digest()).digest();

/** The merkle root of txids (display order), as the header stores it (display order). */
function merkleRoot(txids: ReadonlyArray<string>): string {
  let level: Buffer[] = txids.map((t) => Buffer.from(t, "hex").reverse());
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const a = level[i] as Buffer;
      const b = level[i + 1] ?? a;
      next.push(dsha(Buffer.concat([a, b])));
    }
    level = next;
  }
  return Buffer.from(level[0] as Buffer)
    .reverse()
    .toString("hex");
}

const sum = (values: ReadonlyArray<number>) => values.reduce((a, b) => a + b, 0);
const fee = (tx: UtxoTransaction) => sum(tx.inputs.map((i) => i.value)) - sum(tx.outputs.map((o) => o.value));

describe("mainnet block 300,025 with its undo", () => {
  const { block: bytes, undo } = block300025();
  const block = parseBlock(bytes);
  const txs = utxoTransactionsOfBlock(block, parsePlainUndo(undo, block), { params: main });

  it("has 461 transactions, 1,428 inputs and 1,226 outputs, whose txids give the header's merkle root", () => {
    expect(txs).toHaveLength(461);
    expect(sum(txs.map((t) => t.inputs.length))).toBe(1428);
    expect(sum(txs.map((t) => t.outputs.length))).toBe(1226);
    expect(merkleRoot(txs.map((t) => t.txid))).toBe(block.header.merkleRoot);
    expect(block.header.hash).toMatch(/^0{8}/); // proof of work: the hash is the header's
    expect(txs.every((t) => t.block === 300_025 && t.blockHash === block.header.hash)).toBe(true);
    expect(txs[0]?.occurredAt).toBe(block.header.time * 1000);
    expect(new Date(block.header.time * 1000).toISOString().slice(0, 10)).toBe("2014-05-10");
  });

  it("resolves every input (address and value) and passes every check: inputs >= outputs", () => {
    const spending = txs.slice(1);
    expect(spending.every((t) => t.inputs.every((i) => !i.coinbase && i.value > 0))).toBe(true);
    for (const tx of txs) expect(utxoTransactionProblem(tx)).toBeNull();
    const addresses = txs.flatMap((t) => [...t.inputs, ...t.outputs].map((x) => x.address));
    const known = addresses.filter((a): a is string => a !== null);
    for (const a of new Set(known)) expect(checkAddress("BTC", a)).toEqual({ ok: true, value: a });
    expect(txs.map((t) => t.position)).toEqual(txs.map((_, i) => i));
  });

  it("pays its miner the 25 BTC subsidy plus every fee, to the satoshi", () => {
    const [coinbase, ...rest] = txs;
    expect(coinbase?.coinbase).toBe(true);
    expect(sum((coinbase as UtxoTransaction).outputs.map((o) => o.value))).toBe(
      25 * 1e8 + sum(rest.map(fee)),
    );
  });

  it("reads the same through blocksOfFiles (bare block, plain undo recognised)", () => {
    const [only, ...more] = [...blocksOfFiles(bytes, undo, { params: main })];
    expect(more).toHaveLength(0);
    expect(only).toMatchObject({ hash: block.header.hash, height: 300_025 });
    expect(only && "transactions" in only ? only.transactions : null).toEqual(txs);
  });
});

describe("testnet block 1,087,400 with its undo", () => {
  const { block: bytes, undo } = block1087400();
  const block = parseBlock(bytes);
  const txs = utxoTransactionsOfBlock(block, parsePlainUndo(undo, block), { params: test });

  it("computes txids without witness data (the merkle root) and testnet addresses", () => {
    expect(merkleRoot(txs.map((t) => t.txid))).toBe(block.header.merkleRoot);
    expect(txs[0]?.block).toBe(1_087_400);
    const addresses = txs.flatMap((t) => t.outputs.map((o) => o.address)).filter((a) => a !== null);
    expect(addresses.some((a) => a.startsWith("2"))).toBe(true); // testnet P2SH
    expect(addresses.every((a) => /^(tb1|[mn2])/.test(a))).toBe(true);
    for (const tx of txs) expect(utxoTransactionProblem(tx)).toBeNull();
  });
});

describe("bad block data", () => {
  const { block: bytes, undo } = block300025();

  it("names the part a truncated block ends in", () => {
    expect(() => parseBlock(bytes.subarray(0, 50))).toThrow(/truncated: block header needs 80 bytes/);
    expect(() => parseBlock(bytes.subarray(0, bytes.length - 10))).toThrow(TruncatedError);
    expect(() => parseBlock(bytes.subarray(0, bytes.length - 10))).toThrow(/transaction 460/);
    const [only] = [...blocksOfFiles(bytes.subarray(0, 1000), undo, { params: main })];
    expect(only).toMatchObject({
      offset: 0,
      hash: null,
      problem: expect.stringMatching(/^not a block: .*truncated/),
    });
  });

  it("refuses an undo that is not the block's: cut short, with bytes left over, or another block's", () => {
    const block = parseBlock(bytes);
    expect(() => parsePlainUndo(undo.subarray(0, undo.length - 40), block)).toThrow(
      /^truncated: undo of [0-9a-f]{64} input \d+ script needs/,
    );
    expect(() => parsePlainUndo(undo.subarray(0, 34), block)).toThrow(UndoMismatchError);
    const longer = new Uint8Array(undo.length + 9);
    longer.set(undo);
    expect(() => parsePlainUndo(longer, block)).toThrow(/bytes after the outputs its inputs spent/);
    const other = block1087400();
    const [result] = [...blocksOfFiles(other.block, undo, { params: test })];
    expect(result).toMatchObject({ problem: expect.stringMatching(/^the undo does not fit block/) });
  });

  it("rejects a block whose undo makes a transaction pay out more than it spends", () => {
    const block = parseBlock(bytes);
    const spends = parsePlainUndo(undo, block).map((tx) => tx.map((coin) => ({ ...coin, value: 1n })));
    const txs = utxoTransactionsOfBlock(block, spends, { params: main });
    expect(utxoTransactionProblem(txs[1] as UtxoTransaction)).toMatch(
      /pays out \d+ sat but its inputs bring in \d+ sat/,
    );
  });
});

// --- Bitcoin Core's undo format (undo.h, compressor.h), written here from its definition ---

/** Core's CompressAmount (compressor.cpp). */
function compressAmount(n: bigint): bigint {
  if (n === 0n) return 0n;
  let e = 0n;
  while (n % 10n === 0n && e < 9n) {
    n /= 10n;
    e++;
  }
  if (e < 9n) {
    const d = n % 10n;
    n /= 10n;
    return 1n + (n * 9n + d - 1n) * 10n + e;
  }
  return 1n + (n - 1n) * 10n + 9n;
}

/** Core's VARINT (serialize.h). */
function varint(value: bigint): number[] {
  const out: number[] = [];
  let n = value;
  let len = 0;
  for (;;) {
    out.push(Number(n & 0x7fn) | (len ? 0x80 : 0));
    if (n <= 0x7fn) break;
    n = (n >> 7n) - 1n;
    len++;
  }
  return out.reverse();
}

const compactSize = (n: number) => (n < 0xfd ? [n] : [0xfd, n & 0xff, n >> 8]);

/** A CBlockUndo of block 300,025 in Core's encoding (scripts stored uncompressed: code 6 + size). */
function coreUndoOf300025(): Uint8Array {
  const { block: bytes, undo } = block300025();
  const block = parseBlock(bytes);
  const spends = parsePlainUndo(undo, block);
  const out: number[] = [...compactSize(spends.length)];
  for (const tx of spends) {
    out.push(...compactSize(tx.length));
    for (const coin of tx) {
      out.push(...varint(300_000n * 2n), ...varint(0n)); // height 300,000, not a coinbase; legacy version 0
      out.push(...varint(compressAmount(coin.value)));
      out.push(...varint(BigInt(coin.script.length + 6)), ...coin.script);
    }
  }
  return Uint8Array.from(out);
}

describe("Bitcoin Core's undo records", () => {
  it("decompresses amounts as Core's compress_tests list them", () => {
    expect(decompressAmount(0x0n)).toBe(0n);
    expect(decompressAmount(0x1n)).toBe(1n);
    expect(decompressAmount(0x7n)).toBe(1_000_000n); // CENT
    expect(decompressAmount(0x9n)).toBe(100_000_000n); // COIN
    expect(decompressAmount(0x32n)).toBe(5_000_000_000n); // 50 COIN
    expect(decompressAmount(0x1406f40n)).toBe(2_100_000_000_000_000n); // 21 million COIN
    for (const n of [1n, 9n, 10n, 123_456_789n, 99_999_999_999n])
      expect(decompressAmount(compressAmount(n))).toBe(n);
  });

  it("reads a bare CBlockUndo and a rev*.dat record matched by its checksum, like the plain undo", () => {
    const { block: bytes, undo } = block300025();
    const plain = [...blocksOfFiles(bytes, undo, { params: main })][0];
    const core = coreUndoOf300025();
    const bare = [...blocksOfFiles(bytes, core, { params: main })][0];
    expect(bare).toEqual(plain);
    const block = parseBlock(bytes);
    const header = Uint8Array.from([
      0xf9,
      0xbe,
      0xb4,
      0xd9,
      ...new Uint8Array(new Uint32Array([core.length]).buffer),
    ]);
    const checksum = Buffer.from(undoChecksum(block.header.prevHash, core), "hex");
    const record = Buffer.concat([header, core, checksum, Buffer.alloc(64)]); // zero padding ends the file
    expect([...blocksOfFiles(bytes, record, { params: main })][0]).toEqual(plain);
    checksum[0] = (checksum[0] as number) ^ 1;
    const wrong = Buffer.concat([header, core, checksum]);
    expect([...blocksOfFiles(bytes, wrong, { params: main })][0]).toMatchObject({
      problem: expect.stringMatching(/no record of the undo file is the undo of block/),
    });
  });

  it("reads a blk*.dat file with its rev*.dat file, block by block", () => {
    const { block: bytes } = block300025();
    const core = coreUndoOf300025();
    const frame = (payload: Uint8Array) =>
      Buffer.concat([
        Buffer.from("f9beb4d9", "hex"),
        Buffer.from(new Uint32Array([payload.length]).buffer),
        payload,
      ]);
    const block = parseBlock(bytes);
    const blk = Buffer.concat([frame(bytes), frame(bytes.subarray(0, 500))]);
    const rev = Buffer.concat([frame(core), Buffer.from(undoChecksum(block.header.prevHash, core), "hex")]);
    const [first, second] = [...blocksOfFiles(blk, rev, { params: main })];
    expect(first).toMatchObject({ offset: 0, height: 300_025 });
    expect(second).toMatchObject({ offset: bytes.length + 8, problem: expect.stringMatching(/truncated/) });
    expect(() => [...blocksOfFiles(blk, rev, { params: test })]).toThrow(
      /of BTC main \(magic f9beb4d9\), not BTC test/,
    );
  });
});
