/**
 * Origin of funds (incoming transfers) and destination of funds (outgoing transfers) by value
 * share, hop by hop over the ledger. See docs/risk-model.md for the exact rules.
 */
import type { Direction } from "../domain/enums.js";
import type { ExposureResult, Millis } from "../domain/records.js";
import { fieldError } from "../errors.js";
import type { LedgerReader } from "../ports/ledger-reader.js";
import type { EntityResolver } from "./entity-resolver.js";
import { ExposureTally } from "./exposure-tally.js";
import { runFrontierTrace } from "./frontier-trace.js";
import type { TimeSpan } from "./sanctions-as-of.js";
import { rootNode } from "./trace-node.js";

/** Default deepest hop of a trace. */
export const DEFAULT_MAX_HOPS = 5;
/** Default number of ledger edges a trace may read. */
export const DEFAULT_EDGE_BUDGET = 10_000;

/** What {@link traceTransferExposure} needs. */
export interface TransferExposureInput {
  readonly ledger: LedgerReader;
  readonly resolver: EntityResolver;
  readonly network: string;
  readonly tokenId: string;
  readonly direction: Direction;
  /** The other side: the sender of an incoming transfer, the recipient of an outgoing one. */
  readonly counterparty: string;
  /** When the transfer happened. */
  readonly at: Millis;
  /** The transfer's value in USD, when known. */
  readonly value: number | null;
  /** Sanctions validity window: from the transfer's time to the check's time. */
  readonly span: TimeSpan;
  /** Deepest hop (1 = the counterparty itself); default 5. */
  readonly maxHops?: number;
  /** Ledger edges the trace may read; default 10,000. */
  readonly edgeBudget?: number;
}

/** Checks the trace limits; throws a field-named validation error. */
export function checkTraceLimits(maxHops: number, edgeBudget: number): void {
  if (!Number.isInteger(maxHops) || maxHops < 1) throw fieldError("maxHops", "must be an integer >= 1");
  if (!Number.isInteger(edgeBudget) || edgeBudget < 0) {
    throw fieldError("edgeBudget", "must be an integer >= 0");
  }
}

/**
 * Traces a transfer's exposure. If the counterparty resolves to an entity, the transfer is a
 * direct interaction with it (one share of 1.0). Otherwise the value is split by amount over the
 * counterparty's incoming transfers strictly before `at` (outgoing: its outgoing transfers
 * strictly after `at`), attributed addresses taking their weight (indirect), unattributed ones
 * split again before (after) the time of the connecting transfer. Weight at an unattributed
 * address of hop `maxHops`, at an address with no such transfer, or left unread when the edge
 * budget runs out is `undefined`. The result is frozen; shares sum to 1.
 */
export async function traceTransferExposure(input: TransferExposureInput): Promise<ExposureResult> {
  const maxHops = input.maxHops ?? DEFAULT_MAX_HOPS;
  const edgeBudget = input.edgeBudget ?? DEFAULT_EDGE_BUDGET;
  checkTraceLimits(maxHops, edgeBudget);
  const { counterparty, value } = input;
  const self = (await input.resolver.resolve(input.network, [counterparty], input.span)).get(counterparty);
  if (self) {
    const share = Object.freeze({
      category: self.category,
      proximity: "direct" as const,
      share: 1,
      valueInFiat: value,
      entityNames: Object.freeze([self.name]),
      minHops: 1,
      path: Object.freeze([counterparty]),
    });
    return Object.freeze({
      direct: Object.freeze({ name: self.name, category: self.category, valueInFiat: value }),
      shares: Object.freeze([share]),
      truncated: false,
      edgesRead: 0,
      hops: 1,
    });
  }
  const tally = new ExposureTally();
  const outcome = await runFrontierTrace({
    ledger: input.ledger,
    resolver: input.resolver,
    network: input.network,
    tokenId: input.tokenId,
    forward: input.direction === "outgoing",
    span: input.span,
    maxHops,
    edgeBudget,
    roots: [rootNode(counterparty, input.at, 1)],
    proximityAt: () => "indirect",
    tally,
  });
  return Object.freeze({ direct: null, shares: tally.finish(value), ...outcome });
}
