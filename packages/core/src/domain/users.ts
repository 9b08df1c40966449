/**
 * The people who sign in to the console: users of an account with a role, and their sessions.
 * API keys are for programs; users are for people, and their changes are recorded in their name.
 */
import type { Millis } from "./records.js";

/** What a user may do: analysts work alerts and run checks; admins also manage keys, webhooks and risk models. */
export const USER_ROLES = Object.freeze(["analyst", "admin"] as const);

/** A user's role. */
export type UserRole = (typeof USER_ROLES)[number];

/** True when `value` is a role. */
export function isUserRole(value: unknown): value is UserRole {
  return (USER_ROLES as ReadonlyArray<unknown>).includes(value);
}

/** A user as the store keeps it. */
export interface UserRecord {
  readonly id: string;
  readonly accountId: string;
  /** Lower-cased e-mail address; unique across every account (it is what a person signs in with). */
  readonly email: string;
  readonly role: UserRole;
  /** The password's hash in PHC-like text (`scrypt$N$r$p$salt$hash`); never the password. */
  readonly passwordHash: string;
  readonly createdAt: Millis;
  /** When the user was disabled; a disabled user cannot sign in and its sessions end. */
  readonly disabledAt: Millis | null;
}

/** A signed-in session as the store keeps it. */
export interface SessionRecord {
  /** The SHA-256 (hex) of the session token the browser holds: the token itself is never stored. */
  readonly id: string;
  readonly userId: string;
  readonly accountId: string;
  /** The token every write must carry in its X-CSRF-Token header. */
  readonly csrfToken: string;
  readonly createdAt: Millis;
  /** The session is refused from this time on. */
  readonly expiresAt: Millis;
  /** When the session was ended (sign-out, user disabled); null while it lives. */
  readonly revokedAt: Millis | null;
}
