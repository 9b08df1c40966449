/**
 * The users and sessions members of the Store port (see `Store`): the people who sign in to the
 * console. Every store keeps them (memory, SQLite, Postgres) and passes their conformance section.
 */
import type { Millis } from "../domain/records.js";
import type { SessionRecord, UserRecord } from "../domain/users.js";

/** Users and their sessions. */
export interface UserStoreOps {
  /**
   * Adds a user. The same id, or an e-mail another user already has (in any account, compared
   * as stored: callers lower-case it), is CONFLICT and writes nothing.
   */
  putUser(record: UserRecord): Promise<void>;
  /** One user by id (disabled ones too), or null. */
  getUser(id: string): Promise<UserRecord | null>;
  /** The user with this e-mail (as stored, lower-case), or null. */
  findUserByEmail(email: string): Promise<UserRecord | null>;
  /** The users of an account, oldest first (ties by id). */
  listUsers(accountId: string): Promise<ReadonlyArray<UserRecord>>;
  /** How many users, in every account, are not disabled (who can sign in to the console). */
  countActiveUsers(): Promise<number>;
  /** Marks a user disabled at `at`; false when unknown or already disabled. */
  disableUser(id: string, at: Millis): Promise<boolean>;
  /** Adds a session; the same id is CONFLICT. */
  putSession(record: SessionRecord): Promise<void>;
  /** One session by id (revoked and expired ones too), or null. */
  getSession(id: string): Promise<SessionRecord | null>;
  /** Ends a live session at `at`; false when unknown or already ended. */
  revokeSession(id: string, at: Millis): Promise<boolean>;
  /** Ends every live session of a user at `at`; answers how many it ended. */
  revokeUserSessions(userId: string, at: Millis): Promise<number>;
  /** Deletes the sessions that expired or were ended before `before`; answers how many. */
  deleteSessionsBefore(before: Millis): Promise<number>;
}
