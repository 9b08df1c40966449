/**
 * The engine's own records: what the store keeps. Times are epoch milliseconds (UTC),
 * amounts are numbers in token units, values are USD. Wire shapes (snake_case, formatted
 * timestamps) are produced from these by the presenters in `schemas/`.
 */

import type { UtxoTaintRule } from "../exposure/utxo-taint-rules.js";
import type {
  AlertStatus,
  CheckKind,
  CheckState,
  Direction,
  ManualCheckStatus,
  ManualCheckType,
  Proximity,
  RiskLevel,
  RiskType,
  RuleRiskLevel,
  RuleSubType,
  RuleType,
  TxStatus,
} from "./enums.js";
import type { ModelApprovalRecord } from "./model-approval.js";

/** Epoch milliseconds, UTC. */
export type Millis = number;

/** State and time of one check. */
export interface CheckStatus {
  readonly state: CheckState;
  /** When the state last changed; null while the state is `none` and nothing ever ran. */
  readonly at: Millis | null;
}

/** The three checks of a transfer. */
export type CheckStates = Readonly<Record<CheckKind, CheckStatus>>;

/** An entity an address is attributed to. */
export interface Entity {
  readonly name: string;
  readonly category: string;
  /** Set when the entity was found through the address's cluster, not on the address itself (UTXO chains). */
  readonly cluster?: ClusterAttribution;
}

/**
 * How an entity was found through a cluster (common-input ownership, docs/risk-model.md,
 * "Bitcoin"): the labelled address that defines it and the cluster's size.
 */
export interface ClusterAttribution {
  readonly clusterId: string;
  /** The cluster's labelled address whose label was taken. */
  readonly definingAddress: string;
  /** Addresses in the cluster. */
  readonly size: number;
  /** True when the cluster holds labels of two or more entities (the riskiest was taken). */
  readonly conflict: boolean;
}

/** The interface's RISK_RULE plus the level it raises. */
export interface RiskRule {
  readonly ruleType: RuleType;
  readonly ruleSubType: RuleSubType;
  readonly entityCategory: string;
  /** Minimum value in USD; null always passes. */
  readonly minValueInFiat: number | null;
  /** Minimum share in [0, 1]; null always passes. */
  readonly minValueShare: number | null;
  readonly riskLevel: RuleRiskLevel;
}

/** A named, versioned set of rules. */
export interface RiskModel {
  readonly id: string;
  readonly name: string;
  readonly version: number;
  readonly rules: ReadonlyArray<RiskRule>;
}

/** A stored version of an account's risk model. */
export interface StoredRiskModel extends RiskModel {
  readonly accountId: string;
  /** When this version was written. */
  readonly createdAt: Millis;
  /** When the model was deleted (every version); null while it is live. */
  readonly deletedAt: Millis | null;
  /**
   * Why this version was written, as its author gave it (required for every version after the
   * first); null when none was given (versions stored before it was asked for).
   */
  readonly changeReason: string | null;
  /**
   * The version's approval by a second admin (migration 0080); null when it was written while
   * the account did not require approval (in force at once).
   */
  readonly approval: ModelApprovalRecord | null;
}

/** What a store keeps of a risk model version beside its rules. */
export interface RiskModelVersionDetails {
  /** Why this version was written; absent or null: none given. */
  readonly changeReason?: string | null;
  /** Its approval record (pending when approval is required); absent or null: in force at once. */
  readonly approval?: ModelApprovalRecord | null;
}

/** Event types a webhook can subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  "transfer.checked",
  "transfer.status_changed",
  "alert.created",
  "alert.updated",
  "manual_check.completed",
  "webhook.test",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * States of a webhook: `active` receives its events; `paused` (after too many consecutive failed
 * deliveries) receives none until it is resumed.
 */
export const WEBHOOK_STATES = ["active", "paused"] as const;
export type WebhookState = (typeof WEBHOOK_STATES)[number];

/** A webhook subscription of an account. */
export interface WebhookRecord {
  readonly id: string;
  readonly accountId: string;
  readonly url: string;
  readonly events: ReadonlyArray<WebhookEventType>;
  /** The signing secret as the secret vault sealed it. */
  readonly secret: string;
  readonly createdAt: Millis;
  readonly deletedAt: Millis | null;
  readonly state: WebhookState;
  /** When it was paused; null while active. */
  readonly pausedAt: Millis | null;
  /** Why it was paused; null while active. */
  readonly pausedReason: string | null;
  /** Failed deliveries since the last successful one. */
  readonly consecutiveFailures: number;
}

