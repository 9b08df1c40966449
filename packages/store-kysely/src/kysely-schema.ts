/**
 * Table types of the kysely store. Plain column types that SQLite and Postgres share: JSON as
 * text, booleans as integers 0/1, times as integer epoch ms (bigint). Postgres returns bigint
 * columns as strings, so numeric columns are read through `kysely-values.ts`.
 */
import type { ColumnType, Generated } from "kysely";

/** A bigint column: written as a number, read as a number (SQLite) or a string (Postgres). */
export type Int8 = ColumnType<number | string, number, number>;
/** A nullable bigint column. */
export type NullableInt8 = ColumnType<number | string | null, number | null, number | null>;
/** A double precision column (drivers may hand back strings for numerics; read via the transforms). */
export type Float8 = ColumnType<number | string, number, number>;
/** A nullable double precision column. */
export type NullableFloat8 = ColumnType<number | string | null, number | null, number | null>;

/** `transfers`: registered transfers and attempts. */
export interface TransfersTable {
  id: string;
  account_id: string;
  client_id: string | null;
  attempt_id: string | null;
  registered_at: Int8;
  network: string;
  token_id: string;
  token_symbol: string | null;
  direction: string;
  tx_status: string;
  tx_hash: string | null;
  occurred_at: NullableInt8;
  input_address: string | null;
  output_address: string | null;
  amount: NullableFloat8;
  value_in_fiat: NullableFloat8;
  risk_level: string;
  risk_score: NullableFloat8;
  risk_model_id: string | null;
  risk_model_version: string | null;
  /** JSON of `CheckStates`. */
  checks: string;
  /** 0 or 1. */
  disable_auto_check: Int8;
  exposure: string | null;
  counterparty: string | null;
  sanctions: string | null;
  counterparty_name: string | null;
  counterparty_category: string | null;
  last_error: string | null;
  updated_at: Int8;
  /** The bound ledger row's block and log index (migration 0014); NULL when unknown. */
  block: NullableInt8;
  log_index: NullableInt8;
}

/** `manual_checks`. */
export interface ManualChecksTable {
  id: string;
  account_id: string;
  created_at: Int8;
  check_type: string;
  check_status: string;
  checked_at: NullableInt8;
  network: string;
  token_id: string;
  token_symbol: string | null;
  tx_hash: string | null;
  output_address: string | null;
  direction: string | null;
  address: string | null;
  tx_status: string | null;
  occurred_at: NullableInt8;
  input_address: string | null;
  counterparty_address: string | null;
  amount: NullableFloat8;
  value_in_fiat: NullableFloat8;
  risk_level: string;
  risk_score: NullableFloat8;
  risk_model_id: string | null;
  risk_model_version: string | null;
  exposure: string | null;
  counterparty: string | null;
  sanctions: string | null;
  last_error: string | null;
  updated_at: Int8;
}

/** `risks`: the rules that fired, per subject and check. */
export interface RisksTable {
  id: string;
  account_id: string;
  subject_type: string;
  subject_id: string;
  check_kind: string;
  risk_type: string;
  risk_level: string;
  /** Rank of `risk_level` (higher is riskier), for ordering. */
  level_rank: Int8;
  entity_category: string;
  entity_name: string | null;
  proximity: string;
  value_in_fiat: NullableFloat8;
  value_share: NullableFloat8;
  /** JSON of the `RiskRule`. */
  rule: string;
  occurred_at: Int8;
  created_at: Int8;
}

/** `alerts`. */
export interface AlertsTable {
  id: string;
  account_id: string;
  transfer_id: string;
  dedupe_key: string;
  created_at: Int8;
  updated_at: NullableInt8;
  risk_level: string;
  risk_type: string;
  risk_occurred_at: Int8;
  alert_status: string;
  entity_category: string;
  proximity: string;
  value_in_fiat: NullableFloat8;
  value_share: NullableFloat8;
  rule: string;
  assignee: string | null;
}

/** `alert_history`: `position` numbers the entries of one alert in append order. */
export interface AlertHistoryTable {
  id: string;
  alert_id: string;
  position: Int8;
  at: Int8;
  actor: string | null;
  from_status: string | null;
  to_status: string;
  comment: string | null;
  assignee: string | null;
}

/** `jobs`: durable work with leases. */
export interface JobsTable {
  id: string;
  kind: string;
  account_id: string;
  subject_id: string;
  /** JSON object. */
  payload: string;
  run_at: Int8;
  attempts: Int8;
  lease_owner: string | null;
  lease_until: NullableInt8;
  last_error: string | null;
  created_at: Int8;
}

