/** Users and sessions of the in-memory store. */
import type { SessionRecord } from "../domain/users.js";
import { KytError } from "../errors.js";
import type { UserStoreOps } from "../ports/store-users.js";
import { deleteEntry, type Journal, setEntry } from "./memory-journal.js";
import { copy, type MemoryTables, oldestFirst } from "./memory-state.js";

/** Creates the users and sessions members over `tables`, writing through `journal`. */
export function memoryUserOps(tables: MemoryTables, journal: Journal): UserStoreOps {
  const { users, sessions } = tables;
  const live = (s: SessionRecord) => s.revokedAt === null;
  return {
    async putUser(record) {
      if (users.has(record.id)) throw new KytError("CONFLICT", `user ${record.id} exists`);
      for (const u of users.values()) {
        if (u.email === record.email)
          throw new KytError("CONFLICT", `a user with e-mail ${record.email} exists`);
      }
      setEntry(journal, users, record.id, copy(record));
    },
    async getUser(id) {
      const found = users.get(id);
      return found ? copy(found) : null;
    },
    async findUserByEmail(email) {
      for (const u of users.values()) if (u.email === email) return copy(u);
      return null;
    },
    async listUsers(accountId) {
      const of = [...users.values()].filter((u) => u.accountId === accountId);
      return of.sort(oldestFirst((u) => u.createdAt)).map(copy);
    },
    async countActiveUsers() {
      let count = 0;
      for (const u of users.values()) if (u.disabledAt === null) count++;
      return count;
    },
    async disableUser(id, at) {
      const found = users.get(id);
      if (!found || found.disabledAt !== null) return false;
      setEntry(journal, users, id, { ...found, disabledAt: at });
      return true;
    },
    async putSession(record) {
      if (sessions.has(record.id)) throw new KytError("CONFLICT", "session exists");
      setEntry(journal, sessions, record.id, copy(record));
    },
    async getSession(id) {
      const found = sessions.get(id);
      return found ? copy(found) : null;
    },
    async revokeSession(id, at) {
      const found = sessions.get(id);
      if (!found || !live(found)) return false;
      setEntry(journal, sessions, id, { ...found, revokedAt: at });
      return true;
    },
    async revokeUserSessions(userId, at) {
      let ended = 0;
      for (const s of [...sessions.values()]) {
        if (s.userId !== userId || !live(s)) continue;
        setEntry(journal, sessions, s.id, { ...s, revokedAt: at });
        ended++;
      }
      return ended;
    },
    async deleteSessionsBefore(before) {
      let deleted = 0;
      for (const s of [...sessions.values()]) {
        if (s.expiresAt < before || (s.revokedAt !== null && s.revokedAt < before)) {
          deleteEntry(journal, sessions, s.id);
          deleted++;
        }
      }
      return deleted;
    },
  };
}
