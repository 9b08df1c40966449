/**
 * The hop-by-hop walk over the UTXO ledger: the frontier is a set of coins (outpoints), each
 * with the weight of the traced value it holds. Backward, a coin is followed into the
 * transaction that created it and split over that transaction's inputs; forward, into the
 * transaction that spent it and split over its outputs (the split is the taint rule's,
 * `utxo-taint-rules.ts`). Per hop: one ledger call per chunk of transactions, heaviest coin
 * first, within the edge budget (an edge is an input or output read), then one resolver call
 * for the new addresses. Same limits and explanations as the account-model walk
 * (`frontier-trace.ts`): a path lists the addresses of the coins from the start and, per hop,
 * the coin's `txid:vout`.
 */
import { UNDEFINED_CATEGORY } from "../domain/entity-categories.js";
import type { Proximity } from "../domain/enums.js";
import { outpointKey, type SpendingInput, type UtxoTransaction } from "../domain/utxo.js";
import type { UtxoLedgerReader } from "../ports/utxo-ledger.js";
import type { EntityResolver, ResolvedEntity } from "./entity-resolver.js";
import type { ExposureTally } from "./exposure-tally.js";
import type { FrontierTraceOutcome } from "./frontier-trace.js";
import type { TimeSpan } from "./sanctions-as-of.js";
import { backwardParts, forwardParts, type UtxoTaintRule } from "./utxo-taint-rules.js";

/** Most transactions asked of the ledger in one call. */
export const UTXO_CHUNK_SIZE = 500;

/** The category of newly mined coins (a coinbase input is where their trail starts). */
export const MINING_CATEGORY = "mining";

/** One coin of a trace. Built and merged only inside a walk. */
export interface CoinNode {
  readonly txid: string;
  readonly vout: number;
  /** The address the coin pays; null for a script that names none. */
  readonly address: string | null;
  /** The coin's value in base units (satoshis). */
  readonly value: number;
  /** The input that spent it, when known (what a forward walk follows). */
  readonly spentBy: SpendingInput | null;
  weight: number;
  readonly hop: number;
  /** The coin the weight came through (the largest part's); null at the start. */
  parent: CoinNode | null;
  largestPart: number;
}

/** What a walk needs. `roots` are unresolved coins still to follow. */
export interface UtxoTraceInput {
  readonly ledger: UtxoLedgerReader;
  readonly resolver: EntityResolver;
  readonly network: string;
  readonly span: TimeSpan;
  /** true: follow each coin into the transaction that spent it; false: into the one that made it. */
  readonly forward: boolean;
  readonly rule: UtxoTaintRule;
  readonly maxHops: number;
  readonly edgeBudget: number;
  readonly minPathWeight: number;
  readonly roots: ReadonlyArray<CoinNode>;
  readonly proximityAt: (hop: number) => Proximity;
  readonly tally: ExposureTally;
}

/** A start coin of weight `weight`. */
export function rootCoin(
  coin: {
    readonly txid: string;
    readonly vout: number;
    readonly address: string | null;
    readonly value: number;
    readonly spentBy: SpendingInput | null;
  },
  weight: number,
  hop: number,
): CoinNode {
  return {
    txid: coin.txid,
    vout: coin.vout,
    address: coin.address,
    value: coin.value,
    spentBy: coin.spentBy,
    weight,
    hop,
    parent: null,
    largestPart: weight,
  };
}

/** The label of a coin in a path: its address, or its outpoint when its script names none. */
function labelOf(n: CoinNode): string {
  return n.address ?? outpointKey(n.txid, n.vout);
}

/** Addresses, outpoints and coin values from the start to `node`. */
function explain(node: CoinNode): {
  addresses: string[];
  txHashes: string[];
  values: number[];
  startHop: number;
} {
  const addresses: string[] = [];
  const txHashes: string[] = [];
  const values: number[] = [];
  let startHop = node.hop;
  for (let n: CoinNode | null = node; n !== null; n = n.parent) {
    addresses.push(labelOf(n));
    txHashes.push(outpointKey(n.txid, n.vout));
    values.push(n.value);
    startHop = n.hop;
  }
  return { addresses: addresses.reverse(), txHashes: txHashes.reverse(), values: values.reverse(), startHop };
}

/** Heaviest first, then by outpoint, so a walk is deterministic. */
function compareCoins(a: CoinNode, b: CoinNode): number {
  if (a.weight !== b.weight) return b.weight - a.weight;
  if (a.txid !== b.txid) return a.txid < b.txid ? -1 : 1;
  return a.vout - b.vout;
}

/** The transaction a coin is followed into, or null when there is none (an unspent coin, forward). */
function nextTxid(n: CoinNode, forward: boolean): string | null {
  return forward ? (n.spentBy?.txid ?? null) : n.txid;
}