/** Who owns a stored secret: an API key or a webhook. */
export type SecretOwner = "api_key" | "webhook";

/** A secret as the vault stored it, with its owner (for re-sealing every secret at once). */
export interface SealedSecret {
  readonly owner: SecretOwner;
  /** The id of the API key or webhook (the vault binds it to the secret). */
  readonly id: string;
  readonly sealed: string;
}

/** An event written to the outbox in the same transaction as the change that caused it. */
export interface WebhookEventRecord {
  readonly id: string;
  readonly accountId: string;
  readonly type: WebhookEventType;
  /** The event's `data` (wire objects), as JSON-compatible values. */
  readonly payload: Readonly<Record<string, unknown>>;
  readonly createdAt: Millis;
}

/** One attempt to deliver an event to a webhook. */
export interface WebhookDeliveryRecord {
  readonly id: string;
  readonly webhookId: string;
  readonly eventId: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
  readonly at: Millis;
  /** True when the receiver answered 2xx. */
  readonly ok: boolean;
  /** HTTP status, or null when there was no answer (timeout, refused). */
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
}

/** One category's part of an exposure. */
export interface ExposureShare {
  readonly category: string;
  readonly proximity: Proximity;
  /** Share of the traced value, in [0, 1]. */
  readonly share: number;
  /** share times the traced value, when the value is known. */
  readonly valueInFiat: number | null;
  /** Entity names met for this category, most weight first (at most a few). */
  readonly entityNames: ReadonlyArray<string>;
  /** Fewest hops at which the category was met (1 = the counterparty itself). */
  readonly minHops: number;
  /** Addresses of the largest contribution, from the start address to the attributed one. */
  readonly path: ReadonlyArray<string>;
  /**
   * Hashes of the transfers of that contribution, one per hop between the addresses of `path`
   * (so one fewer than `path`); on a UTXO chain, the `txid:vout` of each coin of `path` (as many
   * as `path`). Absent on results stored before it was recorded.
   */
  readonly pathTxHashes?: ReadonlyArray<string>;
  /**
   * UTXO chains: the value of each coin of `path`, in integer base units (satoshis), as many as
   * `path`. Absent on account-model chains and on results stored before it was recorded.
   */
  readonly pathValues?: ReadonlyArray<number>;
  /**
   * UTXO chains: the hop of the path's first coin: 0 when it is an output of the screened
   * transaction paying the customer (a deposit) or a coin of the checked address, 1 when it is
   * the counterparty's (a withdrawal). Absent on account-model chains, whose paths start at the
   * counterparty (hop 1).
   */
  readonly pathStartHop?: number;
  /** Set when that contribution's entity was found through a cluster (UTXO chains). */
  readonly cluster?: ClusterAttribution;
}

/**
 * Result of tracing a transfer (origin or destination of funds) or an address.
 * `shares` includes the `undefined` category for the unexplained remainder; all shares sum to 1.
 */
export interface ExposureResult {
  /** The counterparty's own entity when it is attributed (a direct interaction, share 1). */
  readonly direct: (Entity & { readonly valueInFiat: number | null }) | null;
  readonly shares: ReadonlyArray<ExposureShare>;
  /** True when the edge budget ran out before the trace finished. */
  readonly truncated: boolean;
  readonly edgesRead: number;
  /** Deepest hop reached. */
  readonly hops: number;
  /**
   * A UTXO transfer (Bitcoin, Litecoin): every distinct input address of its transaction, in
   * input order (its `input_address` is one of them: docs/risk-model.md, "Bitcoin"). Absent for
   * account-model transfers.
   */
  readonly inputAddresses?: ReadonlyArray<string>;
  /**
   * A traced UTXO result: how taint moved inside each transaction (`haircut` or `fifo`, the
   * engine's `tracing.utxoRule`; docs/risk-model.md, "Bitcoin"). Absent when nothing was traced
   * (a direct interaction) and on account-model chains.
   */
  readonly utxoRule?: UtxoTaintRule;
}

/** A sanctions listing of an address. */
export interface SanctionsListing {
  readonly network: string;
  readonly address: string;
  readonly listName: string;
  readonly program: string | null;
  readonly entity: string | null;
  /** Start of validity; null = since the beginning of time. */
  readonly listedAt: Millis | null;
  /** End of validity; null = still listed. */
  readonly delistedAt: Millis | null;
  /**
   * The designation date the list's source gives for this listing. Absent (or null) when the
   * source gives none: `listedAt` is then the date of the first list snapshot (or history
   * record) the listing was read from, not a designation date.
   */
  readonly designatedAt?: Millis | null;
}

