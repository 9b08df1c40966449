/**
 * The Store port: everything the engine keeps. One implementation per storage technology
 * (memory in core, SQLite and Postgres over kysely); all pass `@openkyt/testkit`'s
 * conformance suite.
 *
 * Contract common to every member:
 * - records go in and come out as plain frozen-compatible objects; the store never mutates an
 *   argument and returns fresh objects;
 * - `account` scoping is the engine's job except where a member takes an `accountId`, in which
 *   case it never returns another account's rows;
 * - inside `transaction(fn)` every call sees the transaction's own writes, and either all of
 *   them land or none does (the error `fn` threw is rethrown unchanged).
 */

import type { AlertOrder } from "../domain/casework.js";
import type {
  AlertStatus,
  CheckKind,
  Direction,
  Proximity,
  RiskLevel,
  RiskType,
  RuleRiskLevel,
  TxStatus,
} from "../domain/enums.js";
import type { ModelApprovalRecord } from "../domain/model-approval.js";
import type {
  AlertHistoryRecord,
  AlertRecord,
  ApiKeyRecord,
  Attribution,
  JobKind,
  JobRecord,
  LedgerTransfer,
  ManualCheckRecord,
  Millis,
  PriceRow,
  RiskModel,
  RiskModelVersionDetails,
  RiskRecord,
  RiskSubjectType,
  SanctionsListing,
  SealedSecret,
  SecretOwner,
  StoredRiskModel,
  TokenInfo,
  TransferRecord,
  WebhookDeliveryRecord,
  WebhookEventRecord,
  WebhookRecord,
} from "../domain/records.js";
import type { LedgerReader } from "./ledger-reader.js";
import type { ReplayAdmission } from "./replay-guard.js";
import type { BacktestStoreOps } from "./store-backtests.js";
import type { CaseworkStoreOps } from "./store-casework.js";
import type { ChainFollowStoreOps, LedgerRewind } from "./store-chain-follow.js";
import type { OperationsStoreOps } from "./store-operations.js";
import type { UserStoreOps } from "./store-users.js";
import type { UtxoClusterStore } from "./utxo-clusters.js";
import type { UtxoBulkWriter, UtxoLedgerStore, UtxoScan } from "./utxo-ledger.js";

/** What {@link StoreOps.noteWebhookDelivery} counts. */
export interface WebhookDeliveryOutcome {
  /** True when the receiver answered 2xx. */
  readonly ok: boolean;
  readonly at: Millis;
  /** Consecutive failures that pause an active webhook (at least 1). */
  readonly pauseAfter: number;
  /** The reason recorded when this failure pauses it. */
  readonly reason: string;
}

/** A page request: page from 1, pageSize >= 1 (the engine bounds it). */
export interface PageRequest {
  readonly page: number;
  readonly pageSize: number;
}

/** A page of results with the total count of matching rows. */
export interface PageResult<T> {
  readonly items: ReadonlyArray<T>;
  readonly total: number;
}

/** Filters of the transfer list; time bounds are inclusive epoch ms. All optional, ANDed. */
export interface TransferFilter {
  readonly clientId?: string;
  readonly direction?: Direction;
  readonly network?: string;
  readonly tokenId?: string;
  readonly tokenSymbol?: string;
  readonly txHash?: string;
  readonly inputAddress?: string;
  readonly outputAddress?: string;
  readonly registeredFrom?: Millis;
  readonly registeredTo?: Millis;
  readonly occurredFrom?: Millis;
  readonly occurredTo?: Millis;
  readonly riskLevel?: RiskLevel;
  /** Binding status: finds the transfers still binding, not found on chain, or in error. */
  readonly txStatus?: TxStatus;
  readonly counterpartyName?: string;
  readonly counterpartyCategory?: string;
}

