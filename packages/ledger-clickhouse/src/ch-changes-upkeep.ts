/**
 * The change log's retention: `ledger_changes` (migration 6) gains a row per stored ledger row
 * and is partitioned by day; {@link dropExpiredChanges} drops the days wholly older than
 * `retentionDays` with ALTER TABLE ... DROP PARTITION (ClickHouse 18.16 has no TTL clause; the
 * statement runs on current releases too), on each shard of a sharded ledger.
 *
 * Before it drops a server's days it records there, in `ledger_changes_horizon` (migration 7),
 * the start of the first day it keeps: every change stamped before it may be gone. A follower
 * whose window starts before the horizon is answered null rows and drops its hubs
 * (ch-changes.ts): a lag past the retention costs reloads, never a missed row.
 *
 * Retention must exceed the longest a follower may lag and still keep its hubs: the catch-up
 * overlap (30 s) plus the time between its catch-ups, which is `maxLagMs` (1 s) while it traces
 * but unbounded while it is idle or stopped. The default, 7 days, keeps the hubs of a worker idle
 * over a long weekend; the least accepted, {@link MIN_CHANGES_RETENTION_DAYS}, lets a follower
 * that lags less than half a day skip the horizon check.
 */
import { KytError } from "@openkyt/core";
import { type ChClient, openChClient, type RetryPolicy } from "./ch-client.js";
import { sqlIdentifier, sqlInt, sqlString } from "./ch-escape.js";
import type { ClickHouseTarget } from "./ch-target.js";

/** Default of {@link ChangesRetentionOptions.retentionDays}. */
export const CHANGES_RETENTION_DAYS = 7;

/** The least retention accepted, days (see ch-changes.ts, `HORIZON_CHECK_LAG_S`). */
export const MIN_CHANGES_RETENTION_DAYS = 1;

/** Options of {@link dropExpiredChanges}. */
export interface ChangesRetentionOptions {
  /**
   * Days of changes kept (a whole number, at least {@link MIN_CHANGES_RETENTION_DAYS}): a day is
   * dropped once it ended more than this long ago by the server's clock. Default 7.
   */
  readonly retentionDays?: number;
  /** The shards of a sharded ledger, as for `migrateClickHouseLedger` (default: the target's). */
  readonly shards?: ReadonlyArray<ClickHouseTarget>;
  readonly retry?: Partial<RetryPolicy>;
}

/** What one server's upkeep did. */
export interface ChangesUpkeepOutcome {
  /** The days dropped (YYYYMMDD, the partitions' names), oldest first. */
  readonly dropped: ReadonlyArray<string>;
  /** The recorded horizon (epoch ms): changes before it may be gone; null when nothing was dropped. */
  readonly horizon: number | null;
}

/** The retention in days, checked. */
export function changesRetentionDays(options: ChangesRetentionOptions = {}): number {
  const days = options.retentionDays ?? CHANGES_RETENTION_DAYS;
  if (!Number.isInteger(days) || days < MIN_CHANGES_RETENTION_DAYS) {
    throw new KytError(
      "VALIDATION_ERROR",
      `change log retention: retentionDays must be a whole number of days >= ${MIN_CHANGES_RETENTION_DAYS}, got ${days}`,
      { errors: { retentionDays: [`a whole number >= ${MIN_CHANGES_RETENTION_DAYS}`] } },
    );
  }
  return days;
}

/**
 * Drops the days of `ledger_changes${local}` in database `database` (a name `sqlIdentifier`
 * accepted; `db` is it quoted) on `admin`'s server that ended more than `days` days ago, after
 * recording the horizon; idempotent.
 */
export async function dropExpiredChangesOn(
  admin: ChClient,
  database: string,
  db: string,
  local: string,
  days: number,
): Promise<ChangesUpkeepOutcome> {
  const ago = `now() - ${sqlInt(days * 86_400)}`;
  const [cut] = await admin.rows<{ day: number | string; horizon: number | string }>(
    `SELECT toYYYYMMDD(${ago}) AS day, toUInt64(toStartOfDay(${ago})) AS horizon`,
  );
  const firstKept = Number(cut?.day);
  const parts = await admin.rows<{ partition: string }>(
    `SELECT DISTINCT partition FROM system.parts
     WHERE database = ${sqlString(database)} AND table = ${sqlString(`ledger_changes${local}`)} AND active`,
  );
  const dropped = parts
    .map((p) => p.partition)
    .filter((p) => /^\d{8}$/.test(p) && Number(p) < firstKept)
    .sort();
  if (dropped.length === 0) return { dropped, horizon: null };
  const horizon = Number(cut?.horizon);
  // Recorded first: a follower that reads the log after a drop reads this after it too.
  await admin.command(
    `INSERT INTO ${db}.ledger_changes_horizon${local} (dropped_before, recorded_at)
     VALUES (toDateTime(${sqlInt(horizon)}), now())`,
  );
  for (const day of dropped) {
    await admin.command(`ALTER TABLE ${db}.ledger_changes${local} DROP PARTITION ${sqlInt(Number(day))}`);
  }
  return { dropped, horizon: horizon * 1000 };
}

/**
 * Drops the change log's expired days on the ledger's server, or on every shard of a sharded
 * ledger (each keeps its own log and horizon; the entry's Distributed tables read them all).
 * What `openkyt follow` runs at start and every hour on a ClickHouse ledger; an operator may run
 * it from cron as well (it is idempotent, and cheap when nothing expired: two small reads).
 * Answers per server URL.
 */
export async function dropExpiredChanges(
  target: ClickHouseTarget,
  options: ChangesRetentionOptions = {},
): Promise<Readonly<Record<string, ChangesUpkeepOutcome>>> {
  const days = changesRetentionDays(options);
  const servers =
    target.cluster === null
      ? [{ server: target, local: "" }]
      : (options.shards ?? target.shards.map((url) => ({ ...target, url, cluster: null, shards: [] }))).map(
          (shard) => ({ server: { ...shard, database: target.database }, local: "_local" }),
        );
  if (servers.length === 0) {
    throw new KytError(
      "NOT_CONFIGURED",
      `a sharded ClickHouse ledger (cluster ${target.cluster}) needs its shards' HTTP addresses to drop old changes`,
    );
  }
  const out: Record<string, ChangesUpkeepOutcome> = {};
  for (const { server, local } of servers) {
    const admin = openChClient(server, {
      database: null,
      ...(options.retry ? { retry: options.retry } : {}),
    });
    try {
      out[server.url] = await dropExpiredChangesOn(
        admin,
        server.database,
        sqlIdentifier(server.database),
        local,
        days,
      );
    } finally {
      await admin.close();
    }
  }
  return out;
}
