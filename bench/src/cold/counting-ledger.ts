/**
 * A `LedgerReader` that counts what passes through it, for the cold-worker benchmark: per
 * method, the calls, the frontier addresses asked and the rows answered (a lumped read's
 * presented and tail rows, and how many prefix rows it left unpresented). Put in front of the
 * tracer it tells how many rows a trace is given and by which kind of read; put in front of the
 * store under the hub cache it tells how many the database sent.
 */
import type { LedgerReader, LedgerTransfer } from "@openkyt/core";

/** What one method saw. */
export interface ReadTally {
  calls: number;
  queries: number;
  rows: number;
  /** Lumped reads only: prefix rows counted and not presented. */
  unpresented: number;
}

/** Tallies by method name. */
export type LedgerTallies = Record<string, ReadTally>;

function tallyOf(tallies: LedgerTallies, method: string): ReadTally {
  tallies[method] ??= { calls: 0, queries: 0, rows: 0, unpresented: 0 };
  return tallies[method];
}

/** `reader` with every call tallied into `tallies` (optional methods kept optional). */
export function countingLedger(reader: LedgerReader, tallies: LedgerTallies): LedgerReader {
  const rows = (method: string, queries: number, answer: ReadonlyArray<LedgerTransfer>) => {
    const t = tallyOf(tallies, method);
    t.calls += 1;
    t.queries += queries;
    t.rows += answer.length;
    return answer;
  };
  const counts = (method: string, queries: number, answer: ReadonlyArray<number>) => {
    const t = tallyOf(tallies, method);
    t.calls += 1;
    t.queries += queries;
    return answer;
  };
  const incomingCounts = reader.ledgerIncomingCounts?.bind(reader);
  const outgoingCounts = reader.ledgerOutgoingCounts?.bind(reader);
  const lumped = reader.ledgerIncomingLumped?.bind(reader);
  const siblings = reader.ledgerSenderSiblings?.bind(reader);
  return {
    ledgerIncoming: async (network, tokenId, queries, limit) =>
      rows("incoming", queries.length, await reader.ledgerIncoming(network, tokenId, queries, limit)),
    ledgerOutgoing: async (network, tokenId, queries, limit) =>
      rows("outgoing", queries.length, await reader.ledgerOutgoing(network, tokenId, queries, limit)),
    ...(incomingCounts
      ? {
          ledgerIncomingCounts: async (network, tokenId, queries) =>
            counts("incomingCounts", queries.length, await incomingCounts(network, tokenId, queries)),
        }
      : {}),
    ...(outgoingCounts
      ? {
          ledgerOutgoingCounts: async (network, tokenId, queries) =>
            counts("outgoingCounts", queries.length, await outgoingCounts(network, tokenId, queries)),
        }
      : {}),
    ...(lumped
      ? {
          ledgerIncomingLumped: async (network, tokenId, queries, screen) => {
            const answer = await lumped(network, tokenId, queries, screen);
            const t = tallyOf(tallies, "incomingLumped");
            t.calls += 1;
            t.queries += queries.length;
            for (const a of answer) {
              if (a === null) continue;
              t.rows += a.presented.length + a.tail.length;
              t.unpresented += a.prefixCount - a.presented.length;
            }
            return answer;
          },
        }
      : {}),
    ...(siblings
      ? {
          ledgerSenderSiblings: async (network, tokenId, addresses) => {
            const answer = await siblings(network, tokenId, addresses);
            const t = tallyOf(tallies, "senderSiblings");
            t.calls += 1;
            t.queries += addresses.length;
            for (const group of answer) t.rows += group.length;
            return answer;
          },
        }
      : {}),
  };
}

/** One line of tallies: `method calls/queries/rows[/unpresented]` per method. */
export function formatTallies(tallies: LedgerTallies): string {
  return Object.entries(tallies)
    .map(
      ([m, t]) =>
        `${m} ${t.calls}/${t.queries}/${t.rows}${m === "incomingLumped" ? `/${t.unpresented}` : ""}`,
    )
    .join(" ");
}