/** Filters of the alert list; client/network/token filters apply to the alert's transfer. */
export interface AlertFilter {
  readonly clientId?: string;
  readonly riskType?: RiskType;
  readonly riskLevel?: RiskLevel;
  readonly alertStatus?: AlertStatus;
  readonly createdFrom?: Millis;
  readonly createdTo?: Millis;
  readonly occurredFrom?: Millis;
  readonly occurredTo?: Millis;
  readonly network?: string;
  readonly tokenId?: string;
  readonly tokenSymbol?: string;
  readonly entityCategory?: string;
  readonly proximity?: Proximity;
  /** The exact assignee; null: the alerts nobody is assigned to. */
  readonly assignee?: string | null;
  /** True: only alerts not done (open, in progress, awaiting response). */
  readonly active?: boolean;
  /**
   * Only overdue alerts: for each level named, created strictly before its cut-off (see
   * `slaCutoffs`); alerts of a level not named never match.
   */
  readonly overdue?: Readonly<Partial<Record<RuleRiskLevel, Millis>>>;
  /**
   * What identifies an alert, case-insensitive: its id or its transfer's id or client id exactly,
   * or a part of its transfer's tx hash, input or output address.
   */
  readonly search?: string;
  /** The order of the list; default `newest`. */
  readonly order?: AlertOrder;
}

/** What makes two registrations the same transfer. */
export interface TransferIdentity {
  readonly accountId: string;
  readonly network: string;
  readonly txHash: string;
  readonly tokenId: string;
  readonly outputAddress: string;
  readonly direction: Direction;
}

/** Arguments of {@link StoreOps.claimJobs}. */
export interface ClaimJobsRequest {
  readonly now: Millis;
  readonly limit: number;
  /** The lease runs until now + leaseMs. */
  readonly leaseMs: number;
  /** Who holds the lease (a worker id). */
  readonly owner: string;
  /** Only jobs of these kinds (a runner lane); every kind when omitted. */
  readonly kinds?: ReadonlyArray<JobKind>;
}

/** Filter of the token list. */
export interface TokenFilter {
  readonly network?: string;
  readonly tokenId?: string;
  /** Case-insensitive symbol match. */
  readonly symbol?: string;
}

/** What differs between stores, as flags (never `instanceof` checks). */
export interface StoreCapabilities {
  /**
   * Several processes may use this store at once: they claim jobs from it, and the HTTP adapter
   * keeps its replay guard in it (`admitRequestSignature`) so that every process refuses a replay.
   */
  readonly multiProcess: boolean;
  /** Human name of the backend, for logs. */
  readonly dialect: string;
  /**
   * Reads are answered inside this process, without a round trip (the in-memory store): joining
   * the reads of many traces into one statement saves nothing there, so the cold sources do not
   * (`coalesceCounts`). Absent means false.
   */
  readonly inProcess?: boolean;
}

/** The risks the checks `checkKinds` produced for one subject (see `replaceRisksOfSubjects`). */
export interface RiskReplacement {
  readonly subjectId: string;
  readonly checkKinds: ReadonlyArray<CheckKind>;
  readonly risks: ReadonlyArray<RiskRecord>;
}

/** The results a transfer's checks left on it, which its summary leaves out. */
export type TransferResultField = "exposure" | "counterparty" | "sanctions";

/** A transfer without its checks' results: what `GET /v1/transfers/{id}/` presents. */
export type TransferSummary = Omit<TransferRecord, TransferResultField>;

/** Transfers: registration, binding and checking write them. */
export interface TransferStore {
  /** Inserts a new transfer. A transfer with the same identity (see findTransfer) or id: CONFLICT. */
  insertTransfer(record: TransferRecord): Promise<void>;
  /** Replaces a transfer by id. Unknown id: NOT_FOUND. */
  updateTransfer(record: TransferRecord): Promise<void>;
  /** One transfer by id, any account. */
  getTransfer(id: string): Promise<TransferRecord | null>;
  /**
   * One transfer by id, any account, without its checks' results (exposure, counterparty and
   * sanctions: the largest part of a row, which reading and decoding would cost for nothing
   * where only the summary is presented). Never locks a row; not for a read-then-write.
   */
  getTransferSummary(id: string): Promise<TransferSummary | null>;
  /**
   * Transfers by ids, any account, in no particular order; unknown ids are left out. Inside a
   * transaction of a multi-process store the rows read stay locked until it ends, like
   * `getTransfer`'s, so a batch can read what it will write in one statement.
   */
  getTransfers(ids: ReadonlyArray<string>): Promise<ReadonlyArray<TransferRecord>>;
  /** The full transfer with this identity (tx_hash not null), or null. */
  findTransfer(identity: TransferIdentity): Promise<TransferRecord | null>;
  /**
   * Inserts new transfers together: a statement per chunk of rows, not one per row. One whose
   * identity or id exists (stored, or earlier in `records`): CONFLICT, and none is inserted.
   */
  insertTransfers(records: ReadonlyArray<TransferRecord>): Promise<void>;
  /**
   * Replaces transfers by id together, a statement per chunk. An unknown id: NOT_FOUND, and
   * none is written; an identity taken by another transfer: CONFLICT, none written.
   */
  updateTransfers(records: ReadonlyArray<TransferRecord>): Promise<void>;
  /**
   * The full transfers with these identities that exist, in no particular order, read together
   * (locked inside a transaction of a multi-process store, like `findTransfer`).
   */
  findTransfers(identities: ReadonlyArray<TransferIdentity>): Promise<ReadonlyArray<TransferRecord>>;
  /** The account's transfers matching the filter, newest registeredAt first, ties by id descending. */
  listTransfers(
    accountId: string,
    filter: TransferFilter,
    page: PageRequest,
  ): Promise<PageResult<TransferRecord>>;
}

