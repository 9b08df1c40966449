/**
 * Running the checks themselves: transfer exposure, the counterparty's entity or address
 * exposure, and the sanctions lookup. Reads only; the caller writes the results.
 */
import type { CheckKind, Direction } from "../../domain/enums.js";
import type {
  ChainPosition,
  CounterpartyResult,
  ExposureResult,
  Millis,
  SanctionsResult,
  TransferRecord,
} from "../../domain/records.js";
import type { UtxoTransaction } from "../../domain/utxo.js";
import { isUtxoNetwork } from "../../domain/utxo-binding.js";
import { ERROR_CODES, type ErrorCode, KytError } from "../../errors.js";
import {
  sanctionsAsOf,
  traceAddressExposure,
  traceUtxoAddressExposure,
  traceUtxoTransferExposure,
} from "../../exposure/index.js";
import type {
  AddressTraceRequest,
  TraceOutcome,
  TraceRequest,
  TransferTraceRequest,
} from "../../ports/trace-executor.js";
import type { EngineContext } from "../engine-context.js";

/** What a subject (a transfer or a manual transfer check) looks like to the checks. */
export interface CheckSubject {
  readonly network: string;
  readonly tokenId: string;
  readonly direction: Direction;
  /** The counterparty: the sender of incoming funds, the recipient of outgoing ones. */
  readonly counterpartyAddress: string | null;
  /** On-chain time when bound, else null. */
  readonly occurredAt: Millis | null;
  /** The bound transaction's place in its block, when the ledger gave one (the order rule). */
  readonly position?: ChainPosition | null;
  /** The bound transaction's hash (UTXO networks trace from its outputs). */
  readonly txHash?: string | null;
  /** The address the bound outputs pay (UTXO networks): the output address of the transfer. */
  readonly paidAddress?: string | null;
  /** The time sanctions validity is measured from (occurred_at, else registration). */
  readonly since: Millis;
  readonly valueInFiat: number | null;
}

/** A registered transfer as the checks see it (its counterparty by direction, its times). */
export function transferCheckSubject(t: TransferRecord): CheckSubject {
  return {
    network: t.network,
    tokenId: t.tokenId,
    direction: t.direction,
    counterpartyAddress: t.direction === "incoming" ? t.inputAddress : t.outputAddress,
    occurredAt: t.txStatus === "bound" ? t.occurredAt : null,
    position: t.txStatus === "bound" ? (t.chainPosition ?? null) : null,
    txHash: t.txStatus === "bound" ? t.txHash : null,
    paidAddress: t.outputAddress,
    since: t.occurredAt ?? t.registeredAt,
    valueInFiat: t.valueInFiat,
  };
}

/** Results of the checks that ran; a check that could not run carries its reason. */
export interface CheckResults {
  readonly exposure?: ExposureResult;
  readonly counterparty?: CounterpartyResult;
  readonly sanctions?: SanctionsResult;
  readonly failures: Readonly<Partial<Record<CheckKind, string>>>;
}

