/**
 * Address exposure (the counterparty check, and manual address checks): the address's own
 * entity when it resolves, otherwise the split of all the funds it received (a sender) or
 * sent (a recipient) before `at`.
 */
import type { CounterpartyResult, Millis } from "../domain/records.js";
import type { LedgerReader } from "../ports/ledger-reader.js";
import type { EntityResolver } from "./entity-resolver.js";
import { ExposureTally } from "./exposure-tally.js";
import { runFrontierTrace, traceSourceOf } from "./frontier-trace.js";
import { timePosition } from "./ledger-position.js";
import type { TimeSpan } from "./sanctions-as-of.js";
import { rootNode } from "./trace-node.js";
import { traceLimitsOf } from "./transfer-exposure.js";

/** Which side of the screened transfer the address is on. */
export type AddressSide = "sender" | "recipient";

/** The earliest time a forward read starts after ("from the beginning of time"). */
export const BEGINNING_OF_TIME: Millis = Number.MIN_SAFE_INTEGER;

/** What {@link traceAddressExposure} needs. */
export interface AddressExposureInput {
  readonly ledger: LedgerReader;
  readonly resolver: EntityResolver;
  readonly network: string;
  readonly tokenId: string;
  readonly address: string;
  /** sender: trace where its funds came from; recipient: where the funds it sent went. */
  readonly side: AddressSide;
  /** Only transfers strictly before this time are used for the first hop (usually the check time). */
  readonly at: Millis;
  /** Sanctions validity window. */
  readonly span: TimeSpan;
  /** Deepest hop (1 = the address's direct counterparties); default 20. */
  readonly maxHops?: number;
  /** Ledger edges the trace may read; default 10,000. */
  readonly edgeBudget?: number;
  /** Weight below which an unresolved node is not followed (counts as undefined); default 1e-3. */
  readonly minPathWeight?: number;
}

/**
 * The counterparty result of an address. Resolved: its entity, exposure null. Otherwise a
 * sender's incoming transfers strictly before `at` (a recipient's outgoing transfers from the
 * beginning of time to strictly before `at`) split its weight by amount; hop 1 are its direct
 * counterparties (proximity `direct`), deeper hops `indirect`, followed as in transfer
 * exposure. Shares carry no fiat value. The result is frozen.
 */
export async function traceAddressExposure(input: AddressExposureInput): Promise<CounterpartyResult> {
  const limits = traceLimitsOf(input);
  const { address } = input;
  const self = (await input.resolver.resolve(input.network, [address], input.span)).get(address);
  if (self) {
    return Object.freeze({
      address,
      entity: Object.freeze({
        name: self.name,
        category: self.category,
        ...(self.cluster ? { cluster: self.cluster } : {}),
      }),
      exposure: null,
    });
  }
  const forward = input.side === "recipient";
  const root = forward
    ? rootNode(address, timePosition(BEGINNING_OF_TIME), 0, input.at)
    : rootNode(address, timePosition(input.at), 0);
  const tally = new ExposureTally();
  const outcome = await runFrontierTrace({
    ...traceSourceOf(input),
    forward,
    ...limits,
    roots: [root],
    proximityAt: (hop) => (hop <= 1 ? "direct" : "indirect"),
    tally,
  });
  const exposure = Object.freeze({ direct: null, shares: tally.finish(null), ...outcome });
  return Object.freeze({ address, entity: null, exposure });
}