/** Manual checks of addresses and transactions. */
export interface ManualCheckStore {
  /** Inserts a new manual check; duplicate id: CONFLICT. */
  insertManualCheck(record: ManualCheckRecord): Promise<void>;
  /** Replaces a manual check by id. Unknown id: NOT_FOUND. */
  updateManualCheck(record: ManualCheckRecord): Promise<void>;
  /** One manual check by id, any account. */
  getManualCheck(id: string): Promise<ManualCheckRecord | null>;
  /** The account's manual checks, newest createdAt first, ties by id descending. */
  listManualChecks(accountId: string, page: PageRequest): Promise<PageResult<ManualCheckRecord>>;
}

/** The risks a check produced for a transfer or manual check. */
export interface RiskStore {
  /**
   * Atomically replaces the risks that the checks `checkKinds` produced for one subject with
   * `risks` (one statement per step whatever the number of kinds). Every risk must be of one of
   * `checkKinds` (else VALIDATION_ERROR, nothing written); risks of other kinds are kept.
   * Concurrent replacements for a stored subject never mix: one whole set is left.
   */
  replaceRisks(
    subjectType: RiskSubjectType,
    subjectId: string,
    checkKinds: ReadonlyArray<CheckKind>,
    risks: ReadonlyArray<RiskRecord>,
  ): Promise<void>;
  /**
   * `replaceRisks` for several subjects of one type at once, atomically, with a statement per
   * step and chunk instead of per subject. Each replacement follows `replaceRisks`'s rules; a
   * subject named twice: VALIDATION_ERROR, nothing written.
   */
  replaceRisksOfSubjects(
    subjectType: RiskSubjectType,
    replacements: ReadonlyArray<RiskReplacement>,
  ): Promise<void>;
  /** Every risk of a subject, highest level first, then by createdAt and id. */
  listRisks(subjectType: RiskSubjectType, subjectId: string): Promise<ReadonlyArray<RiskRecord>>;
}

/** Alerts and their history. */
export interface AlertStore {
  /** Inserts an alert unless one with the same (transferId, dedupeKey) exists; true when inserted. */
  insertAlert(record: AlertRecord): Promise<boolean>;
  /** Replaces an alert by id. Unknown id: NOT_FOUND. */
  updateAlert(record: AlertRecord): Promise<void>;
  /** One alert by id, any account. */
  getAlert(id: string): Promise<AlertRecord | null>;
  /** The account's alerts matching the filter, newest createdAt first, ties by id descending. */
  listAlerts(accountId: string, filter: AlertFilter, page: PageRequest): Promise<PageResult<AlertRecord>>;
  /** The alerts of one transfer, oldest first. */
  listAlertsOfTransfer(transferId: string): Promise<ReadonlyArray<AlertRecord>>;
  /** Appends an entry to an alert's history; concurrent appends all land, in distinct positions. */
  appendAlertHistory(entry: AlertHistoryRecord): Promise<void>;
  /**
   * Writes the first history entry of each alert of `entries` (alerts without history: those
   * `insertAlert` just inserted), with a statement per chunk instead of `appendAlertHistory`'s
   * read of the last position, and lock, per entry. An alert that has history already, or named
   * twice: CONFLICT, nothing written (in a transaction: the transaction fails).
   */
  appendFirstAlertHistory(entries: ReadonlyArray<AlertHistoryRecord>): Promise<void>;
  /** An alert's history, oldest first. */
  listAlertHistory(alertId: string): Promise<ReadonlyArray<AlertHistoryRecord>>;
}

