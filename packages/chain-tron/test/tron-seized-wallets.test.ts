/**
 * The real TRC-20 transfers of the wallets Israel's NBCTF seized (10,827 rows, 2020-2023, mostly
 * USDT), read in place from the development environment's shared data folder
 * (`../shared/data/transfer-graphs/israel-nbctf-aso-tron/` beside the project, or
 * OPENKYT_SHARED_DATA), never copied. Each transfer is written as a Tron node's transaction info
 * carries it (the contract's 20-byte hex, topics holding the two accounts, the amount in raw
 * units) and decoded back through this package: every address survives Base58Check both ways
 * and every amount its decimals. The decoded ledger is then screened: deposits into exchanges
 * (the counterparties Tronscan tags) from the seized wallets are flagged against the seizure
 * list. Without the folder the test is skipped, saying so.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createEngine, createMemoryStore, type LedgerTransfer } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { decodeTrc20Logs, TRANSFER_TOPIC, trc20Rows, tronBase58ToHex } from "../src/index.js";

const DATA =
  process.env.OPENKYT_SHARED_DATA ??
  resolve(fileURLToPath(new URL(".", import.meta.url)), "../../../../shared/data");
const FOLDER = join(DATA, "transfer-graphs", "israel-nbctf-aso-tron");
const present = existsSync(join(FOLDER, "trc20_xfers.csv"));
if (!present) console.log(`Tron seized-wallet test skipped: no ${FOLDER} (set OPENKYT_SHARED_DATA)`);

/** Rows of a CSV without quoted fields (the files have none), header dropped. */
function rowsOf(file: string): string[][] {
  return readFileSync(join(FOLDER, file), "utf8")
    .split("\n")
    .slice(1)
    .filter((line) => line.trim() !== "")
    .map((line) => line.split(","));
}

const word = (base58: string) => {
  const hex = tronBase58ToHex(base58);
  if (hex === null) throw new Error(`${base58} is not a Tron address`);
  return `000000000000000000000000${hex.slice(2)}`;
};

describe.skipIf(!present)("real TRC-20 transfers of seized wallets", () => {
  it("decode back to themselves through a node's transaction info, and screen deposits into exchanges", async () => {
    const started = performance.now();
    const transfers = rowsOf("trc20_xfers.csv");
    expect(transfers).toHaveLength(10_827);
    const ledger: LedgerTransfer[] = [];
    const tags = new Map<string, string>();
    const tokens = new Map<string, number>();
    const perTx = new Map<string, number>();
    const mismatches: string[] = [];
    for (const cells of transfers) {
      const [, timestamp, txId, , , from, fromTag, to, toTag, quant, tokenId, , , decimals] = cells;
      if (!timestamp || !txId || !from || !to || !quant || !tokenId || !decimals)
        throw new Error(`short row ${cells}`);
      tokens.set(tokenId, Number(decimals));
      if (fromTag) tags.set(from, fromTag);
      if (toTag) tags.set(to, toTag);
      const contractHex = tronBase58ToHex(tokenId);
      if (contractHex === null) throw new Error(`${tokenId} is not a Tron address`);
      const info = decodeTrc20Logs({
        id: txId,
        blockNumber: 1,
        blockTimeStamp: Number(timestamp),
        receipt: { result: "SUCCESS" },
        log: [
          {
            address: contractHex.slice(2),
            topics: [TRANSFER_TOPIC, word(from), word(to)],
            data: BigInt(quant).toString(16).padStart(64, "0"),
          },
        ],
      });
      const catalog = {
        token: async (_: string, id: string) =>
          tokens.has(id)
            ? { network: "TRX", tokenId: id, symbol: "?", decimals: tokens.get(id) ?? 0, name: null }
            : null,
        bySymbol: async () => null,
      };
      const rows = await trc20Rows(txId, info, 1, Number(timestamp), catalog, () => {
        throw new Error(`unknown token ${tokenId}`);
      });
      if (BigInt(quant) === 0n) {
        if (rows.length !== 0) mismatches.push(`${txId}: a zero transfer was kept`);
        continue;
      }
      const row = rows[0];
      // The nearest double to the exact quotient; a float division may be one ulp away from it.
      const approx = Number(quant) / 10 ** Number(decimals);
      if (
        rows.length !== 1 ||
        row === undefined ||
        row.from !== from ||
        row.to !== to ||
        row.tokenId !== tokenId ||
        Math.abs(row.amount - approx) > Number.EPSILON * Math.max(1, approx)
      ) {
        mismatches.push(`${txId}: ${JSON.stringify(rows)}`);
        continue;
      }
      // Rows of one transaction share a hash: number them as the position in the transaction.
      const position = perTx.get(row.txHash) ?? 0;
      perTx.set(row.txHash, position + 1);
      ledger.push({ ...row, logIndex: position, block: null });
    }
    const decodeMs = performance.now() - started;
    expect(mismatches).toEqual([]);

    // Screen: the seized wallets as a list, deposits into tagged exchanges registered.
    const seized = rowsOf("tron_wallets.csv")
      .map((cells) => cells[1] ?? "")
      .filter((a) => tronBase58ToHex(a) !== null);
    const store = createMemoryStore();
    const engine = createEngine({ store });
    await engine.reference.loadLedger(ledger);
    await engine.reference.loadSanctions(
      seized.map((address) => ({
        network: "TRX",
        address,
        listName: "IL-NBCTF",
        program: "administrative seizure order",
        entity: null,
        listedAt: null,
        delistedAt: null,
      })),
    );
    const seizedSet = new Set(seized);
    const deposits = ledger
      .filter((r) => seizedSet.has(r.from) && tags.has(r.to) && !seizedSet.has(r.to))
      .slice(0, 200);
    const kyt = engine.forAccount("exchange");
    const ids: string[] = [];
    for (const d of deposits) {
      const { transfer } = await kyt.registerTransfer({
        direction: "incoming",
        network: "TRX",
        tx_hash: d.txHash,
        output_address: d.to,
        token_id: d.tokenId,
      });
      ids.push(transfer.id);
    }
    await engine.drain();
    let flagged = 0;
    for (const id of ids) {
      const t = await kyt.getTransfer(id);
      expect(t.tx_status).toBe("bound");
      if (t.risk_level === "severe") flagged += 1;
    }
    console.log(
      `Tron seized wallets: ${ledger.length} TRC-20 transfers decoded in ${Math.round(decodeMs)} ms; ${seized.length} seized wallets; ${flagged} of ${deposits.length} deposits into tagged exchanges from them flagged severe`,
    );
    expect(deposits.length).toBeGreaterThan(0);
    expect(flagged).toBe(deposits.length);
  }, 120_000);
});
