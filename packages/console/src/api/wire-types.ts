/**
 * The shapes of the API's answers that the console reads (see docs/http-api.md). Their enums and
 * the list envelope (`Page`) are core's own, from `@openkyt/core/wire`.
 */
import type {
  AlertStatus,
  BacktestStatus,
  Direction,
  ManualCheckStatus,
  RiskLevel,
  RuleRiskLevel,
} from "@openkyt/core/wire";

export interface RuleWire {
  readonly rule_type: string;
  readonly rule_sub_type: string;
  readonly entity_category: string;
  readonly min_value_in_fiat: number | null;
  readonly min_value_share: number | null;
  readonly risk_level?: string;
}

export interface TransferWire {
  readonly id: string;
  readonly client_id: string | null;
  readonly registered_at: string;
  readonly risk_level: RiskLevel | null;
  readonly risk_score: number | null;
  readonly network: string;
  readonly token_id: string;
  readonly token_symbol: string | null;
  readonly tx_status: string;
  readonly tx_hash: string | null;
  readonly occurred_at: string | null;
  readonly input_address: string | null;
  readonly output_address: string | null;
  readonly direction: Direction;
  readonly amount: number | null;
  readonly value_in_fiat: number | null;
  readonly check_state?: Readonly<Record<string, string | null>>;
}

export interface AlertWire {
  readonly id: string;
  readonly created_at: string;
  readonly updated_at: string | null;
  readonly risk_level: RuleRiskLevel;
  readonly risk_type: string;
  readonly risk_occurred_at: string | null;
  readonly alert_status: AlertStatus;
  readonly assignee?: string | null;
  readonly transfer: TransferWire;
  readonly fiat_currency: string;
  readonly entity_interaction: {
    readonly entity_category: string;
    readonly proximity: string;
    readonly value_in_fiat: number | null;
    readonly value_share: number | null;
    readonly rule: RuleWire;
  } | null;
}

export interface HistoryEntry {
  readonly id: string;
  readonly at: string;
  readonly actor: string | null;
  readonly from: AlertStatus | null;
  readonly to: AlertStatus | null;
  readonly comment: string | null;
  readonly assignee: string | null;
}

export interface RiskWire {
  readonly id: string;
  readonly risk_type: string;
  readonly risk_level: RuleRiskLevel;
  readonly entity_category: string;
  readonly entity_name: string | null;
  readonly proximity: string;
  readonly value_in_fiat: number | null;
  readonly value_share: number | null;
  readonly rule: RuleWire;
  readonly risk_occurred_at: string | null;
}

export interface PathWire {
  readonly hops: number;
  readonly addresses: ReadonlyArray<string>;
  readonly tx_hashes: ReadonlyArray<string>;
  /** UTXO chains: the value of each coin of tx_hashes, in the network's coin (8 decimals). */
  readonly coin_values?: ReadonlyArray<number>;
}

export interface InteractionWire {
  readonly entity_category: string;
  /** The entity's name (direct interactions). */
  readonly entity_name?: string | null;
  /** Absent on a direct interaction: the whole transfer is with that entity. */
  readonly value_share?: number;
  readonly value_in_fiat: number | null;
  readonly strongest_path?: PathWire | null;
}

export interface ExposureWire {
  readonly direct_interaction: InteractionWire | ReadonlyArray<InteractionWire> | null;
  readonly indirect_interaction: ReadonlyArray<InteractionWire> | null;
  readonly check_status?: string;
  /** OpenKYT's additions: the sanctions check's result and the model version that made the risks. */
  readonly sanctions?: SanctionsWire | null;
  /** The listings of the sanctioned addresses on the strongest paths (an indirect hit's). */
  readonly path_sanctions?: ReadonlyArray<SanctionsWire>;
  readonly risk_model?: string | null;
  /** UTXO chains, when a trace ran: how taint moved inside each transaction. */
  readonly utxo_rule?: "haircut" | "fifo";
}

/** GET /v1/basics/report-settings/. */
export interface ReportSettingsWire {
  readonly explorers: Readonly<Record<string, { readonly address: string; readonly tx: string }>>;
  readonly goaml_configured: boolean;
}

/** GET /v1/addresses/{address}/?network=. */
export interface AddressProfileWire {
  readonly network: string;
  readonly address: string;
  readonly entity: {
    readonly name: string;
    readonly category: string;
    readonly source: string | null;
    readonly attribution: "address" | "cluster";
    readonly defining_address?: string;
  } | null;
  readonly listings: SanctionsWire["listings"];
  readonly cluster: { readonly cluster_id: string; readonly size: number } | null;
  readonly transfers: ReadonlyArray<TransferWire>;
  readonly transfers_total: number;
  readonly alerts: ReadonlyArray<AlertWire>;
  readonly manual_checks: ReadonlyArray<ManualCheckWire>;
}

export interface SanctionsWire {
  readonly address: string;
  readonly hit: boolean;
  readonly listings: ReadonlyArray<{
    readonly network: string;
    readonly address: string;
    readonly list_name: string;
    readonly program: string | null;
    readonly entity: string | null;
    readonly listed_at: string | null;
    readonly delisted_at: string | null;
    readonly designated_at: string | null;
  }>;
}