/** A job to run again later (see `JobStore.postponeJobs`). */
export interface PostponedJob {
  readonly id: string;
  readonly runAt: Millis;
  /** Why it waits (shown where jobs are listed). */
  readonly lastError: string | null;
}

/** The durable jobs: leases instead of locks. */
export interface JobStore {
  /** Adds a job. Duplicate id: CONFLICT. */
  enqueueJob(job: JobRecord): Promise<void>;
  /** Adds jobs together, a statement per chunk. A duplicate id: CONFLICT, and none is added. */
  enqueueJobs(jobs: ReadonlyArray<JobRecord>): Promise<void>;
  /**
   * Claims up to `limit` due jobs (runAt <= now, and no lease or a lease that ran out),
   * earliest runAt first: each gets the lease (owner, now + leaseMs) and attempts + 1.
   * Atomic: two concurrent claimers never get the same job while its lease holds.
   */
  claimJobs(request: ClaimJobsRequest): Promise<ReadonlyArray<JobRecord>>;
  /** Deletes a finished job if `owner` still holds its lease; false when the lease was lost. */
  completeJob(id: string, owner: string): Promise<boolean>;
  /** `completeJob` for several jobs in one statement; answers how many `owner` still held (and deleted). */
  completeJobs(ids: ReadonlyArray<string>, owner: string): Promise<number>;
  /**
   * Releases a job for a later run (runAt, lastError kept) if `owner` still holds its lease;
   * false when the lease was lost.
   */
  retryJob(id: string, owner: string, runAt: Millis, lastError: string | null): Promise<boolean>;
  /**
   * Puts jobs back to wait as fresh ones, for those `owner` still holds: each gets its runAt and
   * lastError, attempts 0 (waiting is not failing: it does not count towards the attempts a job
   * may fail) and no lease. All or nothing; answers how many it postponed (a repeated id
   * counts once, its first entry wins). The id stays: a lease lost meanwhile still makes any later completion by the old
   * owner fail, since the lease is released.
   */
  postponeJobs(postponed: ReadonlyArray<PostponedJob>, owner: string): Promise<number>;
  /** The jobs of a subject (for tests and diagnostics). */
  listJobs(subjectId?: string): Promise<ReadonlyArray<JobRecord>>;
  /**
   * The earliest time any job becomes claimable (runAt, or leaseUntil when leased); null if none.
   * With `kinds`, only jobs of those kinds count (a runner's lane: the jobs it may claim), so a
   * lane is not woken by jobs only another lane claims; an empty list answers null.
   */
  nextJobAt(kinds?: ReadonlyArray<JobKind>): Promise<Millis | null>;
}

/** Versioned risk models of an account. */
export interface RiskModelStore {
  /**
   * Stores a version of a model (id + version unique); a same id+version: CONFLICT. `details`
   * (the change reason) is kept with the version and answered by the list members.
   */
  putRiskModel(
    accountId: string,
    model: RiskModel,
    createdAt?: Millis,
    details?: RiskModelVersionDetails,
  ): Promise<void>;
  /**
   * A model of the account by id: its version in force unless `version` is given (the newest
   * version whose approval is none or approved: a version pending or rejected checks nothing).
   * Without a version a deleted model is null (it cannot check anything new), and so is one with
   * no version in force; with one it is returned (past results keep their model).
   */
  getRiskModel(accountId: string, id: string, version?: number): Promise<RiskModel | null>;
  /**
   * Records the decision on a pending version (compare and set): its approval becomes
   * `approval` only while the stored one is still pending; false when the version is unknown,
   * deleted, or not pending (a concurrent decision won).
   */
  decideRiskModelVersion(
    accountId: string,
    id: string,
    version: number,
    approval: ModelApprovalRecord,
  ): Promise<boolean>;
  /**
   * The newest version of each live model of the account (pending ones too), by name then id,
   * with its dates.
   */
  listRiskModels(accountId: string): Promise<ReadonlyArray<StoredRiskModel>>;
  /** Every version of one model of the account (deleted ones too), oldest first. */
  listRiskModelVersions(accountId: string, id: string): Promise<ReadonlyArray<StoredRiskModel>>;
  /** Marks every version of a model deleted at `at`; false when unknown or already deleted. */
  deleteRiskModel(accountId: string, id: string, at: Millis): Promise<boolean>;
}

