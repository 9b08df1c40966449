/**
 * Hash lookups of one turn of the event loop joined into one read per network: each caller gets
 * its transaction's rows by log index, as a lookup alone would; a failed read fails its callers;
 * the store chain source uses it when the store reads several hashes at once.
 */
import { describe, expect, it } from "vitest";
import { makeLedgerTransfer } from "../../../testkit/src/store-factories.js";
import type { LedgerTransfer } from "../../src/domain/records.js";
import { joinedHashLookups } from "../../src/engine/sources/joined-hash-lookups.js";
import { storeChainSource } from "../../src/engine/sources/store-sources.js";
import { createMemoryStore } from "../../src/store/index.js";

describe("joinedHashLookups", () => {
  it("answers every caller with its own rows, by log index, from one read per network", async () => {
    const rows = [
      makeLedgerTransfer({ txHash: "0xa", logIndex: 2 }),
      makeLedgerTransfer({ txHash: "0xb", logIndex: 0 }),
      makeLedgerTransfer({ txHash: "0xa", logIndex: 0 }),
    ];
    const reads: Array<[string, ReadonlyArray<string>]> = [];
    const lookup = joinedHashLookups(async (network, hashes) => {
      reads.push([network, hashes]);
      return rows.filter((r) => r.network === network && hashes.includes(r.txHash));
    });
    const [a, b, none, again, bsc] = await Promise.all([
      lookup("ETH", "0xa"),
      lookup("ETH", "0xb"),
      lookup("ETH", "0xnone"),
      lookup("ETH", "0xa"),
      lookup("BSC", "0xa"),
    ]);
    expect(a?.map((r: LedgerTransfer) => r.logIndex)).toEqual([0, 2]);
    expect(again).toEqual(a);
    expect(b).toEqual([rows[1]]);
    expect(none).toEqual([]);
    expect(bsc).toEqual([]);
    expect(reads).toEqual([
      ["ETH", ["0xa", "0xb", "0xnone"]],
      ["BSC", ["0xa"]],
    ]);
    await lookup("ETH", "0xb");
    expect(reads).toHaveLength(3);
  });

  it("fails every caller of a failed read", async () => {
    const lookup = joinedHashLookups(async () => {
      throw new Error("connection reset");
    });
    const settled = await Promise.allSettled([lookup("ETH", "0xa"), lookup("ETH", "0xb")]);
    expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected"]);
  });

  it("gives the store chain source's lookups the rows a lookup alone gives", async () => {
    const store = createMemoryStore();
    const rows = [0, 1].map((logIndex) => makeLedgerTransfer({ txHash: "0xt", logIndex }));
    await store.putLedgerTransfers(rows);
    const chain = storeChainSource(store);
    const [found, missing] = await Promise.all([chain.lookup("ETH", "0xt"), chain.lookup("ETH", "0xu")]);
    expect(found).toEqual({ kind: "found", transfers: await store.ledgerByTxHash("ETH", "0xt") });
    expect(missing).toEqual({ kind: "not_found" });
  });
});
