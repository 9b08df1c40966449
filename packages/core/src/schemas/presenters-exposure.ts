/**
 * Presenters of exposures: TRANSFER_EXPOSURE from an ExposureResult and ADDRESS_EXPOSURE from a
 * CounterpartyResult. Each takes either a transfer / manual-check record, or the result and the
 * state of the check that produced it.
 */
import { UNDEFINED_CATEGORY } from "../domain/entity-categories.js";
import { FIAT_CURRENCY } from "../domain/enums.js";
import type {
  CheckStatus,
  ClusterAttribution,
  CounterpartyResult,
  ExposureResult,
  ExposureShare,
  ManualCheckRecord,
  TransferRecord,
} from "../domain/records.js";
import { coinsFromSats } from "../domain/utxo.js";
import { roundFiat } from "./presenters.js";
import type { AddressExposureResponse, TransferExposureResponse } from "./responses-exposure.js";
import { formatUtcMicrosOrNull } from "./timestamps.js";

type Subject = TransferRecord | ManualCheckRecord;

const isTransfer = (s: Subject): s is TransferRecord => "checks" in s;
const isSubject = (value: unknown): value is Subject =>
  typeof value === "object" && value !== null && "accountId" in value;

/** The check a record's exposure or counterparty came from. */
function checkOf(s: Subject, kind: "exposure" | "counterparty"): CheckStatus {
  return isTransfer(s) ? s.checks[kind] : { state: s.checkStatus, at: s.checkedAt };
}

/**
 * Merges shares by category (value null when any part is unknown), largest share first; the
 * strongest path is the largest part's. `startHop` is the hop of a path's first address.
 */
function byCategory(shares: ReadonlyArray<ExposureShare>, value: number | null, startHop: number) {
  const merged = new Map<string, { share: number; value: number | null; top: ExposureShare }>();
  for (const s of shares) {
    const part = s.valueInFiat ?? (value === null ? null : s.share * value);
    const prev = merged.get(s.category);
    merged.set(s.category, {
      share: (prev?.share ?? 0) + s.share,
      value: prev === undefined ? part : prev.value === null || part === null ? null : prev.value + part,
      top: prev === undefined || s.share > prev.top.share ? s : prev.top,
    });
  }
  return [...merged.entries()]
    .map(([category, m]) => ({
      category,
      share: Math.min(1, m.share),
      value: m.value,
      path: strongestPath(m.top, startHop),
    }))
    .sort((a, b) => b.share - a.share || a.category.localeCompare(b.category));
}

/**
 * A share's path on the wire; null for a share stored without one. A UTXO path says where it
 * starts (`pathStartHop`: a deposit's path starts at its own output, hop 0) and the value of
 * each coin, in coins (BTC, LTC: 8 decimals).
 */
function strongestPath(s: ExposureShare, startHop: number) {
  if (s.path.length === 0) return null;
  return {
    hops: (s.pathStartHop ?? startHop) + s.path.length - 1,
    addresses: [...s.path],
    tx_hashes: [...(s.pathTxHashes ?? [])],
    ...(s.pathValues ? { coin_values: s.pathValues.map(coinsFromSats) } : {}),
    ...clusterWire(s.cluster),
  };
}

/** The wire's attribution fields of an entity found through a cluster (none otherwise). */
function clusterWire(cluster: ClusterAttribution | undefined) {
  if (!cluster) return {};
  return {
    attribution: "cluster" as const,
    defining_address: cluster.definingAddress,
    cluster_size: cluster.size,
    cluster_conflict: cluster.conflict,
  };
}

function transferExposure(
  exposure: ExposureResult | null,
  check: CheckStatus | undefined,
  value: number | null,
): TransferExposureResponse {
  const status =
    check === undefined ? {} : { check_status: check.state, checked_at: formatUtcMicrosOrNull(check.at) };
  if (exposure === null) {
    return { direct_interaction: null, indirect_interaction: null, fiat_currency: FIAT_CURRENCY, ...status };
  }
  const d = exposure.direct;
  const indirect = byCategory(
    exposure.shares.filter((s) => s.proximity === "indirect" || s.category === UNDEFINED_CATEGORY),
    value,
    1,
  ).map((m) => ({
    entity_category: m.category,
    value_share: m.share,
    value_in_fiat: roundFiat(m.value),
    strongest_path: m.path,
  }));
  return {
    direct_interaction: d
      ? {
          entity_category: d.category,
          entity_name: d.name,
          value_in_fiat: roundFiat(d.valueInFiat ?? value),
          ...clusterWire(d.cluster),
        }
      : null,
    indirect_interaction: indirect.length > 0 ? indirect : null,
    fiat_currency: FIAT_CURRENCY,
    ...status,
    ...(exposure.inputAddresses ? { input_addresses: [...exposure.inputAddresses] } : {}),
    ...(exposure.utxoRule ? { utxo_rule: exposure.utxoRule } : {}),
  };
}

/**
 * TRANSFER_EXPOSURE. From a record: its exposure, its value for value_in_fiat when a share
 * lacks one, and the exposure check's state (check_status, checked_at). From a result: the
 * check is optional. Both interactions are null when the exposure was not checked.
 */
export function presentTransferExposure(record: Subject): TransferExposureResponse;
export function presentTransferExposure(
  exposure: ExposureResult | null,
  check?: CheckStatus,
): TransferExposureResponse;
export function presentTransferExposure(
  source: Subject | ExposureResult | null,
  check?: CheckStatus,
): TransferExposureResponse {
  if (isSubject(source))
    return transferExposure(source.exposure, checkOf(source, "exposure"), source.valueInFiat);
  return transferExposure(source, check, null);
}

/** The address a record's counterparty check is about. */
function counterpartyAddressOf(s: Subject): string | null {
  if (isTransfer(s)) return s.direction === "incoming" ? s.inputAddress : s.outputAddress;
  return s.address ?? s.counterpartyAddress;
}

function addressExposure(
  counterparty: CounterpartyResult | null,
  check: CheckStatus,
  address: string | null,
): AddressExposureResponse {
  const entity = counterparty?.entity ?? null;
  const shares = entity === null ? counterparty?.exposure?.shares : undefined;
  return {
    address: counterparty?.address ?? address,
    entity_category: entity?.category ?? null,
    entity_name: entity?.name ?? null,
    ...clusterWire(entity?.cluster),
    exposure:
      shares === undefined
        ? null
        : byCategory(shares, null, 0).map((m) => ({
            entity_category: m.category,
            value_share: m.share,
            strongest_path: m.path,
          })),
    check_status: check.state,
    checked_at: formatUtcMicrosOrNull(check.at),
    ...(counterparty?.exposure?.utxoRule ? { utxo_rule: counterparty.exposure.utxoRule } : {}),
  };
}

/**
 * ADDRESS_EXPOSURE. From a record: its counterparty result (for a transfer, the sender of an
 * incoming or the recipient of an outgoing transfer) and the counterparty check's state. From a
 * result: the state of the check that produced it. `exposure` is null when the address is
 * identified (entity set) or not checked.
 */
export function presentAddressExposure(record: Subject): AddressExposureResponse;
export function presentAddressExposure(
  counterparty: CounterpartyResult | null,
  check: CheckStatus,
): AddressExposureResponse;
export function presentAddressExposure(
  source: Subject | CounterpartyResult | null,
  check?: CheckStatus,
): AddressExposureResponse {
  if (isSubject(source)) {
    return addressExposure(
      source.counterparty,
      checkOf(source, "counterparty"),
      counterpartyAddressOf(source),
    );
  }
  return addressExposure(source, check ?? { state: "none", at: null }, null);
}
