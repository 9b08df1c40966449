/**
 * Imported rows whose free text holds a NUL (Postgres text cannot) or an unpaired surrogate (a
 * JSON or YAML escape) are rejected with a reason naming the field, on every store, instead of
 * failing the store's insert and aborting the import. Formatted fields (networks, addresses,
 * hashes, token ids, numbers) already refuse such text through their own checks.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Store } from "@openkyt/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withTestPostgres } from "../../store-postgres/test/pg-test-suite.js";
import { importFile } from "../src/index.js";
import { balanced, counts, STORES } from "./import-fixtures.js";

const A1 = `0x${"a1".repeat(20)}`;
const A2 = `0x${"a2".repeat(20)}`;
const A3 = `0x${"a3".repeat(20)}`;
const B1 = `0x${"b1".repeat(20)}`;
const B2 = `0x${"b2".repeat(20)}`;
const B3 = `0x${"b3".repeat(20)}`;
const TX = `0x${"ab".repeat(32)}`;
const TX2 = `0x${"cd".repeat(32)}`;

/**
 * Rows enough to fill the 64 KiB head that format detection reads (a NUL byte there makes the
 * whole file "not text", refused before any row is read): the bad rows come after it.
 */
const PAD = 1_100;
const padded = (row: (i: number) => string) => Array.from({ length: PAD }, (_, i) => row(i + 1));
const padAddress = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;

/** The files, each with good rows and rows with NUL (or an escaped lone surrogate) in a field. */
const FILES = {
  "labels.csv": [
    "network,address,entity_name,entity_category,source",
    ...padded((i) => `ETH,${padAddress(i)},Padding name,exchange,padding`),
    `ETH,${A1},Bin\0ance,exchange,team`,
    `ETH,${A2},Fine name,exchange,src\0`,
    `ETH,${A3},Fine name,exchange,`,
  ].join("\n"),
  "tags.yaml": [
    "title: t",
    "currency: ETH",
    "category: exchange",
    "tags:",
    `  - address: "${B1}"`,
    '    label: "bad\\0label"',
    `  - address: "${B2}"`,
    '    label: "lone \\uD800 surrogate"',
    `  - address: "${B3}"`,
    '    label: "good label"',
  ].join("\n"),
  "tokens.csv": [
    "network,token_id,symbol,decimals,name",
    ...padded((i) => `ETH,${padAddress(i)},PAD${i},18,Padding token`),
    "ETH,native,ETH,18,Ether",
    "ETH,0xdac17f958d2ee523a2206206994597c13d831ec7,US\0DT,6,Tether",
    "ETH,0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48,USDC,6,USD\0Coin",
  ].join("\n"),
  "sanctions.csv": [
    "address,address_lower,asset,sdn_entity,sdn_programs,sdn_uid,sdn_akas",
    ...padded((i) => `${padAddress(i)},${padAddress(i)},ETH,Padding Entity,CYBER2,${i + 10},`),
    `${A1},${A1},ETH,Some\0One,CYBER2,1,`,
    `${A2},${A2},ETH,Someone,CY\0BER2,2,`,
    `${A3},${A3},ETH,Someone Else,CYBER2,3,`,
  ].join("\n"),
  "ledger.csv": [
    "network,tx_hash,log_index,token_id,from,to,amount,occurred_at,block,value_usd",
    ...padded((i) => `ETH,${TX},${i + 10},native,${A1},${A2},1,2024-03-01T12:00:00Z,19000000,`),
    `ETH,${TX},0,native,${A1},${A2},1.5,2024-03-01T12:00:00Z,19000000,`,
    `ETH,${TX},1,nat\0ive,${A1},${A2},1.5,2024-03-01T12:00:00Z,19000000,`,
    `ETH,${TX},2,native,${A1}\0,${A2},1.5,2024-03-01T12:00:00Z,19000000,`,
    `ETH\0,${TX},3,native,${A1},${A2},1.5,2024-03-01T12:00:00Z,19000000,`,
  ].join("\n"),
  "ledger.jsonl": [
    JSON.stringify({
      network: "ETH",
      tx_hash: TX2,
      log_index: 0,
      token_id: "native",
      from: A1,
      to: A2,
      amount: 1,
      occurred_at: 1709380800000,
    }),
    JSON.stringify({
      network: "ETH",
      tx_hash: `${TX2}\u0000`,
      log_index: 1,
      token_id: "native",
      from: A1,
      to: A2,
      amount: 1,
      occurred_at: 1709380800000,
    }),
    JSON.stringify({
      network: "ETH",
      tx_hash: TX2,
      log_index: 2,
      token_id: "native\uD800",
      from: A1,
      to: A2,
      amount: 1,
      occurred_at: 1709380800000,
    }),
  ].join("\n"),
} as const;

