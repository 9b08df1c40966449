/**
 * Writes a generated ledger CSV for the import benchmark: testkit's realistic shape (hubs,
 * preferential attachment, heavy-tailed amounts, time order) with random-looking transaction
 * hashes and addresses, as real ones are (sequential keys would flatter every index).
 */

import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { ledgerRows } from "@openkyt/testkit";

/** 32 pseudo-random bits of (n, lane): a fixed mix, so the same n always gives the same hex. */
function mix(n: number, lane: number): number {
  let x = (Math.imul(n, 0x9e3779b1) ^ Math.imul(lane + 1, 0x85ebca6b)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d) >>> 0;
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

/** `words` x 8 hex characters derived from n. */
function hexOf(n: number, words: number): string {
  let out = "";
  for (let lane = 0; lane < words; lane++) out += mix(n, lane).toString(16).padStart(8, "0");
  return out;
}

/** A random-looking address for the generator's address number in `generated` (`0x000...n`). */
function addressOf(generated: string): string {
  return `0x${hexOf(Number.parseInt(generated.slice(-12), 16), 5)}`;
}

/** Writes `rows` ledger rows as CSV to `path`; answers the file's size in bytes. */
export async function writeLedgerCsv(path: string, rows: number): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  let buffer = "network,tx_hash,log_index,token_id,from,to,amount,occurred_at,block,value_usd\n";
  const tokens = [
    "native",
    "0xdac17f958d2ee523a2206206994597c13d831ec7",
    "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
  ];
  let i = 0;
  for (const row of ledgerRows({
    transfers: rows,
    tokens,
    seed: 42,
    days: 365,
    addresses: Math.max(10, rows / 4),
  })) {
    const hash = `0x${hexOf(i + 1, 8)}`;
    const logIndex = row.tokenId === "native" ? 0 : mix(i, 99) % 8;
    buffer += `${row.network},${hash},${logIndex},${row.tokenId},${addressOf(row.from)},${addressOf(row.to)},${row.amount},${row.occurredAt},${row.block},\n`;
    i++;
    if (buffer.length > 1 << 20) {
      bytes += buffer.length;
      if (!out.write(buffer)) await once(out, "drain");
      buffer = "";
    }
  }
  bytes += buffer.length;
  out.end(buffer);
  await once(out, "finish");
  return bytes;
}
