/**
 * The replay guard of the kysely store: `request_signatures`, one row per admitted signed
 * request with a primary key on (key_id, digest). Admission is one upsert: a new pair is
 * inserted; a pair whose row expired is taken over (its expiry moved on); a pair with a live
 * row changes nothing and is a replay. The database's unique key makes it atomic across
 * connections and processes: of two concurrent admissions one inserts, the other conflicts
 * with its row (Postgres waits for the first to commit, then sees it live; SQLite runs one
 * statement at a time).
 *
 * Expired rows are deleted along the way: every {@link PRUNE_EVERY}th admission of a store
 * first deletes up to {@link PRUNE_BATCH} of them (oldest first; on Postgres skipping rows
 * another process is deleting), so the table holds about what the rate limit admits within
 * the window, and no admission pays for more than one bounded delete. A row is deleted only
 * {@link PRUNE_MARGIN_MS} after it expired by the pruning node's clock: a node whose clock is
 * behind still accepts the request's timestamp for that long, and must still find its row.
 * (Taking over an expired row needs no margin: a node that sees the row expired refuses the
 * request's timestamp before it asks the guard.)
 */
import type { ReplayAdmission, Store } from "@openkyt/core";
import { REPLAY_ADMISSIONS } from "@openkyt/core";
import { sql } from "kysely";
import type { KyselyContext } from "./kysely-context.js";

/** Admissions between two prunings of expired rows. */
export const PRUNE_EVERY = 64;
/** Most expired rows one pruning deletes (more than PRUNE_EVERY, so pruning keeps up). */
export const PRUNE_BATCH = 512;
/** How long after its expiry a row is kept: the clock difference between nodes it tolerates. */
export const PRUNE_MARGIN_MS = 15 * 60_000;

/** The replay guard member of the store port. */
export type ReplayOps = Pick<Store, "admitRequestSignature">;

/** Creates the replay guard member over `ctx` (the root context: admissions are not transactional). */
export function kyselyReplayOps(ctx: KyselyContext): ReplayOps {
  const { db } = ctx;
  let admissions = 0;

  /** Deletes up to PRUNE_BATCH rows that expired more than PRUNE_MARGIN_MS before `now`. */
  async function prune(now: number): Promise<void> {
    let expired = db
      .selectFrom("request_signatures")
      .select(["key_id", "digest"])
      .where("expires_at", "<", now - PRUNE_MARGIN_MS)
      .orderBy("expires_at")
      .limit(PRUNE_BATCH);
    if (ctx.dialect.skipLocked) expired = expired.forUpdate().skipLocked();
    await db
      .deleteFrom("request_signatures")
      .where(({ refTuple }) => refTuple("key_id", "digest"), "in", expired.$asTuple("key_id", "digest"))
      .execute();
  }

  return {
    async admitRequestSignature(keyId, digest, expiresAt, now): Promise<ReplayAdmission> {
      if (admissions++ % PRUNE_EVERY === 0) await prune(now);
      const taken = await db
        .insertInto("request_signatures")
        .values({ key_id: keyId, digest, expires_at: expiresAt })
        .onConflict((oc) =>
          oc
            .columns(["key_id", "digest"])
            .doUpdateSet({ expires_at: (eb) => eb.ref("excluded.expires_at") })
            .where(sql.ref("request_signatures.expires_at"), "<", now),
        )
        .returning("key_id")
        .executeTakeFirst();
      return taken === undefined ? REPLAY_ADMISSIONS.replay : REPLAY_ADMISSIONS.fresh;
    },
  };
}