/** Webhooks, their events and deliveries. */
export interface WebhookStore {
  /** Adds a webhook subscription; duplicate id: CONFLICT. */
  putWebhook(record: WebhookRecord): Promise<void>;
  /** One webhook by id, any account, deleted ones too. */
  getWebhook(id: string): Promise<WebhookRecord | null>;
  /** The live webhooks of an account, oldest first. */
  listWebhooks(accountId: string): Promise<ReadonlyArray<WebhookRecord>>;
  /** Marks a webhook deleted at `at`; false when unknown or already deleted. */
  deleteWebhook(id: string, at: Millis): Promise<boolean>;
  /** Writes an event to the outbox; duplicate id: CONFLICT. */
  putWebhookEvent(record: WebhookEventRecord): Promise<void>;
  /** One outbox event by id. */
  getWebhookEvent(id: string): Promise<WebhookEventRecord | null>;
  /** Records one delivery attempt. */
  appendWebhookDelivery(record: WebhookDeliveryRecord): Promise<void>;
  /** Delivery attempts of a webhook, newest first (ties by id descending). */
  listWebhookDeliveries(webhookId: string, page: PageRequest): Promise<PageResult<WebhookDeliveryRecord>>;
  /**
   * Counts the outcome of a delivery to a webhook, atomically (concurrent calls all count): a
   * success sets its consecutive failures to 0; a failure adds one and, when the count reaches
   * `pauseAfter` while the webhook is active, pauses it at `at` with `reason`. Returns the
   * webhook as updated; null when unknown.
   */
  noteWebhookDelivery(id: string, outcome: WebhookDeliveryOutcome): Promise<WebhookRecord | null>;
  /**
   * Makes a paused live webhook active again, with no failure counted; false when unknown,
   * deleted or not paused.
   */
  resumeWebhook(id: string): Promise<boolean>;
}

/** Secrets sealed by the vault (resealing). */
export interface SecretStore {
  /** Every stored secret, of API keys and webhooks (revoked and deleted ones too), by owner then id. */
  listSealedSecrets(): Promise<ReadonlyArray<SealedSecret>>;
  /**
   * Replaces one stored secret if it is still `expected` (compare and set); false when the
   * owner's row is unknown or holds another secret.
   */
  replaceSealedSecret(owner: SecretOwner, id: string, expected: string, sealed: string): Promise<boolean>;
}

/** API keys of accounts. */
export interface ApiKeyStore {
  /** Adds a key; duplicate id: CONFLICT. */
  putApiKey(record: ApiKeyRecord): Promise<void>;
  /** One key by id (revoked ones too). */
  getApiKey(id: string): Promise<ApiKeyRecord | null>;
  /** The keys of an account, oldest first. */
  listApiKeys(accountId: string): Promise<ReadonlyArray<ApiKeyRecord>>;
  /** Marks a key revoked at `at`; false when unknown or already revoked. */
  revokeApiKey(id: string, at: Millis): Promise<boolean>;
}

/** The ledger rows a store keeps (tracing reads them through `LedgerReader`). */
export interface LedgerStore {
  /** Inserts ledger transfers, ignoring ones already present (same network, txHash, logIndex); returns how many were new. */
  putLedgerTransfers(rows: ReadonlyArray<LedgerTransfer>): Promise<number>;
  /** Every ledger transfer of a transaction, by logIndex. */
  ledgerByTxHash(network: string, txHash: string): Promise<ReadonlyArray<LedgerTransfer>>;
  /**
   * Optional, for stores where a statement is a round trip: every ledger transfer of each of
   * `txHashes` (unknown ones have none), in one read; each transaction's rows by logIndex, the
   * transactions in no promised order. The same rows as `ledgerByTxHash` of each hash.
   */
  ledgerByTxHashes?(network: string, txHashes: ReadonlyArray<string>): Promise<ReadonlyArray<LedgerTransfer>>;
}