/** Outcome of a sanctions check. */
export interface SanctionsResult {
  readonly address: string;
  readonly hit: boolean;
  readonly listings: ReadonlyArray<SanctionsListing>;
}

/** Outcome of a counterparty check: the counterparty's entity, or its address exposure. */
export interface CounterpartyResult {
  readonly address: string;
  readonly entity: Entity | null;
  /** Null when the counterparty is identified (entity set). */
  readonly exposure: ExposureResult | null;
}

/** A registered transfer or attempt. */
export interface TransferRecord {
  readonly id: string;
  readonly accountId: string;
  readonly clientId: string | null;
  readonly attemptId: string | null;
  readonly registeredAt: Millis;
  readonly network: string;
  readonly tokenId: string;
  readonly tokenSymbol: string | null;
  readonly direction: Direction;
  readonly txStatus: TxStatus;
  readonly txHash: string | null;
  readonly occurredAt: Millis | null;
  readonly inputAddress: string | null;
  readonly outputAddress: string | null;
  readonly amount: number | null;
  readonly valueInFiat: number | null;
  readonly riskLevel: RiskLevel;
  readonly riskScore: number | null;
  /** Risk model id asked for at registration; null = the account's default. */
  readonly riskModelId: string | null;
  /** Model and version that produced the current risks. */
  readonly riskModelVersion: string | null;
  readonly checks: CheckStates;
  readonly disableAutoCheck: boolean;
  readonly exposure: ExposureResult | null;
  readonly counterparty: CounterpartyResult | null;
  readonly sanctions: SanctionsResult | null;
  /** Counterparty entity name and category, kept for the list filters. */
  readonly counterpartyName: string | null;
  readonly counterpartyCategory: string | null;
  /** Why binding or a check last failed, when it did. */
  readonly lastError: string | null;
  readonly updatedAt: Millis;
  /**
   * Where the bound transaction stands in its block, from the ledger row it was bound to; absent
   * (or null) when the ledger gave no block. The exposure trace starts from it (order rule).
   */
  readonly chainPosition?: ChainPosition | null;
}

/** A transfer's place inside its block. */
export interface ChainPosition {
  readonly block: number;
  readonly logIndex: number;
}

/** A manual check of a transfer or an address. */
export interface ManualCheckRecord {
  readonly id: string;
  readonly accountId: string;
  readonly createdAt: Millis;
  readonly checkType: ManualCheckType;
  readonly checkStatus: ManualCheckStatus;
  readonly checkedAt: Millis | null;
  readonly network: string;
  readonly tokenId: string;
  readonly tokenSymbol: string | null;
  /** Transfer checks: the hash; address checks: null. */
  readonly txHash: string | null;
  /** Transfer checks: the client-side address (recipient for incoming, sender for outgoing). */
  readonly outputAddress: string | null;
  readonly direction: Direction | null;
  /** Address checks: the address. */
  readonly address: string | null;
  /** Transfer checks: what the chain source said. */
  readonly txStatus: TxStatus | null;
  readonly occurredAt: Millis | null;
  readonly inputAddress: string | null;
  readonly counterpartyAddress: string | null;
  readonly amount: number | null;
  readonly valueInFiat: number | null;
  readonly riskLevel: RiskLevel;
  readonly riskScore: number | null;
  readonly riskModelId: string | null;
  readonly riskModelVersion: string | null;
  readonly exposure: ExposureResult | null;
  readonly counterparty: CounterpartyResult | null;
  readonly sanctions: SanctionsResult | null;
  readonly lastError: string | null;
  readonly updatedAt: Millis;
}

/** What a risk belongs to. */
export type RiskSubjectType = "transfer" | "manual_check";

/** A rule that fired, with what it fired on (what risk evaluation finds). One per fired rule. */
export interface FiredRisk {
  /** The check that produced it; a new run of that check replaces its risks. */
  readonly checkKind: CheckKind;
  readonly riskType: RiskType;
  readonly riskLevel: RuleRiskLevel;
  readonly entityCategory: string;
  readonly entityName: string | null;
  readonly proximity: Proximity;
  readonly valueInFiat: number | null;
  readonly valueShare: number | null;
  readonly rule: RiskRule;
}

/** A rule that fired, as stored for its transfer or manual check. */
export interface RiskRecord extends FiredRisk {
  readonly id: string;
  readonly accountId: string;
  readonly subjectType: RiskSubjectType;
  readonly subjectId: string;
  /** When the risky transfer happened (occurred_at, else registration time). */
  readonly occurredAt: Millis;
  readonly createdAt: Millis;
}

