/**
 * The console's users of each account: create (the password hashed with scrypt), list, disable.
 * Disabling a user ends every session of theirs in the same transaction. Used by
 * `openkyt users` and by the session routes' sign-in.
 */
import { randomUUID } from "node:crypto";
import {
  type Clock,
  isUserRole,
  KytError,
  type Store,
  systemClock,
  type UserRecord,
  type UserRole,
} from "@openkyt/core";
import { DEFAULT_SCRYPT_COST, hashPassword, type ScryptCost } from "./password-hash.js";
import { passwordProblem } from "./password-policy.js";

/** A user as shown (never the password hash). */
export interface UserInfo {
  readonly id: string;
  readonly account: string;
  readonly email: string;
  readonly role: UserRole;
  readonly created_at: string;
  readonly disabled_at: string | null;
}

/** What creating a user takes. */
export interface NewUser {
  readonly accountId: string;
  readonly email: string;
  readonly role: string;
  readonly password: string;
}

/** Options of {@link createUserDirectory}. */
export interface UserDirectoryOptions {
  readonly store: Store;
  readonly clock?: Clock;
  /** scrypt cost of new hashes; default {@link DEFAULT_SCRYPT_COST}. */
  readonly cost?: ScryptCost;
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,189}$/;

/** The e-mail as stored (trimmed, lower-case), or a VALIDATION_ERROR naming `email`. */
export function normaliseEmail(email: string): string {
  const value = email.trim().toLowerCase();
  if (!EMAIL.test(value)) {
    throw new KytError("VALIDATION_ERROR", `email: not an e-mail address: ${JSON.stringify(email)}`, {
      errors: { email: ["must be an e-mail address (name@domain)"] },
    });
  }
  return value;
}

/** A user record as shown. */
export function userInfo(user: UserRecord): UserInfo {
  return {
    id: user.id,
    account: user.accountId,
    email: user.email,
    role: user.role,
    created_at: new Date(user.createdAt).toISOString(),
    disabled_at: user.disabledAt === null ? null : new Date(user.disabledAt).toISOString(),
  };
}

function invalid(field: string, message: string): KytError {
  return new KytError("VALIDATION_ERROR", `${field}: ${message}`, { errors: { [field]: [message] } });
}

/** Creates the user directory over a store. */
export function createUserDirectory(options: UserDirectoryOptions) {
  const { store } = options;
  const clock = options.clock ?? systemClock;
  const cost = options.cost ?? DEFAULT_SCRYPT_COST;
  return Object.freeze({
    /** Adds a user; an e-mail already taken (in any account) is CONFLICT. */
    async create(input: NewUser): Promise<UserInfo> {
      const accountId = input.accountId.trim();
      if (accountId === "" || accountId.length > 128) throw invalid("account", "must be 1 to 128 characters");
      const email = normaliseEmail(input.email);
      if (!isUserRole(input.role)) throw invalid("role", "must be analyst or admin");
      const problem = await passwordProblem(input.password, [email, ...email.split(/[@.+_-]/)]);
      if (problem) throw invalid("password", problem);
      const record: UserRecord = {
        id: randomUUID(),
        accountId,
        email,
        role: input.role,
        passwordHash: await hashPassword(input.password, cost),
        createdAt: clock.now(),
        disabledAt: null,
      };
      try {
        await store.putUser(record);
      } catch (error) {
        if (error instanceof KytError && error.code === "CONFLICT") {
          throw new KytError("CONFLICT", `a user with e-mail ${email} exists`, {
            cause: error,
            errors: { email: ["is taken"] },
          });
        }
        throw error;
      }
      return userInfo(record);
    },
    /** The users of an account, oldest first. */
    async list(accountId: string): Promise<ReadonlyArray<UserInfo>> {
      return (await store.listUsers(accountId)).map(userInfo);
    },
    /** The user with this e-mail, or null. */
    async find(email: string): Promise<UserRecord | null> {
      return store.findUserByEmail(normaliseEmail(email));
    },
    /**
     * Disables the user with this e-mail and ends their sessions, at once for every server on
     * the store; false when unknown or already disabled.
     */
    async disable(email: string): Promise<boolean> {
      const normalised = normaliseEmail(email);
      const at = clock.now();
      return store.transaction(async (tx) => {
        const user = await tx.findUserByEmail(normalised);
        if (!user || !(await tx.disableUser(user.id, at))) return false;
        await tx.revokeUserSessions(user.id, at);
        return true;
      });
    },
  });
}

/** The user directory. */
export type UserDirectory = ReturnType<typeof createUserDirectory>;
