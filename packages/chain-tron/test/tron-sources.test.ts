/**
 * The Tron chain source and block source over a loopback node serving recorded answers in the
 * HTTP API's documented formats: a TRX transfer, a USDT-TRC20 transfer, a reverted USDT-TRC20
 * transfer, a transaction in no block yet; a node answering garbage, nonsense, errors or nothing;
 * a node of another network; and core's chain follower writing the blocks into a store.
 */
import { createChainFollower, createMemoryStore } from "@openkyt/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createTronBlockSource,
  createTronChainSource,
  tronBase58ToHex,
  tronHexToBase58,
  tronWordToBase58,
} from "../src/index.js";
import {
  ALICE,
  BLOCK_TIME,
  BOB,
  CAROL,
  startTronFixture,
  type TronFixtureNode,
  TX,
  USDT,
} from "./tron-node-fixture.js";

let node: TronFixtureNode;
const b58 = (hex: string) => tronHexToBase58(hex) ?? "";

beforeAll(async () => {
  node = await startTronFixture();
});
afterEach(() => {
  node.mode = "recorded";
});
afterAll(async () => {
  await node.close();
});

describe("Tron addresses", () => {
  it("converts 41-hex to Base58Check and back", () => {
    expect(tronHexToBase58(USDT.hex)).toBe(USDT.base58);
    expect(tronBase58ToHex(USDT.base58)).toBe(USDT.hex);
    expect(tronBase58ToHex(b58(ALICE))).toBe(ALICE);
    expect(tronWordToBase58(`000000000000000000000000${USDT.hex.slice(2)}`)).toBe(USDT.base58);
  });

  it("refuses what is not a Tron address", () => {
    expect(tronBase58ToHex("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u")).toBeNull();
    expect(tronBase58ToHex("1BoatSLRHtKNngkdXEeobR76b53LETtpyT")).toBeNull();
    expect(tronHexToBase58("a614f803b6fd780986a42c78ec9c7f77e6ded13c")).toBeNull();
    expect(tronWordToBase58(`ff0000000000000000000000${USDT.hex.slice(2)}`)).toBeNull();
  });
});