/** Runs the requested checks of a subject at the engine's current time. */
export async function computeChecks(
  ctx: EngineContext,
  subject: CheckSubject,
  kinds: ReadonlyArray<CheckKind>,
): Promise<CheckResults> {
  const now = ctx.clock.now();
  const span = { from: Math.min(subject.since, now), to: now };
  const failures: Partial<Record<CheckKind, string>> = {};
  const address = subject.counterpartyAddress;
  const common = {
    ledger: ctx.ledger,
    resolver: ctx.resolver,
    network: subject.network,
    tokenId: subject.tokenId,
  };
  const { maxHops, edgeBudget, minPathWeight } = ctx.tracing;
  const limits = { maxHops, edgeBudget, minPathWeight };
  const utxo = isUtxoNetwork(subject.network);
  const utxoCommon = {
    ...limits,
    ledger: ctx.utxoLedger,
    resolver: ctx.resolver,
    network: subject.network,
    rule: ctx.tracing.utxoRule,
  };
  const side = subject.direction === "incoming" ? "sender" : "recipient";
  const transferRequest: TransferTraceRequest | null =
    address === null || subject.occurredAt === null
      ? null
      : {
          kind: "transfer",
          network: subject.network,
          tokenId: subject.tokenId,
          ...limits,
          direction: subject.direction,
          counterparty: address,
          at: subject.occurredAt,
          ...(subject.position ? { position: subject.position } : {}),
          value: subject.valueInFiat,
          span,
        };
  const addressRequest: AddressTraceRequest | null =
    address === null
      ? null
      : {
          kind: "address",
          network: subject.network,
          tokenId: subject.tokenId,
          ...limits,
          address,
          side,
          at: now,
          span,
        };
  // On account networks both traces go to the executor: asked in one call, a transfer passes a
  // screening pool's queue once instead of once per trace, and waits behind the traces that
  // arrived meanwhile only once (docs/benchmarks.md, floor33). Same requests, same results.
  const both =
    !utxo && transferRequest && addressRequest && kinds.includes("exposure") && kinds.includes("counterparty")
      ? ctx.traces.run([transferRequest, addressRequest])
      : null;
  // Awaited below; a check that throws before that must not leave its rejection unhandled.
  both?.catch(() => undefined);
  let exposure: ExposureResult | undefined;
  let counterparty: CounterpartyResult | undefined;
  let sanctions: SanctionsResult | undefined;
  for (const kind of kinds) {
    if (address === null) {
      failures[kind] = "the counterparty address is not known yet";
      continue;
    }
    if (kind === "exposure") {
      if (transferRequest === null) {
        failures.exposure = "exposure needs a bound transaction";
        continue;
      }
      const tx =
        utxo && subject.txHash ? await utxoTransactionOf(ctx, subject.network, subject.txHash) : null;
      exposure =
        tx && subject.paidAddress
          ? await traceUtxoTransferExposure({
              ...utxoCommon,
              direction: subject.direction,
              tx,
              address: subject.paidAddress,
              value: subject.valueInFiat,
              span,
            })
          : await traced(ctx, transferRequest, both, 0);
    } else if (kind === "counterparty") {
      const request = addressRequest as AddressTraceRequest;
      const coins = utxo
        ? await traceUtxoAddressExposure({ ...utxoCommon, address, side, at: now, span })
        : null;
      // An address the UTXO ledger holds no coins of is traced over the transfer ledger.
      counterparty =
        coins && (coins.entity !== null || (coins.exposure?.edgesRead ?? 0) > 0)
          ? coins
          : utxo
            ? await traceAddressExposure({ ...common, ...request })
            : await traced(ctx, request, both, 1);
    } else {
      const listings = await ctx.sanctions.listings([address]);
      sanctions = sanctionsAsOf(listings, address, span);
    }
  }
  return {
    ...(exposure ? { exposure } : {}),
    ...(counterparty ? { counterparty } : {}),
    ...(sanctions ? { sanctions } : {}),
    failures,
  };
}

/**
 * Runs one trace through the engine's trace executor, or takes its outcome at `at` of a call
 * already made (`asked`); a failed outcome is thrown as its error.
 */
async function traced(
  ctx: EngineContext,
  request: TransferTraceRequest,
  asked?: Promise<ReadonlyArray<TraceOutcome>> | null,
  at?: number,
): Promise<ExposureResult>;
async function traced(
  ctx: EngineContext,
  request: AddressTraceRequest,
  asked?: Promise<ReadonlyArray<TraceOutcome>> | null,
  at?: number,
): Promise<CounterpartyResult>;
async function traced(
  ctx: EngineContext,
  request: TraceRequest,
  asked: Promise<ReadonlyArray<TraceOutcome>> | null = null,
  at = 0,
): Promise<ExposureResult | CounterpartyResult> {
  const outcome = asked ? (await asked)[at] : (await ctx.traces.run([request]))[0];
  if (!outcome || outcome.kind === "failed") {
    const code = outcome && isErrorCode(outcome.code) ? outcome.code : "INTERNAL_ERROR";
    throw new KytError(code, outcome?.message ?? "the trace executor gave no outcome");
  }
  return outcome.result;
}

/**
 * The bound UTXO transaction: from the UTXO ledger, else from the chain source (a live node
 * gives the whole transaction); null when neither has it (the transfer ledger is traced then).
 */
async function utxoTransactionOf(
  ctx: EngineContext,
  network: string,
  txHash: string,
): Promise<UtxoTransaction | null> {
  const [held] = await ctx.utxoLedger.utxoTransactions(network, [txHash]);
  if (held) return held;
  const lookup = await ctx.chain.lookup(network, txHash);
  return lookup.kind === "found" ? (lookup.utxo ?? null) : null;
}

/** The counterparty's entity name and category for the list filters, from the results. */
export function counterpartyLabel(
  counterparty: CounterpartyResult | null,
  sanctions: SanctionsResult | null,
): { name: string | null; category: string | null } {
  if (sanctions?.hit) {
    const listing = sanctions.listings[0];
    return { name: listing?.entity ?? counterparty?.entity?.name ?? null, category: "sanctions" };
  }
  if (counterparty?.entity) return { name: counterparty.entity.name, category: counterparty.entity.category };
  return { name: null, category: null };
}

function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}
