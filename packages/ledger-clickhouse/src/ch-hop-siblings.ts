/**
 * The senders' siblings of hubs (`LedgerReader.ledgerSenderSiblings`) where the rows are: per
 * hub, one query joins its incoming rows' (sender, time) pairs to the senders' outgoing rows at
 * those times, over the hop tables' keys, instead of a hub cache asking one outgoing read per 512
 * pairs (`sendersRows` in hub-cached-ledger.ts: the hundreds of reads a hub's first lumped read
 * cost). `GLOBAL IN`, so that a sharded ledger's subqueries run once, on the entry server.
 * Duplicates of a row (unmerged parts) come once.
 */
import type { LedgerTransfer } from "@openkyt/core";
import type { ChClient } from "./ch-client.js";
import { sqlString } from "./ch-escape.js";
import { hopKey } from "./ch-hop-read.js";
import { fromRow, type LedgerRow, SELECT_COLUMNS } from "./ch-ledger-row.js";

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
    const pairs = `SELECT from_address, occurred_at FROM ${db}.ledger_hop_in
      WHERE hop_key = ${hopKey(network, tokenId, address)} AND ${same}
        AND to_address = ${hub} AND from_address != ${hub}`;
    const rows = await client.rows<LedgerRow>(
      `SELECT ${SELECT_COLUMNS} FROM ${db}.ledger_hop_out
       WHERE hop_key GLOBAL IN (SELECT cityHash64(${sqlString(network)}, ${sqlString(tokenId)}, from_address) FROM (${pairs}))
         AND (from_address, occurred_at) GLOBAL IN (${pairs})
         AND ${same} AND to_address != ${hub}
       LIMIT 1 BY network, tx_hash, log_index`,
    );
    out.push(rows.map(fromRow));
  }
  return out;
}
