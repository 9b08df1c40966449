/** The shapes of the casework answers the console reads: the queue, cases, users, audit, views. */
import type { AlertWire } from "./wire-types.js";

/** Decision outcomes, in the order the form offers them. */
export const OUTCOMES = ["false_positive", "true_positive", "escalated", "reported_to_fiu"] as const;

/** An alert of the queue: its assignee and SLA. */
export interface QueueItem extends AlertWire {
  readonly assignee: string | null;
  readonly due_at: string | null;
  readonly breached: boolean;
}

export interface DecisionWire {
  readonly id: string;
  readonly case_id: string;
  readonly alert_ids: ReadonlyArray<string>;
  readonly outcome: (typeof OUTCOMES)[number];
  readonly comment: string;
  readonly actor: string | null;
  readonly decided_at: string;
}

export interface CaseWire {
  readonly id: string;
  readonly status: "open" | "closed";
  readonly outcome: DecisionWire["outcome"] | null;
  readonly alerts: ReadonlyArray<QueueItem>;
  readonly decisions: ReadonlyArray<DecisionWire>;
}

export interface UserWire {
  readonly id: string;
  readonly email: string;
  readonly role: "analyst" | "admin";
  readonly created_at: string;
  readonly disabled_at: string | null;
}

export interface AuditWire {
  readonly id: string;
  readonly at: string;
  readonly actor: string | null;
  readonly action: string;
  readonly subject: string | null;
  readonly details: Readonly<Record<string, unknown>>;
}

export interface SavedViewWire {
  readonly id: string;
  readonly name: string;
  readonly query: string;
  /** Shared with the account: every user sees it, read-only but for its owner. */
  readonly shared: boolean;
  /** The signed-in user's own view. */
  readonly mine: boolean;
  /** Its owner's e-mail. */
  readonly owner: string | null;
  /** Whether the signed-in user may delete it (its owner, or an admin when shared). */
  readonly can_delete: boolean;
}

/** GET /v1/model-approval/ */
export interface ApprovalSettingWire {
  readonly required: boolean;
  readonly updated_at: string | null;
  readonly updated_by: string | null;
}

/** GET /v1/explorer-settings/ */
export interface ExplorerSettingsWire {
  readonly explorers: Readonly<Record<string, { readonly address: string; readonly tx: string }>>;
  readonly updated_at: string | null;
  readonly updated_by: string | null;
}

export interface SummaryWire {
  readonly mine: number;
  readonly mine_breached: number;
  readonly unassigned: number;
  readonly breached: number;
  readonly active: number;
}

export interface SlaWire {
  readonly hours: Readonly<Record<"severe" | "high" | "medium" | "low", number | null>>;
  readonly updated_at: string | null;
  readonly updated_by: string | null;
}

/** One answer of the bulk change. */
export interface BulkItemWire {
  readonly id: string;
  readonly status: number;
  readonly error?: { readonly detail: string; readonly code: string };
}
