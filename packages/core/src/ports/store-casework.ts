/**
 * The casework members of the Store port (see `Store`): decisions on cases, the account's
 * append-only audit log, SLA policies, users' saved views of the queue, and a user's role.
 * Every store keeps them (memory, SQLite, Postgres) and passes their conformance section.
 */
import type {
  AuditEventRecord,
  AuditFilter,
  DecisionRecord,
  SavedViewRecord,
  SlaPolicyRecord,
} from "../domain/casework.js";
import type { UserRole } from "../domain/users.js";
import type { PageRequest, PageResult } from "./store.js";

/** Decisions, the audit log, SLA policies, saved views. */
export interface CaseworkStoreOps {
  /** Adds a decision; the same id is CONFLICT and writes nothing. Decisions are never changed. */
  insertDecision(record: DecisionRecord): Promise<void>;
  /** The decisions on one transfer's alerts, oldest first (ties by id). */
  listDecisionsOfTransfer(transferId: string): Promise<ReadonlyArray<DecisionRecord>>;
  /**
   * Appends an entry to the audit log; the same id is CONFLICT. The log is append-only: the port
   * has no member that changes or deletes an entry, and the SQL stores refuse an UPDATE or
   * DELETE of its rows in the database itself.
   */
  appendAuditEvent(record: AuditEventRecord): Promise<void>;
  /** The account's audit entries matching the filter, newest first (ties by id descending). */
  listAuditEvents(
    accountId: string,
    filter: AuditFilter,
    page: PageRequest,
  ): Promise<PageResult<AuditEventRecord>>;
  /** The account's SLA policy, or null when it never set one. */
  getSlaPolicy(accountId: string): Promise<SlaPolicyRecord | null>;
  /** Sets the account's SLA policy, replacing the previous one. */
  putSlaPolicy(record: SlaPolicyRecord): Promise<void>;
  /** Adds a saved view; the same id, or a name the user already gave a view, is CONFLICT. */
  putSavedView(record: SavedViewRecord): Promise<void>;
  /** A user's own saved views (shared or not), by name then id. */
  listSavedViews(userId: string): Promise<ReadonlyArray<SavedViewRecord>>;
  /** The account's shared views (of every user), by name then id. */
  listSharedViews(accountId: string): Promise<ReadonlyArray<SavedViewRecord>>;
  /** One saved view by id, any user; null when unknown. */
  getSavedView(id: string): Promise<SavedViewRecord | null>;
  /**
   * Shares one of the user's views with the account, or stops sharing it; false when the user
   * has no view with this id.
   */
  setSavedViewShared(userId: string, id: string, shared: boolean): Promise<boolean>;
  /**
   * Deletes one of `userId`'s views (the owner's id: an admin deleting a shared view passes the
   * view's owner); false when that user has no view with this id.
   */
  deleteSavedView(userId: string, id: string): Promise<boolean>;
  /** Changes a user's role; false when the user is unknown. */
  setUserRole(id: string, role: UserRole): Promise<boolean>;
}