describe("Tron chain source", () => {
  const source = () => createTronChainSource({ url: node.url, timeoutMs: 500 });

  it("finds a TRX transfer: sun to TRX, addresses in Base58Check, its block and time", async () => {
    expect(await source().lookup("TRX", TX.trx)).toEqual({
      kind: "found",
      transfers: [
        {
          network: "TRX",
          txHash: TX.trx,
          logIndex: -1,
          tokenId: "native",
          from: b58(ALICE),
          to: b58(BOB),
          amount: 12.5,
          occurredAt: BLOCK_TIME,
          block: 98,
          valueUsd: null,
        },
      ],
    });
  });

  it("finds a USDT-TRC20 transfer from the Transfer event of its info's log", async () => {
    expect(await source().lookup("TRX", TX.usdt.toUpperCase())).toEqual({
      kind: "found",
      transfers: [
        {
          network: "TRX",
          txHash: TX.usdt,
          logIndex: 0,
          tokenId: USDT.base58,
          from: b58(BOB),
          to: b58(CAROL),
          amount: 1500.25,
          occurredAt: BLOCK_TIME,
          block: 98,
          valueUsd: null,
        },
      ],
    });
  });

  it("answers failed for a reverted TRC-20 transfer, not_found and pending as the node says", async () => {
    expect(await source().lookup("TRX", TX.reverted)).toEqual({
      kind: "failed",
      reason: "the transaction failed on chain (REVERT)",
    });
    expect(await source().lookup("TRX", "f".repeat(64))).toEqual({ kind: "not_found" });
    expect(await source().lookup("TRX", "0x1234")).toEqual({ kind: "not_found" });
    expect(await source().lookup("TRX", TX.pending)).toEqual({ kind: "pending" });
    // Block 98 under a head of 100 has 3 confirmations.
    const deep = createTronChainSource({ url: node.url, confirmations: 4 });
    expect(await deep.lookup("TRX", TX.trx)).toEqual({ kind: "pending" });
    const enough = createTronChainSource({ url: node.url, confirmations: 3 });
    expect((await enough.lookup("TRX", TX.trx)).kind).toBe("found");
    await expect(source().lookup("ETH", TX.trx)).rejects.toMatchObject({ code: "NOT_CONFIGURED" });
  });

  it("throws CHAIN_ERROR for a node answering garbage, nonsense, an HTTP error or nothing in time", async () => {
    for (const [mode, message] of [
      ["garbage", /answered something that is not JSON/],
      ["nonsense", /answered nonsense/],
      ["error", /HTTP 502/],
      ["stall", /no answer within 500 ms/],
    ] as const) {
      node.mode = mode;
      const failure = source().lookup("TRX", TX.trx);
      await expect(failure).rejects.toMatchObject({ code: "CHAIN_ERROR" });
      await expect(failure).rejects.toThrow(message);
      await expect(failure).rejects.not.toThrow(node.url);
    }
  });

  it("checks the node's genesis block: mainnet passes, another network refuses", async () => {
    expect(await source().node.check()).toEqual({ genesis: expect.stringMatching(/^0{16}1ebf8850/) });
    const nile = createTronChainSource({ url: node.url, genesisBlockId: "0".repeat(64) });
    await expect(nile.node.check()).rejects.toMatchObject({ code: "NOT_CONFIGURED" });
    await expect(nile.node.check()).rejects.toThrow(/serves another network/);
  });

  it("sends user:password of its URL as Basic authentication, not in the URL, and refuses a bad URL", async () => {
    const withKey = node.url.replace("http://", "http://ops:s%40cret@");
    node.authorizations.length = 0;
    expect(await createTronChainSource({ url: withKey }).node.check()).toBeDefined();
    expect(node.authorizations[0]).toBe(`Basic ${Buffer.from("ops:s@cret").toString("base64")}`);
    expect(() => createTronChainSource({ url: "ftp://node" })).toThrow(/url: must be an http\(s\) URL/);
  });
});

describe("Tron block source", () => {
  it("gives linked blocks and their rows, without the reverted transfer; the follower writes them", async () => {
    const source = createTronBlockSource({ url: node.url });
    expect(await source.head()).toBe(100);
    expect(await source.blockHash(101)).toBeNull();
    const batch = await source.readBlocks(98, 99);
    expect(batch.blocks.map((b) => b.height)).toEqual([98, 99]);
    expect(batch.blocks[1]?.parentHash).toBe(batch.blocks[0]?.hash);
    expect(batch.transfers.map((t) => [t.txHash, t.tokenId, t.amount])).toEqual([
      [TX.trx, "native", 12.5],
      [TX.usdt, USDT.base58, 1500.25],
    ]);
    const store = createMemoryStore();
    const follower = createChainFollower({ store, source, fromBlock: 98, confirmations: 2 });
    expect(await follower.step()).toMatchObject({
      kind: "blocks",
      from: 98,
      to: 99,
      transfers: 2,
      inserted: 2,
    });
    expect(await follower.step()).toMatchObject({ kind: "idle", cursor: 99 });
    expect(await store.ledgerByTxHash("TRX", TX.usdt)).toHaveLength(1);
    expect(await store.ledgerByTxHash("TRX", TX.reverted)).toEqual([]);
  });

  it("fails a step when the node answers nonsense, writing nothing", async () => {
    const source = createTronBlockSource({ url: node.url });
    const store = createMemoryStore();
    const follower = createChainFollower({ store, source, fromBlock: 98 });
    node.mode = "nonsense";
    await expect(follower.step()).rejects.toMatchObject({ code: "CHAIN_ERROR" });
    expect(await store.followedHead("TRX")).toBeNull();
  });
});