/** Reference data: attributions, sanctions, tokens, prices. */
export interface ReferenceStore {
  /** Inserts or replaces attributions (key: network, address). Returns rows written. */
  putAttributions(rows: ReadonlyArray<Attribution>): Promise<number>;
  /** Attributions of these addresses on a network (at most one per address). */
  getAttributions(network: string, addresses: ReadonlyArray<string>): Promise<ReadonlyArray<Attribution>>;
  /**
   * Inserts or replaces sanctions listings (key: address, listName, listedAt). Returns rows written.
   * Addresses are kept as given (already normalised by the caller).
   */
  putSanctions(rows: ReadonlyArray<SanctionsListing>): Promise<number>;
  /** Every listing (current and past) of these addresses, on any network. */
  getSanctions(addresses: ReadonlyArray<string>): Promise<ReadonlyArray<SanctionsListing>>;
  /** Every listing (current and past) of one list, by address then listedAt. */
  listSanctionsOfList(listName: string): Promise<ReadonlyArray<SanctionsListing>>;
  /**
   * A page of every attribution, at most `limit`, in the store's order of (network, address),
   * after the one `after` names (exclusive; null: from the start). Loads them whole page by page
   * (a warm process holds them in memory).
   */
  scanAttributions(
    after: Pick<Attribution, "network" | "address"> | null,
    limit: number,
  ): Promise<ReadonlyArray<Attribution>>;
  /**
   * A page of every sanctions listing, at most `limit`, in the store's order of (address,
   * listName, listedAt with an undated listing first), after the listing `after` (exclusive).
   */
  scanSanctions(after: SanctionsListing | null, limit: number): Promise<ReadonlyArray<SanctionsListing>>;
  /** Inserts or replaces tokens (key: network, tokenId). */
  putTokens(rows: ReadonlyArray<TokenInfo>): Promise<number>;
  /** One token, or null. */
  getToken(network: string, tokenId: string): Promise<TokenInfo | null>;
  /** Tokens matching the filter, by network then tokenId. */
  listTokens(filter: TokenFilter, page: PageRequest): Promise<PageResult<TokenInfo>>;
  /** Inserts or replaces daily prices (key: network, tokenId, day). */
  putPrices(rows: ReadonlyArray<PriceRow>): Promise<number>;
  /** The price on `day`, else the latest day before it; null when none. */
  getPrice(network: string, tokenId: string, day: string): Promise<number | null>;
}

/** Small named values. */
export interface SettingsStore {
  /** A small named value (an ingestor's cursor, a setting); null when never set. */
  getSetting(key: string): Promise<string | null>;
  /** Sets a named value, replacing the previous one. */
  putSetting(key: string, value: string): Promise<void>;
}

/** Every read and write of the store (each role above, and the users, backtest and operations
 * roles of their own files); also the view a transaction gets. */
export interface StoreOps
  extends LedgerReader,
    UserStoreOps,
    CaseworkStoreOps,
    ChainFollowStoreOps,
    BacktestStoreOps,
    OperationsStoreOps,
    TransferStore,
    ManualCheckStore,
    RiskStore,
    AlertStore,
    JobStore,
    RiskModelStore,
    WebhookStore,
    SecretStore,
    ApiKeyStore,
    LedgerStore,
    UtxoLedgerStore,
    UtxoClusterStore,
    ReferenceStore,
    SettingsStore {}

/** A page of the ledger in stored order (see {@link Store.scanLedger}). */
export interface LedgerScan {
  readonly rows: ReadonlyArray<LedgerTransfer>;
  /** Position of the last row returned; the `after` of the next page. */
  readonly last: number;
}

/**
 * Where a follower of {@link Store.ledgerChangesSince} stands: the ledger's clock when a read
 * began (ms). A mark the store answered (`LedgerChanges.next`) may also stand for the rows that
 * answer and the ones before it gave, so that the next answer leaves them out; a mark the
 * follower builds itself (`{ at }`) stands for none of them.
 */
export interface LedgerChangesMark {
  readonly at: number;
}

/** What an external ledger stored lately (see {@link Store.ledgerChangesSince}). */
export interface LedgerChanges {
  /** The ledger's clock when the read began (ms). */
  readonly at: number;
  /**
   * The rows stored since (some perhaps again), or null when there were more than the limit, or
   * when the ledger no longer holds all its changes since then (it drops old ones): the follower
   * then drops what it holds.
   */
  readonly rows: ReadonlyArray<LedgerTransfer> | null;
  /** The `since` of the next call: `at`, and perhaps what the store remembers of the rows it gave. */
  readonly next: LedgerChangesMark;
}