/** Walks from `roots` until every weight is attributed or counted as `undefined`. */
export async function runUtxoTrace(input: UtxoTraceInput): Promise<FrontierTraceOutcome> {
  const { tally, proximityAt, maxHops, minPathWeight, forward } = input;
  const known = new Map<string, ResolvedEntity | null>();
  const unexplained = (n: CoinNode, weight = n.weight): void =>
    tally.credit(UNDEFINED_CATEGORY, null, weight, n.hop, proximityAt(n.hop), () => explain(n));
  let frontier = [...input.roots].sort(compareCoins);
  let edgesRead = 0;
  let truncated = false;
  let hops = frontier.reduce((m, n) => Math.max(m, n.hop), 0);
  while (frontier.length > 0) {
    const toFollow: CoinNode[] = [];
    for (const n of frontier) {
      if (n.hop >= maxHops || n.weight < minPathWeight || nextTxid(n, forward) === null) unexplained(n);
      else toFollow.push(n);
    }
    const children = new Map<string, CoinNode>();
    let pending = toFollow;
    while (pending.length > 0) {
      const remaining = input.edgeBudget - edgesRead;
      if (remaining <= 0) {
        for (const n of pending) unexplained(n);
        truncated = true;
        break;
      }
      const [chunk, rest] = takeChunk(pending, forward);
      pending = rest;
      const read = await input.ledger.utxoTransactions(
        input.network,
        chunk.map((n) => nextTxid(n, forward)!),
      );
      const txs = new Map(read.map((tx) => [tx.txid, tx]));
      let left = remaining;
      for (const n of chunk) {
        const tx = txs.get(nextTxid(n, forward)!);
        if (!tx) {
          unexplained(n); // the ledger does not hold it: the trail ends here
          continue;
        }
        const edges = forward ? tx.outputs.length : tx.inputs.length;
        if (edges > left) {
          unexplained(n); // does not fit in what is left; lighter coins may
          truncated = true;
          continue;
        }
        left -= edges;
        edgesRead += edges;
        split(n, tx, input, children, unexplained);
      }
    }
    frontier = [...children.values()].sort(compareCoins);
    if (frontier.length === 0) break;
    hops = Math.max(hops, frontier[0]!.hop);
    const ask = [...new Set(frontier.map((n) => n.address))].filter(
      (a): a is string => a !== null && !known.has(a),
    );
    if (ask.length > 0) {
      const found = await input.resolver.resolve(input.network, ask, input.span);
      for (const a of ask) known.set(a, found.get(a) ?? null);
    }
    frontier = frontier.filter((n) => {
      const entity = n.address === null ? null : known.get(n.address);
      if (!entity) return true;
      tally.credit(entity.category, entity.name, n.weight, n.hop, proximityAt(n.hop), () => ({
        ...explain(n),
        ...(entity.cluster ? { cluster: entity.cluster } : {}),
      }));
      return false;
    });
  }
  return { edgesRead, hops, truncated };
}

/** The next chunk: heaviest first, at most {@link UTXO_CHUNK_SIZE} transactions. */
function takeChunk(pending: ReadonlyArray<CoinNode>, forward: boolean): [CoinNode[], CoinNode[]] {
  const chunk: CoinNode[] = [];
  const rest: CoinNode[] = [];
  const txids = new Set<string>();
  for (const n of pending) {
    const txid = nextTxid(n, forward)!;
    if (txids.has(txid) || txids.size < UTXO_CHUNK_SIZE) {
      txids.add(txid);
      chunk.push(n);
    } else rest.push(n);
  }
  return [chunk, rest];
}

/**
 * Splits coin `n` over `tx` (the transaction that made it, backward; that spent it, forward)
 * by the rule, merging the parts into `into` by outpoint. What no part carries (the fee of a
 * forward FIFO split, an output worth nothing) is unexplained; a coinbase's coins are credited
 * to mining.
 */
function split(
  n: CoinNode,
  tx: UtxoTransaction,
  input: UtxoTraceInput,
  into: Map<string, CoinNode>,
  unexplained: (n: CoinNode, weight?: number) => void,
): void {
  const { forward, rule, tally, proximityAt } = input;
  if (!forward && tx.coinbase) {
    tally.credit(MINING_CATEGORY, null, n.weight, n.hop + 1, proximityAt(n.hop + 1), () => explain(n));
    return;
  }
  const outputIndex = forward ? -1 : tx.outputs.findIndex((o) => o.vout === n.vout);
  const inputIndex = forward ? (n.spentBy?.vin ?? -1) : -1;
  const parts = forward ? forwardParts(tx, inputIndex, rule) : backwardParts(tx, outputIndex, rule);
  let carried = 0;
  for (const { index, fraction } of parts) {
    const part = n.weight * fraction;
    carried += part;
    let coin: {
      txid: string;
      vout: number;
      address: string | null;
      value: number;
      spentBy: SpendingInput | null;
    };
    if (forward) {
      const o = tx.outputs[index]!;
      coin = { txid: tx.txid, vout: o.vout, address: o.address, value: o.value, spentBy: o.spentBy };
    } else {
      const i = tx.inputs[index]!;
      if (i.coinbase || i.prevTxid === null || i.prevVout === null) continue;
      coin = {
        txid: i.prevTxid,
        vout: i.prevVout,
        address: i.address,
        value: i.value,
        spentBy: { txid: tx.txid, vin: index },
      };
    }
    const key = outpointKey(coin.txid, coin.vout);
    const met = into.get(key);
    if (!met) {
      into.set(key, { ...coin, weight: part, hop: n.hop + 1, parent: n, largestPart: part });
    } else {
      met.weight += part;
      if (part > met.largestPart) {
        met.largestPart = part;
        met.parent = n;
      }
    }
  }
  const lost = n.weight - carried;
  if (lost > n.weight * 1e-12) unexplained(n, lost);
}
