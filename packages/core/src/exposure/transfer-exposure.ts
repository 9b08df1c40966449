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
import { runFrontierTrace, traceSourceOf } from "./frontier-trace.js";
import { type LedgerPosition, timePosition } from "./ledger-position.js";
import type { TimeSpan } from "./sanctions-as-of.js";
import { rootNode } from "./trace-node.js";

/** Default deepest hop of a trace (launderers hop more than five times; docs/risk-model.md §1). */
export const DEFAULT_MAX_HOPS = 20;
/** Default number of ledger edges a trace may read. */
export const DEFAULT_EDGE_BUDGET = 10_000;
/** Default weight floor: an unresolved node lighter than this is not followed. */
export const DEFAULT_MIN_PATH_WEIGHT = 1e-3;

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
  /**
   * The screened transfer's block and log index, when known: then the counterparty's funds may
   * also come from (go to) transfers of the same block, by the order rule. Default: time only.
   */
  readonly position?: { readonly block: number; readonly logIndex: number };
  /** Deepest hop (1 = the counterparty itself); default 20. */
  readonly maxHops?: number;
  /** Ledger edges the trace may read; default 10,000. */
  readonly edgeBudget?: number;
  /** Weight below which an unresolved node is not followed (counts as undefined); default 1e-3. */
  readonly minPathWeight?: number;
}

/** The trace limits, each defaulted. */
export interface TraceLimits {
  readonly maxHops: number;
  readonly edgeBudget: number;
  readonly minPathWeight: number;
}

/** The limits of `input` with their defaults, checked; throws a field-named validation error. */
export function traceLimitsOf(input: {
  readonly maxHops?: number;
  readonly edgeBudget?: number;
  readonly minPathWeight?: number;
}): TraceLimits {
  const limits = {
    maxHops: input.maxHops ?? DEFAULT_MAX_HOPS,
    edgeBudget: input.edgeBudget ?? DEFAULT_EDGE_BUDGET,
    minPathWeight: input.minPathWeight ?? DEFAULT_MIN_PATH_WEIGHT,
  };
  checkTraceLimits(limits.maxHops, limits.edgeBudget, limits.minPathWeight);
  return limits;
}

/** Checks the trace limits; throws a field-named validation error. */
export function checkTraceLimits(maxHops: number, edgeBudget: number, minPathWeight = 0): void {
  if (!Number.isInteger(maxHops) || maxHops < 1) throw fieldError("maxHops", "must be an integer >= 1");
  if (!Number.isInteger(edgeBudget) || edgeBudget < 0) {
    throw fieldError("edgeBudget", "must be an integer >= 0");
  }
  if (!(typeof minPathWeight === "number" && minPathWeight >= 0 && minPathWeight < 1)) {
    throw fieldError("minPathWeight", "must be a number in [0, 1)");
  }
}

/**
 * Traces a transfer's exposure. If the counterparty resolves to an entity, the transfer is a
 * direct interaction with it (one share of 1.0). Otherwise the value is split by amount over the
 * counterparty's incoming transfers that may have funded the transfer (outgoing: its outgoing
 * transfers the transfer may have funded; the order rule is `mayFund`), attributed addresses
 * taking their weight (indirect), unattributed ones split again over what may have funded
 * (been funded by) the connecting transfer. Weight at an unattributed address of hop `maxHops`,
 * lighter than `minPathWeight`, at an address with no such transfer, or left unread when the
 * edge budget runs out is `undefined`. The result is frozen; shares sum to 1.
 */
export async function traceTransferExposure(input: TransferExposureInput): Promise<ExposureResult> {
  const limits = traceLimitsOf(input);
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
      pathTxHashes: Object.freeze([]),
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
    ...traceSourceOf(input),
    forward: input.direction === "outgoing",
    ...limits,
    roots: [rootNode(counterparty, startPosition(input), 1)],
    proximityAt: () => "indirect",
    tally,
  });
  return Object.freeze({ direct: null, shares: tally.finish(value), ...outcome });
}

function startPosition(input: TransferExposureInput): LedgerPosition {
  const p = input.position;
  return p === undefined ? timePosition(input.at) : { occurredAt: input.at, ...p };
}