/** How a bulk load is opened (see {@link Store.bulkLedgerWriter}). */
export interface LedgerBulkOptions {
  /**
   * The caller uses the store for nothing else until the load ends (`finish` or `abort`), as a
   * command that opens a store only to import into it does. The store may then hold its
   * connection for the whole load and write rows straight into place; its other operations wait
   * until the load ends (called from the flow that drives the load, they would wait forever).
   * Default false: the store stays usable while the load is open.
   */
  readonly exclusive?: boolean;
}

/** One bulk load of ledger transfers (see {@link Store.bulkLedgerWriter}). */
export interface LedgerBulkWriter {
  /** Takes rows in file order. Nothing is visible to readers before `finish()`. */
  write(rows: ReadonlyArray<LedgerTransfer>): Promise<void>;
  /**
   * Commits every row written, in one transaction (all of them or none), ignoring rows whose
   * (network, txHash, logIndex) is already stored or was written earlier in the load; answers
   * how many were new. The writer is spent afterwards.
   */
  finish(): Promise<number>;
  /** Drops everything written; the writer is spent afterwards. Idempotent. */
  abort(): Promise<void>;
}

/** What a job watch reports (see {@link Store.watchJobs}); each member is called synchronously, and must be cheap. */
export interface JobWatchListener {
  /**
   * Jobs were enqueued, by this process or another, and committed: some may be due now. `kinds`
   * are the kinds of those jobs as the store reports them (empty when it cannot tell: any kind).
   */
  due(kinds: ReadonlyArray<string>): void;
  /**
   * The watch cannot report (its connection was lost, or could not be opened): until
   * `restored`, nothing is reported and runners find jobs by polling alone. Called once per loss.
   */
  lost(reason: string): void;
  /** The watch reports again after `lost`; jobs enqueued in between may be due. */
  restored(): void;
}

/** An open job watch. */
export interface JobWatch {
  /** Stops reporting and lets go of the watch's connection. Idempotent. */
  close(): Promise<void>;
}