export interface ManualCheckWire {
  readonly id: string;
  readonly created_at: string;
  readonly check_type: string;
  readonly check_status: ManualCheckStatus;
  readonly checked_at: string | null;
  readonly transfer: { readonly network: string; readonly tx_hash: string } | null;
  readonly address: { readonly network: string; readonly address: string } | null;
  readonly risk_level: RiskLevel | null;
  readonly risk_score: number | null;
}

export interface RiskModelWire {
  readonly id: string;
  readonly name: string;
  readonly version: number;
  readonly is_default: boolean;
  readonly is_builtin: boolean;
  readonly created_at: string | null;
  /** Why this version was written; null when none was given. */
  readonly change_reason?: string | null;
  readonly rules: ReadonlyArray<RuleWire>;
  /** This version's approval by a second admin; null (or absent): in force when written. */
  readonly approval?: ApprovalWire | null;
}

/** A version's approval (the account requires a second admin's). */
export interface ApprovalWire {
  readonly state: "pending" | "approved" | "rejected";
  readonly proposed_by: string | null;
  readonly make_default: boolean;
  readonly decided_by: string | null;
  readonly decided_at: string | null;
  readonly reason: string | null;
}

/** A rule with its 1-based number in its version. */
export interface NumberedRuleWire {
  readonly number: number;
  readonly rule: RuleWire;
}

/** Rules added, removed and changed against the previous version. */
export interface RiskModelDiffWire {
  readonly added: ReadonlyArray<NumberedRuleWire>;
  readonly removed: ReadonlyArray<NumberedRuleWire>;
  readonly changed: ReadonlyArray<{
    readonly number: number;
    readonly previous_number: number;
    readonly before: RuleWire;
    readonly after: RuleWire;
    readonly fields: ReadonlyArray<string>;
  }>;
  readonly unchanged: number;
}

/** A version in a model's history (GET /v1/risk-models/{id}/versions/). */
export interface RiskModelVersionWire {
  readonly id: string;
  readonly version: number;
  readonly name: string;
  readonly created_at: string;
  readonly change_reason: string | null;
  readonly rule_count: number;
  readonly diff: RiskModelDiffWire | null;
  readonly approval?: ApprovalWire | null;
}

export interface WebhookWire {
  readonly id: string;
  readonly url: string;
  readonly events: ReadonlyArray<string>;
  readonly created_at: string;
  readonly state?: string;
  readonly secret?: string;
}

export interface DeliveryWire {
  readonly id: string;
  readonly event_id?: string;
  readonly attempt?: number;
  readonly duration_ms?: number;
  readonly payload?: Readonly<Record<string, unknown>> | null;
  readonly event_type?: string | null;
  readonly status_code?: number | null;
  readonly ok?: boolean;
  readonly at?: string;
  readonly error?: string | null;
}

/** A backtest of a risk model (POST /v1/risk-models/{id}/backtest/, GET /v1/backtests/{id}/). */
export interface BacktestWire {
  readonly id: string;
  readonly status: BacktestStatus;
  readonly model: string;
  readonly from: string;
  readonly to: string;
  readonly progress: { readonly scanned: number; readonly total: number | null };
  readonly report: BacktestReportWire | null;
  readonly error: string | null;
}

/** The report of a done backtest: the checking models beside the candidate. */
export interface BacktestReportWire {
  readonly candidate: string;
  readonly candidate_model?: { readonly id: string; readonly name: string; readonly version: number } | null;
  readonly alert_levels?: ReadonlyArray<{
    readonly level: string;
    readonly actual: number;
    readonly candidate: number;
  }>;
  readonly moved?: ReadonlyArray<{
    readonly id: string;
    readonly network: string;
    readonly tx_hash: string | null;
    readonly amount: number | null;
    readonly token_symbol: string | null;
    readonly value_in_fiat: number | null;
    readonly from: string;
    readonly to: string;
  }>;
  readonly sanctions_dropped?: { readonly count: number; readonly ids: ReadonlyArray<string> };
  readonly evaluated: number;
  readonly unchecked: number;
  readonly actual_models: ReadonlyArray<{ readonly version: string; readonly transfers: number }>;
  readonly actual_model_missing: number;
  readonly levels: ReadonlyArray<{
    readonly level: string;
    readonly actual: number;
    readonly candidate: number;
  }>;
  readonly alerts: ReadonlyArray<{
    readonly risk_type: string;
    readonly category: string;
    readonly actual: number;
    readonly candidate: number;
  }>;
  readonly shift: {
    readonly up: number;
    readonly down: number;
    readonly same: number;
    readonly moves: ReadonlyArray<{ readonly from: string; readonly to: string; readonly count: number }>;
    readonly up_ids: ReadonlyArray<string>;
    readonly down_ids: ReadonlyArray<string>;
  };
  readonly transfers_per_second: number;
}