/** An alert opened for a risk of a registered transfer. */
export interface AlertRecord {
  readonly id: string;
  readonly accountId: string;
  readonly transferId: string;
  /** Identity of the risk it was opened for: the same risk never opens a second alert. */
  readonly dedupeKey: string;
  readonly createdAt: Millis;
  readonly updatedAt: Millis | null;
  readonly riskLevel: RuleRiskLevel;
  readonly riskType: RiskType;
  readonly riskOccurredAt: Millis;
  readonly alertStatus: AlertStatus;
  /** Who works the alert (free text: a name, an e-mail, a team); null when nobody. */
  readonly assignee: string | null;
  readonly entityCategory: string;
  readonly proximity: Proximity;
  readonly valueInFiat: number | null;
  readonly valueShare: number | null;
  readonly rule: RiskRule;
}

/** An entry of an alert's history. */
export interface AlertHistoryRecord {
  readonly id: string;
  readonly alertId: string;
  readonly at: Millis;
  /** Who made the change (an API key id, or the embedding product's user); null when unknown. */
  readonly actor: string | null;
  /** Status before the change; null for the entry that records the alert's opening. */
  readonly from: AlertStatus | null;
  readonly to: AlertStatus;
  readonly comment: string | null;
  /** The assignee after the change. */
  readonly assignee: string | null;
}

/** Kinds of durable job. */
export const JOB_KINDS = [
  "transfer.bind",
  "transfer.check",
  "manual_check.run",
  "webhook.deliver",
  "backtest.run",
] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/**
 * The request a job came from (kept in its payload under `origin`; see
 * engine/jobs/job-origin.ts): its request id and, when it was traced, its span as a W3C
 * `traceparent` (`00-<trace id>-<span id>-<flags>`).
 */
export interface JobOrigin {
  /** The request id of the request log (1 to 128 of `A-Z a-z 0-9 . _ : - =`). */
  readonly requestId?: string;
  readonly traceparent?: string;
}

/** A durable unit of work. */
export interface JobRecord {
  readonly id: string;
  readonly kind: JobKind;
  readonly accountId: string;
  /** The transfer, manual check, webhook or backtest it works on. */
  readonly subjectId: string;
  /** Kind-specific data (for `transfer.check`: which checks). */
  readonly payload: Readonly<Record<string, unknown>>;
  /** Not claimable before this time. */
  readonly runAt: Millis;
  /** How many times it was claimed. */
  readonly attempts: number;
  readonly leaseOwner: string | null;
  readonly leaseUntil: Millis | null;
  readonly lastError: string | null;
  readonly createdAt: Millis;
}

/** An API key; the secret is kept as given by the key vault of the HTTP adapter. */
export interface ApiKeyRecord {
  readonly id: string;
  readonly accountId: string;
  /** Secret material as the configured vault stores it (never the clear secret unless no vault key). */
  readonly secret: string;
  readonly createdAt: Millis;
  readonly revokedAt: Millis | null;
  /** What the key is for, as its creator named it (absent for unnamed keys). */
  readonly name?: string;
}

/** One transfer of the ledger (the chain's transfer graph). */
export interface LedgerTransfer {
  readonly network: string;
  readonly txHash: string;
  /**
   * Position in the transaction: the log index of a token transfer; -1 for the transaction's
   * native value transfer (so it never collides with a log). Ledgers without logs may use 0.
   * Any negative value means the position inside the block is unknown (an import that knows a
   * transfer's block but not its place there numbers a transaction's transfers -1, -2, ...).
   */
  readonly logIndex: number;
  readonly tokenId: string;
  readonly from: string;
  readonly to: string;
  readonly amount: number;
  readonly occurredAt: Millis;
  readonly block: number | null;
  readonly valueUsd: number | null;
}

/** An address attributed to an entity. */
export interface Attribution {
  readonly network: string;
  readonly address: string;
  readonly entityName: string;
  readonly entityCategory: string;
  readonly source: string | null;
}

/** A token of a network. */
export interface TokenInfo {
  readonly network: string;
  readonly tokenId: string;
  readonly symbol: string;
  readonly decimals: number;
  readonly name: string | null;
}

/** A daily USD price of a token. */
export interface PriceRow {
  readonly network: string;
  readonly tokenId: string;
  /** UTC day, `YYYY-MM-DD`. */
  readonly day: string;
  readonly usd: number;
}
