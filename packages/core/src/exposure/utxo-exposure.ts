/**
 * Exposure over the UTXO ledger (Bitcoin, Litecoin): a transfer's origin (deposits) or
 * destination (withdrawals) traced through the exact coins spent, and address checks over every
 * coin an address received or spent. See docs/risk-model.md, "Bitcoin".
 */
import type { Direction } from "../domain/enums.js";
import type { CounterpartyResult, ExposureResult, Millis } from "../domain/records.js";
import type { UtxoTransaction } from "../domain/utxo.js";
import { inputAddressesOf, largestInputAddress } from "../domain/utxo-binding.js";
import type { UtxoLedgerReader } from "../ports/utxo-ledger.js";
import { type AddressSide, BEGINNING_OF_TIME } from "./address-exposure.js";
import type { EntityResolver, ResolvedEntity } from "./entity-resolver.js";
import { ExposureTally } from "./exposure-tally.js";
import type { TimeSpan } from "./sanctions-as-of.js";
import { traceLimitsOf } from "./transfer-exposure.js";
import { DEFAULT_UTXO_TAINT_RULE, type UtxoTaintRule } from "./utxo-taint-rules.js";
import { type CoinNode, rootCoin, runUtxoTrace } from "./utxo-trace.js";

/** The limits and rule every UTXO trace takes (each defaulted as in account-model traces). */
interface UtxoTraceOptions {
  /** Deepest hop; default 20. */
  readonly maxHops?: number;
  /** Inputs and outputs the trace may read; default 10,000. */
  readonly edgeBudget?: number;
  /** Weight below which a coin is not followed (counts as undefined); default 1e-3. */
  readonly minPathWeight?: number;
  /** How taint moves through a transaction; default `haircut`. */
  readonly rule?: UtxoTaintRule;
}

/** What {@link traceUtxoTransferExposure} needs. */
export interface UtxoTransferExposureInput extends UtxoTraceOptions {
  readonly ledger: UtxoLedgerReader;
  readonly resolver: EntityResolver;
  readonly network: string;
  readonly direction: Direction;
  /** The screened transaction, as the ledger holds it (outputs with `spentBy`). */
  readonly tx: UtxoTransaction;
  /** The address the bound outputs pay: the user's (incoming), the counterparty (outgoing). */
  readonly address: string;
  /** The transfer's value in USD, when known. */
  readonly value: number | null;
  /** Sanctions validity window. */
  readonly span: TimeSpan;
}

/** A frozen exposure of one direct interaction. */
function directExposure(entity: ResolvedEntity, path: string, value: number | null): ExposureResult {
  const cluster = entity.cluster ? { cluster: entity.cluster } : {};
  const share = Object.freeze({
    category: entity.category,
    proximity: "direct" as const,
    share: 1,
    valueInFiat: value,
    entityNames: Object.freeze([entity.name]),
    minHops: 1,
    path: Object.freeze([path]),
    pathTxHashes: Object.freeze([]),
    ...cluster,
  });
  return Object.freeze({
    direct: Object.freeze({ name: entity.name, category: entity.category, valueInFiat: value, ...cluster }),
    shares: Object.freeze([share]),
    truncated: false,
    edgesRead: 0,
    hops: 1,
  });
}

/**
 * Traces a UTXO transfer. Its bound outputs are those of `tx` paying `address`, weighted by
 * value. Incoming: when every input of `tx` that names an address resolves to one entity, the
 * deposit is a direct interaction with it (share 1); otherwise the bound outputs are followed
 * back through the inputs of `tx` (hop 1: the senders' coins) and on through the coins each
 * spent. Outgoing: when `address` resolves, a direct interaction; otherwise the bound outputs
 * (hop 1) are followed forward through the transactions that spent them. Shares are
 * `indirect`; the walk's limits are the account-model trace's. The result is frozen.
 */
