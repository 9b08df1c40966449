/**
 * Hop counts of concurrent traces asked of the store together. A check batch runs its traces at
 * once (`inlineTraceExecutor`: 64 checks, two traces each), and on a store that counts its hops
 * (Postgres, ClickHouse) every trace asks one count statement per hop: 6.4 statements per
 * screened transfer on the benchmark ledger, most of a cold worker's round trips. Traces started
 * together stay nearly in step (each resumes when its count is answered), so the counts of one
 * hop of many traces arrive within one turn of the event loop. {@link coalescedCounts} holds
 * them until that turn ends (`setImmediate`), asks the store once per direction, network and
 * token with every query in the order they came, and gives each caller its own counts back.
 *
 * Answers are unchanged: a count is per query (`LedgerReader.ledgerIncomingCounts`), so counting
 * queries together gives each the count it would have alone. Only the counts are joined; reads,
 * lumped reads and everything else go to the store as they come.
 */
import { KytError } from "../../errors.js";
import type { IncomingQuery, LedgerReader, OutgoingQuery } from "../../ports/ledger-reader.js";

/** Most queries in one joined count; more are asked in several (a statement's size stays bounded). */
export const COALESCED_COUNT_QUERIES = 8_192;

/** One caller's counts waiting for the joined statement. */
interface Waiting {
  readonly queries: ReadonlyArray<IncomingQuery | OutgoingQuery>;
  readonly resolve: (counts: ReadonlyArray<number>) => void;
  readonly reject: (error: unknown) => void;
}

/** The calls of one direction, network and token since the last flush. */
interface Group {
  readonly incoming: boolean;
  readonly network: string;
  readonly tokenId: string;
  readonly waiting: Waiting[];
}

/**
 * `inner`'s reads with its hop counts of one event-loop turn asked together (see the module);
 * `inner` itself when it does not count. Every other member of the port is `inner`'s own (an
 * optional member the port gains must be passed on here too).
 */
export function coalescedCounts(inner: LedgerReader): LedgerReader {
  const countIn = inner.ledgerIncomingCounts?.bind(inner);
  const countOut = inner.ledgerOutgoingCounts?.bind(inner);
  if (!countIn && !countOut) return inner;
  let groups = new Map<string, Group>();
  let scheduled = false;

  /** Asks `group`'s queries in joined statements and answers each caller. */
  const ask = async (group: Group): Promise<void> => {
    const all = group.waiting.flatMap((w) => w.queries);
    const counts: number[] = [];
    for (let i = 0; i < all.length; i += COALESCED_COUNT_QUERIES) {
      const chunk = all.slice(i, i + COALESCED_COUNT_QUERIES);
      const answer = group.incoming
        ? await (countIn as NonNullable<typeof countIn>)(
            group.network,
            group.tokenId,
            chunk as IncomingQuery[],
          )
        : await (countOut as NonNullable<typeof countOut>)(
            group.network,
            group.tokenId,
            chunk as OutgoingQuery[],
          );
      if (answer.length !== chunk.length) {
        throw new KytError(
          "STORE_ERROR",
          `a joined hop count answered ${answer.length} counts for ${chunk.length} queries`,
        );
      }
      for (const n of answer) counts.push(n);
    }
    let at = 0;
    for (const w of group.waiting) {
      w.resolve(counts.slice(at, at + w.queries.length));
      at += w.queries.length;
    }
  };

  const flush = (): void => {
    scheduled = false;
    const due = groups;
    groups = new Map();
    for (const group of due.values()) {
      if (group.waiting.length === 1) {
        // Alone this turn: asked as it came, with no copy.
        const [only] = group.waiting as [Waiting];
        const answer = group.incoming
          ? (countIn as NonNullable<typeof countIn>)(
              group.network,
              group.tokenId,
              only.queries as IncomingQuery[],
            )
          : (countOut as NonNullable<typeof countOut>)(
              group.network,
              group.tokenId,
              only.queries as OutgoingQuery[],
            );
        answer.then(only.resolve, only.reject);
        continue;
      }
      ask(group).catch((error: unknown) => {
        for (const w of group.waiting) w.reject(error);
      });
    }
  };

  const count = (
    incoming: boolean,
    network: string,
    tokenId: string,
    queries: ReadonlyArray<IncomingQuery | OutgoingQuery>,
  ): Promise<ReadonlyArray<number>> => {
    if (queries.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      const key = `${incoming ? "in" : "out"}\u0000${network}\u0000${tokenId}`;
      let group = groups.get(key);
      if (!group) {
        group = { incoming, network, tokenId, waiting: [] };
        groups.set(key, group);
      }
      group.waiting.push({ queries, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
  };

  return {
    ledgerIncoming: inner.ledgerIncoming.bind(inner),
    ledgerOutgoing: inner.ledgerOutgoing.bind(inner),
    ...(countIn
      ? {
          ledgerIncomingCounts: (network: string, tokenId: string, q: ReadonlyArray<IncomingQuery>) =>
            count(true, network, tokenId, q),
        }
      : {}),
    ...(countOut
      ? {
          ledgerOutgoingCounts: (network: string, tokenId: string, q: ReadonlyArray<OutgoingQuery>) =>
            count(false, network, tokenId, q),
        }
      : {}),
    ...(inner.ledgerIncomingLumped ? { ledgerIncomingLumped: inner.ledgerIncomingLumped.bind(inner) } : {}),
    ...(inner.ledgerSenderSiblings ? { ledgerSenderSiblings: inner.ledgerSenderSiblings.bind(inner) } : {}),
  };
}
