/**
 * The ledger's fast write path: rows streamed into INSERTs of RowBinary (see ch-row-binary.ts).
 *
 * Rows are encoded as they come, into INSERTs of `rowsPerInsert` rows each (default 2,097,152),
 * each sent with max_insert_block_size set to that many rows, so one INSERT is one block: one
 * part per table, and one atomic unit. A finished INSERT is sent while the next one is encoded,
 * with at most `inFlight` INSERTs at the server at once, so the client's encoding, the server's
 * parsing and its writing of parts overlap. Each INSERT's body is kept until the server answers,
 * so a failed INSERT is sent again under the client's retry policy (the ledger's keys make a
 * repeat harmless); once answered, its buffers are encoded into again (no new megabyte per chunk).
 *
 * Why 2,097,152 rows: the server's work per row falls by about a sixth against the 1,048,576 of
 * its default block (half the parts to merge; docs/benchmarks.md, "ClickHouse merge settings"),
 * for about 0.45 GB of client memory per INSERT body (three bodies at most: `inFlight` sent, one
 * being encoded). Blocks of 4,194,304 rows passed 4 GB of server memory on their way through the
 * hop views, so the size stays at 2M.
 */
import type { LedgerTransfer } from "@openkyt/core";
import { KytError } from "@openkyt/core";
import type { ChClient } from "./ch-client.js";
import { RowBinaryEncoder } from "./ch-row-binary.js";
import { LEDGER_COLUMNS } from "./ch-schema.js";

/** Options of {@link ingestLedgerRows}. */
export interface LedgerIngestOptions {
  /** Rows per INSERT, and the block size sent with it (default 2,097,152). */
  readonly rowsPerInsert?: number;
  /** Most INSERTs at the server at once (default 2). */
  readonly inFlight?: number;
}

/** Streams `rows` into `table` (RowBinary INSERTs); resolves to the rows sent once all are stored. */
export async function ingestLedgerRows(
  client: ChClient,
  table: string,
  rows: Iterable<LedgerTransfer> | AsyncIterable<LedgerTransfer>,
  options: LedgerIngestOptions = {},
): Promise<number> {
  const perInsert = positive(options.rowsPerInsert ?? DEFAULT_ROWS_PER_INSERT, "rowsPerInsert");
  const inFlight = positive(options.inFlight ?? 2, "inFlight");
  const encoder = new RowBinaryEncoder();
  const pending = new Set<Promise<void>>();
  let failed: unknown = null;
  let chunks: Buffer[] = [];
  let inBody = 0;
  let total = 0;

  const send = async (body: Buffer[]) => {
    while (pending.size >= inFlight) await Promise.race(pending);
    if (failed !== null) return;
    const sent: Promise<void> = client
      .insertBody(table, LEDGER_COLUMNS, "RowBinary", body, perInsert)
      .then(() => encoder.recycle(body))
      .catch((error: unknown) => {
        failed ??= error;
      })
      .finally(() => pending.delete(sent));
    pending.add(sent);
  };

  // One row in; a finished INSERT comes back to be sent.
  const take = (row: LedgerTransfer): Buffer[] | null => {
    const chunk = encoder.push(row);
    if (chunk) chunks.push(chunk);
    inBody += 1;
    total += 1;
    if (inBody < perInsert) return null;
    chunks.push(encoder.flush());
    const body = chunks;
    chunks = [];
    inBody = 0;
    return body;
  };
  try {
    // A plain iterable is read in a plain loop: `for await` would cost a promise per row.
    if (Symbol.iterator in rows) {
      let filled = 0;
      for (const row of rows) {
        const body = take(row);
        if (body) await send(body);
        else if (chunks.length !== filled) {
          // A chunk (about 1 MiB) done: let the sockets move the INSERTs already sent.
          filled = chunks.length;
          await new Promise((resolve) => setImmediate(resolve));
        }
        if (failed !== null) break;
      }
    } else {
      for await (const row of rows) {
        const body = take(row);
        if (body) await send(body);
        if (failed !== null) break;
      }
    }
  } catch (error) {
    // A bad row (or a failing source): the INSERTs already sent finish, the rest is not sent.
    await Promise.all(pending);
    throw error;
  }
  if (failed === null && inBody > 0) {
    chunks.push(encoder.flush());
    await send(chunks);
  }
  await Promise.all(pending);
  if (failed !== null) {
    throw failed instanceof KytError
      ? failed
      : new KytError("STORE_ERROR", `ClickHouse ledger ingest failed: ${String(failed)}`, { cause: failed });
  }
  return total;
}

/** Rows per INSERT and per block by default (twice the server's default max_insert_block_size). */
export const DEFAULT_ROWS_PER_INSERT = 2_097_152;

function positive(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new KytError("VALIDATION_ERROR", `${name}: expected a positive integer, got ${value}`);
  }
  return value;
}