/** `risk_models`: one row per (account, model id, version). */
export interface RiskModelsTable {
  account_id: string;
  id: string;
  version: Int8;
  name: string;
  /** JSON array of `RiskRule`. */
  rules: string;
  created_at: Int8;
  deleted_at: NullableInt8;
  /** Why this version was written (migration 0060); NULL when none was given. */
  change_reason: string | null;
  /** pending, approved or rejected (migration 0080); NULL: written while approval was off. */
  approval_state: string | null;
  proposed_by: string | null;
  /** 1 when approving the version makes the model the account's default. */
  make_default: NullableInt8;
  decided_by: string | null;
  decided_at: NullableInt8;
  decision_reason: string | null;
}

/** `api_keys`. */
export interface ApiKeysTable {
  id: string;
  account_id: string;
  secret: string;
  created_at: Int8;
  revoked_at: NullableInt8;
  /** What the key is for (migration 0040); null for keys made before names. */
  name: string | null;
}

/** `ledger_transfers`: the chain's transfer graph. */
export interface LedgerTransfersTable {
  network: string;
  tx_hash: string;
  log_index: Int8;
  token_id: string;
  from_address: string;
  to_address: string;
  amount: Float8;
  occurred_at: Int8;
  block: NullableInt8;
  value_usd: NullableFloat8;
}

/**
 * `utxo_transactions`: one row per UTXO transaction (migrations 0030, 0101); `id` keys its
 * outputs and inputs (SQLite: the rowid).
 */
export interface UtxoTransactionsTable {
  id: Generated<number | string>;
  txid: string;
  network: string;
  block: NullableInt8;
  block_hash: string | null;
  occurred_at: Int8;
  position: Int8;
  coinbase: Int8;
}

/**
 * `utxo_outputs`: one row per output, keyed `(tx, vout)` by its transaction's id, with its
 * transaction's time for the receipts index `(address, occurred_at)` (migration 0101).
 */
export interface UtxoOutputsTable {
  tx: Int8;
  vout: Int8;
  address: string | null;
  value: Int8;
  occurred_at: Int8;
}

/** `utxo_inputs`: one row per input, keyed `(tx, vin)` by its transaction's id (migration 0101). */
export interface UtxoInputsTable {
  tx: Int8;
  vin: Int8;
  prev_txid: string | null;
  prev_vout: NullableInt8;
  address: string | null;
  value: Int8;
  coinbase: Int8;
}

/** `utxo_clusters`: an address's cluster (migration 0031). */
export interface UtxoClustersTable {
  address: string;
  network: string;
  cluster_id: string;
}

/** `utxo_cluster_sizes`: how many addresses each cluster holds. */
export interface UtxoClusterSizesTable {
  cluster_id: string;
  network: string;
  size: Int8;
}

/**
 * `utxo_cluster_labels`: a clustered address with an attribution on its network or a sanctions
 * listing, by cluster (migration 0090).
 */
export interface UtxoClusterLabelsTable {
  network: string;
  cluster_id: string;
  address: string;
}

/** `attributions`: address to entity, one per (network, address). */
export interface AttributionsTable {
  network: string;
  address: string;
  entity_name: string;
  entity_category: string;
  source: string | null;
}

/**
 * `sanctions_listings`, keyed by (address, list_name, listed_at). An unknown start date is kept
 * as {@link UNDATED_LISTING} so that it takes part in the key (NULLs never conflict).
 */
export interface SanctionsListingsTable {
  address: string;
  list_name: string;
  listed_at: Int8;
  network: string;
  program: string | null;
  entity: string | null;
  delisted_at: NullableInt8;
  /** The designation date the source gives; NULL when it gives none (migration 0009). */
  designated_at: NullableInt8;
}

/** `listed_at` of a listing with no known start date. */
export const UNDATED_LISTING = Number.MIN_SAFE_INTEGER;

/** `tokens`, keyed by (network, token_id). */
export interface TokensTable {
  network: string;
  token_id: string;
  symbol: string;
  decimals: Int8;
  name: string | null;
}

/** `prices`: daily USD prices keyed by (network, token_id, day). */
export interface PricesTable {
  network: string;
  token_id: string;
  /** `YYYY-MM-DD`. */
  day: string;
  usd: Float8;
}

/** `settings`: small named values (ingestor cursors). */
export interface SettingsTable {
  key: string;
  value: string;
}

/** `followed_blocks`: the blocks chain followers wrote (migration 0020). */
export interface FollowedBlocksTable {
  network: string;
  height: Int8;
  hash: string;
}

/** `ledger_rewinds`: the rows chain followers removed after reorganisations (migration 0070). */
export interface LedgerRewindsTable {
  id: Int8;
  /** "account" or "utxo". */
  ledger: string;
  network: string;
  from_height: Int8;
  resume_after: Int8;
}

