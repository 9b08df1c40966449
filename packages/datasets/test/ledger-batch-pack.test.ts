import { KytError, type LedgerTransfer } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { packLedgerBatch, unpackLedgerBatch } from "../src/ledger-batch-pack.js";
import { errorOfThread, threadErrorOf } from "../src/thread-error.js";

const row = (over: Partial<LedgerTransfer>): LedgerTransfer => ({
  network: "ETH",
  txHash: `0x${"ab".repeat(32)}`,
  logIndex: 0,
  tokenId: "native",
  from: `0x${"1".repeat(40)}`,
  to: `0x${"2".repeat(40)}`,
  amount: 1.5,
  occurredAt: 1_709_294_400_000,
  block: 19_000_000,
  valueUsd: 2.25,
  ...over,
});

describe("ledger batches between threads", () => {
  it("unpack as they were packed: networks, tokens, nulls, a native log index of -1", () => {
    const rows = [
      row({}),
      row({ logIndex: -1, block: null, valueUsd: null, amount: 0 }),
      row({
        network: "TRX",
        txHash: "ab".repeat(32),
        from: "TV6MuMXfmLbBqPZvBHdwFsDnQeVfnmiuSi",
        tokenId: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
      }),
      row({ tokenId: "0xdac17f958d2ee523a2206206994597c13d831ec7", amount: 1e-18, valueUsd: 0 }),
      row({
        network: "BTC",
        txHash: "cd".repeat(32),
        from: "bc1qv7k70u2zynvem59u88ctdlaw7hc735d8xep9rq",
        block: 0,
      }),
      row({}),
    ];
    const packed = structuredClone(packLedgerBatch(rows));
    expect(packed.names).toEqual([
      "ETH",
      "native",
      "TRX",
      "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
      "0xdac17f958d2ee523a2206206994597c13d831ec7",
      "BTC",
    ]);
    expect(unpackLedgerBatch(packed)).toEqual(rows);
    expect(unpackLedgerBatch(packLedgerBatch([]))).toEqual([]);
    for (const size of [511, 512, 513, 1024, 5000]) {
      const many = Array.from({ length: size }, (_, i) =>
        row({ txHash: `0x${i.toString(16).padStart(64, "0")}`, logIndex: i % 5, block: i % 3 ? i : null }),
      );
      const again = structuredClone(packLedgerBatch(many));
      expect(again.texts.every((t) => t.length < 128 * 1024)).toBe(true);
      expect(unpackLedgerBatch(again)).toEqual(many);
    }
  });

  it("refuse a batch whose value held a line break rather than misplace fields", () => {
    expect(() => unpackLedgerBatch(packLedgerBatch([row({ to: "a\nb" })]))).toThrow(/line break/);
  });

  it("carry a KytError's code, message, details, field errors and cause across", () => {
    const cause = new Error("EIO");
    const error = new KytError("VALIDATION_ERROR", "f.csv: read failed", {
      cause,
      details: { file: "f.csv" },
      errors: { file: ["read failed"] },
    });
    const back = errorOfThread(structuredClone(threadErrorOf(error)));
    expect(back).toBeInstanceOf(KytError);
    expect(back).toMatchObject({
      code: "VALIDATION_ERROR",
      message: error.message,
      details: error.details,
      errors: error.errors,
    });
    expect((back.cause as Error).message).toBe("EIO");
    expect(back.stack).toBe(error.stack);
    const plain = errorOfThread(structuredClone(threadErrorOf(new TypeError("bad"))));
    expect(plain).not.toBeInstanceOf(KytError);
    expect(plain).toMatchObject({ name: "TypeError", message: "bad" });
    const odd = errorOfThread(
      structuredClone(threadErrorOf(new KytError("INTERNAL_ERROR", "x", { details: { f: () => 1 } }))),
    );
    expect(odd).toMatchObject({ code: "INTERNAL_ERROR", message: "x", details: { f: "() => 1" } });
  });
});