export async function traceUtxoTransferExposure(input: UtxoTransferExposureInput): Promise<ExposureResult> {
  const limits = traceLimitsOf(input);
  const { tx, address, value } = input;
  const outgoing = input.direction === "outgoing";
  if (outgoing) {
    const self = (await input.resolver.resolve(input.network, [address], input.span)).get(address);
    if (self) return withInputs(directExposure(self, address, value), tx);
  } else {
    const senders = inputAddressesOf(tx);
    const found =
      senders.length === 0 ? new Map() : await input.resolver.resolve(input.network, senders, input.span);
    const entities = [...found.values()];
    const first = entities[0];
    const allOne =
      first !== undefined &&
      found.size === senders.length &&
      entities.every((e) => e.name === first.name && e.category === first.category);
    if (allOne) return withInputs(directExposure(first, largestInputAddress(tx) ?? senders[0]!, value), tx);
  }
  const bound = tx.outputs.filter((o) => o.address === address);
  const total = bound.reduce((s, o) => s + o.value, 0);
  const hop = outgoing ? 1 : 0;
  const roots: CoinNode[] =
    total > 0
      ? bound.filter((o) => o.value > 0).map((o) => rootCoin({ ...o, txid: tx.txid }, o.value / total, hop))
      : [];
  const tally = new ExposureTally();
  const rule = input.rule ?? DEFAULT_UTXO_TAINT_RULE;
  const outcome = await runUtxoTrace({
    ledger: input.ledger,
    resolver: input.resolver,
    network: input.network,
    span: input.span,
    forward: outgoing,
    rule,
    ...limits,
    roots,
    proximityAt: () => "indirect",
    tally,
  });
  if (roots.length === 0)
    tally.credit("undefined", null, 1, hop, "indirect", () => ({ addresses: [address], txHashes: [] }));
  return withInputs({ direct: null, shares: tally.finish(value), ...outcome, utxoRule: rule }, tx);
}

/** `exposure` with the input addresses of `tx`, frozen. */
function withInputs(exposure: ExposureResult, tx: UtxoTransaction): ExposureResult {
  return Object.freeze({ ...exposure, inputAddresses: Object.freeze(inputAddressesOf(tx)) });
}

/** What {@link traceUtxoAddressExposure} needs. */
export interface UtxoAddressExposureInput extends UtxoTraceOptions {
  readonly ledger: UtxoLedgerReader;
  readonly resolver: EntityResolver;
  readonly network: string;
  readonly address: string;
  /** sender: where every coin it received came from; recipient: where every coin it spent went. */
  readonly side: AddressSide;
  /** Only coins received (spent) strictly before this time count. */
  readonly at: Millis;
  readonly span: TimeSpan;
}

/**
 * The counterparty result of a UTXO address. Resolved: its entity. Otherwise a sender's every
 * coin received strictly before `at` (a recipient's every coin spent before `at`), weighted by
 * value, followed back through the transactions that made them (forward through those that
 * spent them); hop 1 is `direct`, deeper hops `indirect`. More coins than the edge budget: the
 * latest (earliest spent) that fit are traced and the result is truncated. Frozen.
 */
export async function traceUtxoAddressExposure(input: UtxoAddressExposureInput): Promise<CounterpartyResult> {
  const limits = traceLimitsOf(input);
  const { address, network } = input;
  const self = (await input.resolver.resolve(network, [address], input.span)).get(address);
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
  const limit = limits.edgeBudget + 1;
  const receipts = forward
    ? await input.ledger.utxoSpentFrom(network, [{ address, after: BEGINNING_OF_TIME }], limit)
    : await input.ledger.utxoReceived(network, [{ address, before: input.at }], limit);
  let coins = receipts.slice(0, limits.edgeBudget).filter((r) => r.value > 0);
  if (forward) {
    // Only coins spent strictly before `at`: the spending transactions say when.
    const spends = await input.ledger.utxoTransactions(
      network,
      coins.map((r) => r.spentBy?.txid ?? ""),
    );
    const before = new Set(spends.filter((t) => t.occurredAt < input.at).map((t) => t.txid));
    coins = coins.filter((r) => r.spentBy !== null && before.has(r.spentBy.txid));
  }
  const total = coins.reduce((s, r) => s + r.value, 0);
  const tally = new ExposureTally();
  const proximityAt = (hop: number) => (hop <= 1 ? ("direct" as const) : ("indirect" as const));
  const rule = input.rule ?? DEFAULT_UTXO_TAINT_RULE;
  const outcome = await runUtxoTrace({
    ledger: input.ledger,
    resolver: input.resolver,
    network,
    span: input.span,
    forward,
    rule,
    ...limits,
    edgeBudget: limits.edgeBudget - coins.length,
    roots: coins.map((r) => rootCoin(r, r.value / total, 0)),
    proximityAt,
    tally,
  });
  if (coins.length === 0)
    tally.credit("undefined", null, 1, 0, "direct", () => ({ addresses: [address], txHashes: [] }));
  const exposure = Object.freeze({
    direct: null,
    shares: tally.finish(null),
    edgesRead: outcome.edgesRead + coins.length,
    hops: outcome.hops,
    truncated: outcome.truncated || receipts.length > limits.edgeBudget,
    utxoRule: rule,
  });
  return Object.freeze({ address, entity: null, exposure });
}