/** `request_signatures`: signed requests admitted against replay (migration 0007). */
export interface RequestSignaturesTable {
  key_id: string;
  /** The signature in canonical Base64. */
  digest: string;
  /** Epoch ms after which the row no longer counts. */
  expires_at: Int8;
}

/** `users`: the people who sign in to the console (migration 0011). */
export interface UsersTable {
  id: string;
  account_id: string;
  /** Lower-case, unique across accounts. */
  email: string;
  role: string;
  password_hash: string;
  created_at: Int8;
  disabled_at: NullableInt8;
}

/** `sessions`: signed-in console sessions, keyed by the SHA-256 of their token (migration 0011). */
export interface SessionsTable {
  id: string;
  user_id: string;
  account_id: string;
  csrf_token: string;
  created_at: Int8;
  expires_at: Int8;
  revoked_at: NullableInt8;
}

/** `backtests`: backtests of risk models run as jobs (migration 0013). */
export interface BacktestsTable {
  id: string;
  account_id: string;
  status: string;
  /** JSON of `BacktestRequest`. */
  request: string;
  scanned: Int8;
  total: NullableInt8;
  /** JSON of `BacktestReport`; null until done. */
  report: string | null;
  error: string | null;
  created_at: Int8;
  updated_at: Int8;
}

/** `webhooks`: subscriptions. */
export interface WebhooksTable {
  id: string;
  account_id: string;
  url: string;
  /** JSON array of event types. */
  events: string;
  secret: string;
  created_at: Int8;
  deleted_at: NullableInt8;
  /** `active` or `paused` (migration 0008). */
  state: ColumnType<string, string | undefined, string>;
  paused_at: NullableInt8;
  paused_reason: string | null;
  consecutive_failures: ColumnType<number | string, number | undefined, number>;
}

/** `webhook_events`: the outbox. */
export interface WebhookEventsTable {
  id: string;
  account_id: string;
  type: string;
  /** JSON object. */
  payload: string;
  created_at: Int8;
}

/** `webhook_deliveries`: one row per delivery attempt. */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_id: string;
  attempt: Int8;
  at: Int8;
  /** 1 when the receiver answered 2xx. */
  ok: Int8;
  status_code: NullableInt8;
  error: string | null;
  duration_ms: Int8;
}

/** Every table of the store. */
export interface Database {
  transfers: TransfersTable;
  manual_checks: ManualChecksTable;
  risks: RisksTable;
  alerts: AlertsTable;
  alert_history: AlertHistoryTable;
  jobs: JobsTable;
  risk_models: RiskModelsTable;
  api_keys: ApiKeysTable;
  ledger_transfers: LedgerTransfersTable;
  utxo_transactions: UtxoTransactionsTable;
  utxo_outputs: UtxoOutputsTable;
  utxo_inputs: UtxoInputsTable;
  utxo_clusters: UtxoClustersTable;
  utxo_cluster_sizes: UtxoClusterSizesTable;
  utxo_cluster_labels: UtxoClusterLabelsTable;
  attributions: AttributionsTable;
  sanctions_listings: SanctionsListingsTable;
  tokens: TokensTable;
  prices: PricesTable;
  settings: SettingsTable;
  followed_blocks: FollowedBlocksTable;
  ledger_rewinds: LedgerRewindsTable;
  request_signatures: RequestSignaturesTable;
  webhooks: WebhooksTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  users: UsersTable;
  sessions: SessionsTable;
  backtests: BacktestsTable;
  decisions: DecisionsTable;
  audit_events: AuditEventsTable;
  sla_policies: SlaPoliciesTable;
  saved_views: SavedViewsTable;
}

/** `decisions`: decisions on cases (migration 0040); `alert_ids` is a JSON array. */
export interface DecisionsTable {
  id: string;
  account_id: string;
  transfer_id: string;
  alert_ids: string;
  outcome: string;
  comment: string;
  actor: string | null;
  decided_at: Int8;
}

/** `audit_events`: the append-only audit log (migration 0040); `details` is JSON. */
export interface AuditEventsTable {
  id: string;
  account_id: string;
  at: Int8;
  actor: string | null;
  action: string;
  subject: string | null;
  details: string;
}

/** `sla_policies`: hours per risk level of each account (migration 0040), as JSON. */
export interface SlaPoliciesTable {
  account_id: string;
  hours: string;
  updated_at: Int8;
  updated_by: string | null;
}

/** `saved_views`: a user's named queue filters (migration 0040). */
export interface SavedViewsTable {
  id: string;
  account_id: string;
  user_id: string;
  name: string;
  query: string;
  created_at: Int8;
  /** 1: shared with the account (migration 0080). */
  shared: Int8;
}