function suite(createStore: () => Promise<Store>, destroyStore: (s: Store) => Promise<void>) {
  let dir: string;
  let store: Store;
  const file = (name: keyof typeof FILES) => join(dir, name);
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "openkyt-unstorable-"));
    for (const [name, text] of Object.entries(FILES)) await writeFile(join(dir, name), text);
    store = await createStore();
  });
  afterAll(async () => {
    await destroyStore(store);
    await rm(dir, { recursive: true, force: true });
  });

  it("labels: a NUL in entity_name or source rejects the row, naming the field", async () => {
    const summary = await importFile(store, { kind: "labels", file: file("labels.csv") });
    expect(counts(summary)).toMatchObject({ rowsRead: PAD + 3, added: PAD + 1, rejected: 2 });
    expect(summary.rejections.map((r) => [r.line, r.reason])).toEqual([
      [PAD + 2, "entity_name must not contain NUL (U+0000)"],
      [PAD + 3, "source must not contain NUL (U+0000)"],
    ]);
  });

  it("GraphSense YAML: a NUL or a lone surrogate escape in a label rejects the tag", async () => {
    const summary = await importFile(store, { kind: "labels", file: file("tags.yaml") });
    expect(counts(summary)).toMatchObject({ added: 1, rejected: 2 });
    expect(balanced(summary)).toBe(true);
    expect(summary.rejections.map((r) => r.reason)).toEqual([
      "entity_name must not contain NUL (U+0000)",
      "entity_name must not contain an unpaired UTF-16 surrogate (not well-formed Unicode)",
    ]);
  });

  it("tokens: a NUL in symbol or name rejects the row", async () => {
    const summary = await importFile(store, { kind: "tokens", file: file("tokens.csv") });
    expect(counts(summary)).toMatchObject({ rowsRead: PAD + 3, added: PAD + 1, rejected: 2 });
    expect(summary.rejections.map((r) => r.reason)).toEqual([
      "symbol must not contain NUL (U+0000)",
      "name must not contain NUL (U+0000)",
    ]);
  });

  it("sanctions: a NUL in sdn_entity or sdn_programs rejects the row", async () => {
    const summary = await importFile(store, { kind: "sanctions", file: file("sanctions.csv") });
    expect(counts(summary)).toMatchObject({ rowsRead: PAD + 3, rejected: 2 });
    expect(balanced(summary)).toBe(true);
    expect(summary.rejections.map((r) => r.reason)).toEqual([
      "sdn_entity must not contain NUL (U+0000)",
      "sdn_programs must not contain NUL (U+0000)",
    ]);
  });

  it("ledger: formatted fields with a NUL or a lone surrogate fail their format checks", async () => {
    for (const name of ["ledger.csv", "ledger.jsonl"] as const) {
      const summary = await importFile(store, { kind: "ledger", file: file(name) });
      expect(summary.added, name).toBe(name === "ledger.csv" ? PAD + 1 : 1);
      expect(summary.rejected, name).toBe(name === "ledger.csv" ? 3 : 2);
    }
  });
}

describe.each(STORES)("unstorable text in imports on the %s store", (_name, createStore) => {
  suite(createStore, (s) => s.close());
});

await withTestPostgres("unstorable text in imports on Postgres", ({ stores }) => {
  describe("unstorable text in imports on Postgres", () => {
    suite(
      () => stores.createStore(),
      (s) => stores.destroyStore(s),
    );
  });
});
