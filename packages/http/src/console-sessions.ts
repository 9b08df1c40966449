/**
 * Console sessions: sign-in with e-mail and password makes a session kept in the store (only
 * the SHA-256 of its token is stored), which expires after `ttlMs` and ends at sign-out or when
 * its user is disabled. Each session has a CSRF token that every write must echo.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { type Clock, type SessionRecord, type Store, systemClock, type UserRecord } from "@openkyt/core";
import { hashPassword, verifyPassword } from "./password-hash.js";

/** A session that is live, with its user. */
export interface LiveSession {
  readonly session: SessionRecord;
  readonly user: UserRecord;
}

/** Options of {@link createConsoleSessions}. */
export interface ConsoleSessionOptions {
  readonly store: Store;
  readonly clock?: Clock;
  /** How long a session lives from sign-in; default 12 hours. */
  readonly ttlMs?: number;
}

/** Default session lifetime. */
export const DEFAULT_SESSION_TTL_MS = 12 * 3_600_000;

/** The stored id of a session token. */
export function sessionIdOf(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** True when the two tokens are equal, compared in constant time (over their digests). */
export function sameToken(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

/** Creates the session manager. */
export function createConsoleSessions(options: ConsoleSessionOptions) {
  const { store } = options;
  const clock = options.clock ?? systemClock;
  const ttlMs = options.ttlMs ?? DEFAULT_SESSION_TTL_MS;
  // Verified against when the e-mail is unknown, so an unknown e-mail costs a hash too.
  let decoy: Promise<string> | null = null;
  return Object.freeze({
    ttlMs,
    /** A new session for a live user whose password matches; null otherwise (whatever the reason). */
    async signIn(email: string, password: string): Promise<(LiveSession & { token: string }) | null> {
      const user = await store.findUserByEmail(email);
      if (!user) {
        decoy ??= hashPassword(randomBytes(16).toString("hex"));
        await verifyPassword(password, await decoy);
        return null;
      }
      if (!(await verifyPassword(password, user.passwordHash)) || user.disabledAt !== null) return null;
      const now = clock.now();
      const token = randomBytes(32).toString("base64url");
      const session: SessionRecord = {
        id: sessionIdOf(token),
        userId: user.id,
        accountId: user.accountId,
        csrfToken: randomBytes(24).toString("base64url"),
        createdAt: now,
        expiresAt: now + ttlMs,
        revokedAt: null,
      };
      await store.putSession(session);
      // Sessions ended more than a lifetime ago are of no use to anyone: drop them as we go.
      await store.deleteSessionsBefore(now - ttlMs);
      return { token, session, user };
    },
    /** The live session of a token and its user (not expired, not ended, user not disabled), or null. */
    async resolve(token: string): Promise<LiveSession | null> {
      const session = await store.getSession(sessionIdOf(token));
      if (!session || session.revokedAt !== null || session.expiresAt <= clock.now()) return null;
      const user = await store.getUser(session.userId);
      if (!user || user.disabledAt !== null) return null;
      return { session, user };
    },
    /** Ends the session of a token; false when it was not live. */
    signOut(token: string): Promise<boolean> {
      return store.revokeSession(sessionIdOf(token), clock.now());
    },
  });
}

/** The session manager. */
export type ConsoleSessions = ReturnType<typeof createConsoleSessions>;
