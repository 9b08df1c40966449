/**
 * Presenters: pure functions from the engine's records to the wire objects of the interface.
 * This file: transfers (REGISTERED_TRANSFER_EXTRA, check_state), manual checks, and pages.
 */
import { FIAT_CURRENCY } from "../domain/enums.js";
import { roundCents } from "../domain/money.js";
import type { CheckStates, ManualCheckRecord } from "../domain/records.js";
import type { TransferSummary } from "../ports/store.js";
import type { Page } from "./page.js";
import type { PageQuery } from "./queries.js";
import type { CheckStateResponse, ManualCheckResponse, TransferResponse } from "./responses.js";
import { formatOffsetTimestamp, formatOffsetTimestampOrNull, formatUtcMicrosOrNull } from "./timestamps.js";

/** Rounds a fiat value to cents ({@link roundCents}), passing null through. */
export function roundFiat(value: number | null): number | null {
  return value === null ? null : roundCents(value);
}

/** check_state of a transfer. */
export function presentCheckState(checks: CheckStates): CheckStateResponse {
  return {
    exposure: checks.exposure.state,
    exposure_checked_at: formatUtcMicrosOrNull(checks.exposure.at),
    counterparty: checks.counterparty.state,
    counterparty_checked_at: formatUtcMicrosOrNull(checks.counterparty.at),
    sanctions: checks.sanctions.state,
    sanctions_checked_at: formatUtcMicrosOrNull(checks.sanctions.at),
  };
}

/** The transfer fields without check_state and fiat_currency (as embedded in an alert). */
export function presentTransferCore(
  t: TransferSummary,
): Omit<TransferResponse, "check_state" | "fiat_currency"> {
  return {
    id: t.id,
    client_id: t.clientId,
    attempt_id: t.attemptId,
    registered_at: formatOffsetTimestamp(t.registeredAt),
    risk_level: t.riskLevel,
    risk_score: t.riskScore,
    network: t.network,
    token_id: t.tokenId,
    token_symbol: t.tokenSymbol,
    tx_status: t.txStatus,
    tx_hash: t.txHash,
    occurred_at: formatOffsetTimestampOrNull(t.occurredAt),
    input_address: t.inputAddress,
    output_address: t.outputAddress,
    direction: t.direction,
    amount: t.amount,
    // Attempts keep the unrounded estimate; a bound transfer's value is in cents (public-facts §2.19).
    value_in_fiat: t.txStatus === "bound" ? roundFiat(t.valueInFiat) : t.valueInFiat,
  };
}

/** A registered transfer or attempt (REGISTERED_TRANSFER_EXTRA). */
export function presentTransfer(t: TransferSummary): TransferResponse {
  return {
    ...presentTransferCore(t),
    check_state: presentCheckState(t.checks),
    fiat_currency: FIAT_CURRENCY,
  };
}

/** A manual check (MANUAL_CHECK); risk level undefined and score null while checking. */
export function presentManualCheck(c: ManualCheckRecord): ManualCheckResponse {
  const checking = c.checkStatus === "checking";
  const isAddress = c.checkType === "single_address";
  return {
    id: c.id,
    created_at: formatOffsetTimestamp(c.createdAt),
    check_type: c.checkType,
    check_status: c.checkStatus,
    checked_at: checking ? null : formatUtcMicrosOrNull(c.checkedAt),
    transfer: isAddress
      ? null
      : {
          network: c.network,
          token_id: c.tokenId,
          token_symbol: c.tokenSymbol,
          tx_status: c.txStatus,
          tx_hash: c.txHash,
          occurred_at: formatOffsetTimestampOrNull(c.occurredAt),
          input_address: c.inputAddress,
          output_address: c.outputAddress,
          direction: c.direction ?? (c.checkType === "withdrawal" ? "outgoing" : "incoming"),
          amount: c.amount,
          value_in_fiat: c.txStatus === "bound" ? roundFiat(c.valueInFiat) : c.valueInFiat,
        },
    address: isAddress ? { network: c.network, address: c.address ?? c.counterpartyAddress } : null,
    risk_level: checking ? "undefined" : c.riskLevel,
    risk_score: checking ? null : c.riskScore,
    fiat_currency: FIAT_CURRENCY,
  };
}

/** The paginated envelope: total_pages is ceil(total / page_size), 0 when nothing matches. */
export function presentPage<T>(items: ReadonlyArray<T>, total: number, page: PageQuery): Page<T> {
  return {
    page: page.page,
    page_size: page.pageSize,
    total_pages: Math.ceil(total / page.pageSize),
    total_items: total,
    items,
  };
}
