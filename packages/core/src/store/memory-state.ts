/**
 * The tables of the in-memory store: plain Maps keyed by id or by a composite key. Values are
 * private copies; every read hands out a fresh copy.
 */

import type { BacktestRecord } from "../domain/backtests.js";
import type {
  AuditEventRecord,
  DecisionRecord,
  SavedViewRecord,
  SlaPolicyRecord,
} from "../domain/casework.js";
import type {
  AlertHistoryRecord,
  AlertRecord,
  ApiKeyRecord,
  Attribution,
  JobRecord,
  LedgerTransfer,
  ManualCheckRecord,
  RiskRecord,
  SanctionsListing,
  StoredRiskModel,
  TokenInfo,
  TransferRecord,
  WebhookDeliveryRecord,
  WebhookEventRecord,
  WebhookRecord,
} from "../domain/records.js";
import type { SessionRecord, UserRecord } from "../domain/users.js";
import { LedgerIndex } from "../exposure/ledger-index.js";
import { UtxoIndex } from "../exposure/utxo-index.js";
import type { PageRequest, PageResult } from "../ports/store.js";
import type { FollowedBlock, LedgerRewind } from "../ports/store-chain-follow.js";

/** Every table of one in-memory store. */
export interface MemoryTables {
  readonly transfers: Map<string, TransferRecord>;
  /** Transfer identity key to transfer id (transfers with a tx hash and output address). */
  readonly transferIdentities: Map<string, string>;
  readonly manualChecks: Map<string, ManualCheckRecord>;
  /** Subject key to its risks. */
  readonly risks: Map<string, ReadonlyArray<RiskRecord>>;
  readonly alerts: Map<string, AlertRecord>;
  /** (transferId, dedupeKey) key to alert id. */
  readonly alertDedupe: Map<string, string>;
  /** Alert id to its history, oldest first. */
  readonly alertHistory: Map<string, ReadonlyArray<AlertHistoryRecord>>;
  readonly jobs: Map<string, JobRecord>;
  /** (accountId, model id) key to its versions. */
  readonly riskModels: Map<string, ReadonlyArray<StoredRiskModel>>;
  readonly apiKeys: Map<string, ApiKeyRecord>;
  readonly ledger: LedgerSlot;
  /** The UTXO ledger (Bitcoin, Litecoin). */
  readonly utxo: UtxoIndex;
  /** (network, address) key to the id of its cluster. */
  readonly clusterOf: Map<string, string>;
  /** (network, cluster id) key to the cluster's addresses (a union appends to the kept list). */
  readonly clusterMembers: Map<string, string[]>;
  /** (network, cluster id) key to the cluster's labelled addresses, sorted (`memory-cluster-labels.ts`). */
  readonly clusterLabelled: Map<string, ReadonlyArray<string>>;
  /** The networks that have clusters (a listing labels an address on each). */
  readonly clusterNetworks: Set<string>;
  /** (network, address) key to its attribution. */
  readonly attributions: Map<string, Attribution>;
  /** Address to its listings. */
  readonly sanctions: Map<string, ReadonlyArray<SanctionsListing>>;
  /** (network, tokenId) key to the token. */
  readonly tokens: Map<string, TokenInfo>;
  /** (network, tokenId) key to day to price. */
  readonly prices: Map<string, Map<string, number>>;
  /** Named values. */
  readonly settings: Map<string, string>;
  /** (network, height) key to the block a chain follower wrote. */
  readonly followedBlocks: Map<string, FollowedBlock>;
  /** The rewinds recorded (`Store.scanRewinds`), in order: the i-th has id i + 1. */
  readonly rewinds: LedgerRewind[];
  readonly webhooks: Map<string, WebhookRecord>;
  readonly webhookEvents: Map<string, WebhookEventRecord>;
  /** Webhook id to its delivery attempts, in the order they were recorded. */
  readonly webhookDeliveries: Map<string, ReadonlyArray<WebhookDeliveryRecord>>;
  readonly users: Map<string, UserRecord>;
  /** Session id (the token's hash) to the session. */
  readonly sessions: Map<string, SessionRecord>;
  readonly backtests: Map<string, BacktestRecord>;
  readonly decisions: Map<string, DecisionRecord>;
  /** The audit log in the order it was appended. */
  readonly auditEvents: Map<string, AuditEventRecord>;
  /** Account id to its SLA policy. */
  readonly slaPolicies: Map<string, SlaPolicyRecord>;
  readonly savedViews: Map<string, SavedViewRecord>;
}

/**
 * The ledger: a {@link LedgerIndex} plus the list of its rows in insertion order, so that a
 * rolled-back transaction can rebuild the index without the rows it added.
 */
export interface LedgerSlot {
  /** Null after a rollback removed rows; rebuilt from `rows` on the next use. */
  index: LedgerIndex | null;
  readonly rows: LedgerTransfer[];
}

/** Creates empty tables. */
export function createMemoryTables(): MemoryTables {
  return {
    transfers: new Map(),
    transferIdentities: new Map(),
    manualChecks: new Map(),
    risks: new Map(),
    alerts: new Map(),
    alertDedupe: new Map(),
    alertHistory: new Map(),
    jobs: new Map(),
    riskModels: new Map(),
    apiKeys: new Map(),
    ledger: { index: new LedgerIndex(), rows: [] },
    utxo: new UtxoIndex(),
    clusterOf: new Map(),
    clusterMembers: new Map(),
    clusterLabelled: new Map(),
    clusterNetworks: new Set(),
    attributions: new Map(),
    sanctions: new Map(),
    tokens: new Map(),
    prices: new Map(),
    settings: new Map(),
    followedBlocks: new Map(),
    rewinds: [],
    webhooks: new Map(),
    webhookEvents: new Map(),
    webhookDeliveries: new Map(),
    users: new Map(),
    sessions: new Map(),
    backtests: new Map(),
    decisions: new Map(),
    auditEvents: new Map(),
    slaPolicies: new Map(),
    savedViews: new Map(),
  };
}

/** A composite map key from its parts. */
export function keyOf(...parts: ReadonlyArray<string | number | null>): string {
  return parts.map((p) => (p === null ? "\u0001" : String(p))).join("\u0000");
}

/** A deep copy of a stored value (records are plain data). */
export function copy<T>(value: T): T {
  return structuredClone(value);
}

/** One page of already ordered items, copied. */
export function pageOf<T>(items: ReadonlyArray<T>, page: PageRequest): PageResult<T> {
  const start = (page.page - 1) * page.pageSize;
  return { items: items.slice(start, start + page.pageSize).map(copy), total: items.length };
}

/** Orders by `time` descending, then id descending (the order of every list). */
export function newestFirst<T extends { readonly id: string }>(time: (item: T) => number) {
  return (a: T, b: T): number => time(b) - time(a) || compareStrings(b.id, a.id);
}

/** Orders by `time` ascending, then id ascending. */
export function oldestFirst<T extends { readonly id: string }>(time: (item: T) => number) {
  return (a: T, b: T): number => time(a) - time(b) || compareStrings(a.id, b.id);
}

/** Binary string order (what SQL's default collation of text gives for ASCII ids). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True when the optional inclusive bounds contain `value` (a null value is outside any bound). */
export function withinBounds(
  value: number | null,
  from: number | undefined,
  to: number | undefined,
): boolean {
  if (from === undefined && to === undefined) return true;
  if (value === null) return false;
  return (from === undefined || value >= from) && (to === undefined || value <= to);
}