/** A store: its operations, transactions and lifecycle. */
export interface Store extends StoreOps {
  readonly capabilities: StoreCapabilities;
  /**
   * Optional: opens a bulk load of ledger transfers, for imports of millions of rows, with the
   * same result as `putLedgerTransfers` of every row but all at once at `finish()`. The store may
   * stage rows and rebuild its ledger indexes meanwhile; its other writes wait while `finish()`
   * runs (and, for an `exclusive` load, until the load ends). Stores without a faster path leave
   * it out (importers then use `putLedgerTransfers`).
   */
  bulkLedgerWriter?(options?: LedgerBulkOptions): Promise<LedgerBulkWriter>;
  /**
   * Optional: opens a bulk load of UTXO transactions with their clusters (`UtxoBulkWriter`), or
   * answers null when the store has no faster path for this load (importers then write a batch
   * at a time with `putUtxoTransactions`). The SQLite store offers one for an `exclusive` load
   * into an empty UTXO ledger.
   */
  bulkUtxoWriter?(options?: LedgerBulkOptions): Promise<UtxoBulkWriter | null>;
  /**
   * Optional: UTXO transactions in the order they were stored, from just after position `after`
   * (0: from the first), at most `limit` of them; as {@link Store.scanLedger} for the account
   * ledger. What a warm in-memory copy of the UTXO ledger follows (`createWarmUtxoLedger`).
   */
  scanUtxoTransactions?(after: number, limit: number): Promise<UtxoScan>;
  /**
   * Optional: ledger transfers in the order they were stored, from just after position `after`
   * (0: from the first), at most `limit` of them. `last` is the position of the last row
   * returned (`after` when none), to pass as `after` next time; a row stored later always gets a
   * higher position, so calling again with `last` returns exactly the rows stored since. This
   * is what a warm in-memory copy of the ledger follows (`createWarmLedger`). Offered by the
   * memory and SQLite stores; Postgres, with several writers at once, has no such order.
   */
  scanLedger?(after: number, limit: number): Promise<LedgerScan>;
  /**
   * Optional, for a ledger kept where rows have no stored order (ClickHouse): the rows stored
   * lately, for a copy that holds some of the ledger (the hub cache) and follows it. `since`: the
   * `next` of an earlier answer, or a mark `{ at }` (null: none, then only `at` is answered, no
   * rows); the answer holds every row stored after the read that answered `since` began, except
   * those that answers of the chain of marks `since` comes from gave already, and may hold rows
   * answered before (twice too, while a duplicate is unmerged): a follower skips the rows it
   * holds. A follower that took rows from elsewhere meanwhile (a hub loaded from the ledger's
   * tables, which may show a row later than its change) passes `{ at: since.at }` once, to be
   * given every row again. `rows` is null when more than `limit` transactions were stored since,
   * or when the ledger dropped changes newer than `since` (the follower then drops what it
   * holds; never an answer that misses rows). Rows are never removed from such a ledger (no
   * account-ledger rewinds).
   */
  ledgerChangesSince?(since: LedgerChangesMark | null, limit: number): Promise<LedgerChanges>;
  /**
   * Optional: the rewinds recorded after number `after` (0: from the first), in the order they
   * committed, at most `limit` of them: the rows a chain follower removed after a
   * reorganisation (`rewindFollowedChain`, `deleteUtxoBlocksFrom`). A warm copy that follows
   * `scanLedger` or `scanUtxoTransactions` reads them to drop those rows too (and their index
   * entries), then reads again from the rewind's `resumeAfter`. A rewind numbered lower than one
   * already returned never appears later. Offered by the memory, SQLite and Postgres stores; a
   * store without it cannot tell a warm copy of its deletes (restart such a copy after a reorg).
   */
  scanRewinds?(after: number, limit: number): Promise<ReadonlyArray<LedgerRewind>>;
  /**
   * Optional: reports to `listener` every commit that enqueued jobs, from any process on this
   * store, so that an idle runner claims at once rather than at its next poll (a runner's
   * `wake()` reaches only its own process). Resolves once the watch is set up, whether or not it
   * could connect (when not, `lost` was called and it keeps trying, with backoff); a lost
   * connection is reported through `lost` and `restored`. Reports may be spurious (jobs due
   * later, or claimed by another process first) and are not counted (several enqueues may make
   * one report): polling stays the safety net. `close()` of the store closes its watches.
   * Offered by the Postgres store (`LISTEN`/`NOTIFY`, on a connection of its own); the memory
   * store serves one process, where `wake()` suffices, and SQLite's writers share no channel.
   */
  watchJobs?(listener: JobWatchListener): Promise<JobWatch>;
  /**
   * Runs `fn` in one atomic transaction. Transactions of one store never interleave their
   * writes; if `fn` throws, nothing it wrote lands and the error is rethrown.
   *
   * Row locking (what makes read-modify-write safe across processes): a transfer, manual check
   * or alert read inside the transaction (`getTransfer`, `findTransfer`, `getManualCheck`,
   * `getAlert`) is locked until the transaction ends, so no other transaction, in this process
   * or another on the same database, changes it in between; a second transaction reading the
   * same row waits. Two transactions that each read a row and write it back changed therefore
   * lose neither change. Postgres locks the row (`SELECT ... FOR UPDATE`); SQLite transactions
   * take the database's write lock when they begin (`BEGIN IMMEDIATE`); the memory store runs
   * one transaction at a time. Reads outside a transaction lock nothing.
   */
  transaction<T>(fn: (tx: StoreOps) => Promise<T>): Promise<T>;
  /**
   * The replay guard of the HTTP adapter (see `ReplayGuardPort.admit`): records the signed
   * request `(keyId, digest)` until `expiresAt` unless a live entry exists. Atomic across every
   * process on the same database (a unique key with an expiry), so with several processes
   * (`capabilities.multiProcess`) a request admitted by one is a replay to all. Not part of a
   * transaction: the record lands at once. SQL stores never answer `full` (their table holds
   * what the rate limit lets in) and delete expired rows as they go; the memory store is
   * bounded (see `createMemoryReplayGuard`) and answers `full` rather than forget.
   */
  admitRequestSignature(
    keyId: string,
    digest: string,
    expiresAt: number,
    now: number,
  ): Promise<ReplayAdmission>;
  /** Releases connections. Idempotent. */
  close(): Promise<void>;
}
