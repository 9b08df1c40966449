/**
 * Group commit for single-connection databases (SQLite): transactions that arrive while one is
 * running are queued and then run one after another inside ONE database transaction, each in
 * a savepoint of its own, and committed together. A member that throws is rolled back to its
 * savepoint (nothing it wrote lands) and gets its error; the others are unaffected. Every
 * member's promise settles only after the shared COMMIT, so a resolved transaction is as
 * durable as before; if the COMMIT fails, every member of the group fails with that error.
 *
 * Members run strictly one at a time, in arrival order, so each sees the writes of the ones
 * before it, exactly as if they had run as separate transactions in that order. What changes
 * is the cost: one commit (one WAL append and, at times, a checkpoint) per group instead of
 * one per transaction. A lone transaction runs as before, without a savepoint.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "./kysely-schema.js";

/** Runs one member's work inside the open database transaction. */
export type GroupMember<T> = (trx: Transaction<Database>) => Promise<T>;

interface Queued {
  readonly fn: GroupMember<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

type Settled =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: unknown };

/** Most members per group: bounds how long the first member waits for its commit. */
export const DEFAULT_MAX_GROUP = 256;

/** A function that runs a transaction, grouping it with others that arrive while one runs. */
export type GroupCommitter = <T>(fn: GroupMember<T>) => Promise<T>;

/** Creates the group committer of `db`. */
export function groupCommitter(db: Kysely<Database>, maxGroup = DEFAULT_MAX_GROUP): GroupCommitter {
  const queue: Queued[] = [];
  let flushing = false;

  async function runGroup(group: ReadonlyArray<Queued>): Promise<void> {
    if (group.length === 1) {
      const only = group[0] as Queued;
      try {
        only.resolve(await db.transaction().execute(only.fn));
      } catch (error) {
        only.reject(error);
      }
      return;
    }
    let settled: Settled[];
    try {
      settled = await db.transaction().execute(async (trx) => {
        const out: Settled[] = [];
        for (const member of group) {
          await sql.raw("savepoint openkyt_member").execute(trx);
          try {
            const value = await member.fn(trx);
            await sql.raw("release savepoint openkyt_member").execute(trx);
            out.push({ ok: true, value });
          } catch (error) {
            // Undo this member only; an error that ended the whole transaction makes these throw.
            await sql.raw("rollback to savepoint openkyt_member").execute(trx);
            await sql.raw("release savepoint openkyt_member").execute(trx);
            out.push({ ok: false, error });
          }
        }
        return out;
      });
    } catch (error) {
      for (const member of group) member.reject(error);
      return;
    }
    for (const [i, member] of group.entries()) {
      const result = settled[i] as Settled;
      if (result.ok) member.resolve(result.value);
      else member.reject(result.error);
    }
  }

  async function flush(): Promise<void> {
    flushing = true;
    try {
      while (queue.length > 0) await runGroup(queue.splice(0, maxGroup));
    } finally {
      flushing = false;
    }
  }

  return <T>(fn: GroupMember<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      if (!flushing) void flush();
    });
}
