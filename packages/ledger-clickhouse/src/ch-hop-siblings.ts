/**
 * The senders' siblings of hubs (`LedgerReader.ledgerSenderSiblings`) where the rows are: per
 * hub, its incoming rows' distinct (sender, time) pairs (one read of its hop key), then the
 * senders' outgoing rows at those times, `PAIRS_PER_QUERY` pairs a query, instead of a hub cache
 * asking one outgoing read per 512 pairs (`sendersRows` in hub-cached-ledger.ts). The senders'
 * hop keys are literals, as in the hops (ch-hop-read.ts): 18.16 narrows a read to key ranges by
 * literals only, so `hop_key IN (subquery)` would read the whole table per hub. Duplicates of a
 * row (unmerged parts) come once.
 */
import type { LedgerTransfer } from "@openkyt/core";
import type { ChClient } from "./ch-client.js";
import { sqlInt, sqlString, sqlStringList } from "./ch-escape.js";
import { hopKey } from "./ch-hop-read.js";
import { fromRow, type LedgerRow, SELECT_COLUMNS } from "./ch-ledger-row.js";

/** (sender, time) pairs per query: the query text stays well under the server's 256 KiB max_query_size. */
const PAIRS_PER_QUERY = 1_000;

/** Per hub of `addresses`, in order, its senders' other rows at the times they sent to it. */
export async function senderSiblings(
  client: ChClient,
  db: string,
  network: string,
  tokenId: string,
  addresses: ReadonlyArray<string>,
): Promise<LedgerTransfer[][]> {
  const out: LedgerTransfer[][] = [];
  const same = `network = ${sqlString(network)} AND token_id = ${sqlString(tokenId)}`;
  for (const address of addresses) {
    const hub = sqlString(address);
    const pairs = await client.rows<{ from_address: string; occurred_at: number | string }>(
      `SELECT DISTINCT from_address, occurred_at FROM ${db}.ledger_hop_in
       WHERE hop_key = ${hopKey(network, tokenId, address)} AND ${same}
         AND to_address = ${hub} AND from_address != ${hub}`,
    );
    const seen = new Set<string>();
    const rows: LedgerTransfer[] = [];
    for (let i = 0; i < pairs.length; i += PAIRS_PER_QUERY) {
      const chunk = pairs.slice(i, i + PAIRS_PER_QUERY);
      const senders = [...new Set(chunk.map((p) => p.from_address))];
      const tuples = chunk.map((p) => `(${sqlString(p.from_address)}, ${sqlInt(Number(p.occurred_at))})`);
      const found = await client.rows<LedgerRow>(
        `SELECT ${SELECT_COLUMNS} FROM ${db}.ledger_hop_out
         WHERE hop_key IN (${senders.map((s) => hopKey(network, tokenId, s)).join(", ")})
           AND ${same} AND from_address IN (${sqlStringList(senders)})
           AND (from_address, occurred_at) IN (${tuples.join(", ")}) AND to_address != ${hub}
         LIMIT 1 BY network, tx_hash, log_index`,
      );
      // A sender at one time may fall in two chunks' pairs only once (pairs are distinct), but
      // a row is kept once whatever the chunks.
      for (const r of found) {
        const key = `${r.tx_hash}\u0000${r.log_index}`;
        if (seen.has(key)) continue;
        seen.add(key);
        rows.push(fromRow(r));
      }
    }
    out.push(rows);
  }
  return out;
}
