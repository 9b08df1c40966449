/**
 * The Postgres store's job watch (`Store.watchJobs`): a connection of its own, outside the pool,
 * that `LISTEN`s on the channel of the store's schema, where migration 0100's trigger notifies
 * every commit that inserted jobs. A lost connection (server restart, failover,
 * `pg_terminate_backend`, a dead network: TCP keepalive) is reported once (`lost`), and the
 * watch connects again with a growing delay until it listens again (`restored`).
 */
import type { JobWatch, JobWatchListener } from "@openkyt/core";
import pg from "pg";
import { withDefaultUser, withoutSchemaParam } from "./postgres-url.js";

/** Postgres's longest name (NAMEDATALEN - 1 bytes); a longer channel name is refused by pg_notify. */
const MAX_NAME_BYTES = 63;

/**
 * The channel the jobs of `schema` are notified on: `openkyt_jobs_<schema>`, cut to 63 bytes as
 * the trigger cuts it (`left(..., 63)`; schema names are ASCII). Two schemas whose names share
 * their first 50 bytes share a channel: their runners then wake for each other's jobs, which
 * costs a claim, never a job.
 */
export function jobsChannel(schema: string): string {
  return `openkyt_jobs_${schema}`.slice(0, MAX_NAME_BYTES);
}

/** Delays between attempts to connect again: from the first, doubled up to the last. */
export interface WatchBackoff {
  readonly firstMs: number;
  readonly maxMs: number;
}

/** Default delays: 250 ms, doubling up to 30 s. */
export const DEFAULT_WATCH_BACKOFF: WatchBackoff = Object.freeze({ firstMs: 250, maxMs: 30_000 });

/** Where the watch connects, and how it reports. */
export interface PostgresJobWatchOptions {
  /** The store's postgres:// URL (its `schema` parameter is left out of what pg sees). */
  readonly connectionString: string;
  readonly schema: string;
  readonly listener: JobWatchListener;
  /** Shown in pg_stat_activity; default "openkyt-job-watch". */
  readonly applicationName?: string;
  readonly backoff?: WatchBackoff;
}

/** The message of an error, for `lost`. */
function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Opens a job watch. Resolves once the first attempt to listen succeeded or failed (then `lost`
 * was called and attempts go on in the background); `close()` ends the connection and any
 * attempt to come.
 */
export async function watchPostgresJobs(options: PostgresJobWatchOptions): Promise<JobWatch> {
  const { listener } = options;
  const backoff = options.backoff ?? DEFAULT_WATCH_BACKOFF;
  const channel = jobsChannel(options.schema);
  const connectionString = withDefaultUser(withoutSchemaParam(options.connectionString));
  let closed = false;
  let client: pg.Client | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let delay = backoff.firstMs;
  /** True while reports are lost (after `lost`, before `restored`). */
  let down = false;

  /** Reports a loss once and tries again after the current delay (doubled for next time). */
  const lose = (reason: string): void => {
    if (closed) return;
    if (!down) {
      down = true;
      listener.lost(reason);
    }
    if (retry !== null) return;
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, delay);
    delay = Math.min(backoff.maxMs, delay * 2);
  };

  /** Opens a connection and listens; on failure, `lose`. */
  const connect = async (): Promise<void> => {
    if (closed) return;
    const next = new pg.Client({
      connectionString,
      application_name: options.applicationName ?? "openkyt-job-watch",
      keepAlive: true,
    });
    let gone = false;
    const drop = (reason: string) => {
      if (gone) return;
      gone = true;
      if (client === next) client = null;
      next.end().catch(() => undefined);
      lose(reason);
    };
    // Without listeners pg's 'error' events end the process; an 'end' without one is a loss too.
    next.on("error", (error) => drop(reasonOf(error)));
    next.on("end", () => drop("the watch's connection ended"));
    next.on("notification", (message) => {
      if (message.channel === channel) listener.due(message.payload ? message.payload.split(",") : []);
    });
    try {
      await next.connect();
      // The channel is a quoted identifier: schema names are plain identifiers, so it needs no escaping.
      await next.query(`listen "${channel}"`);
    } catch (error) {
      drop(reasonOf(error));
      return;
    }
    if (closed || gone) {
      gone = true;
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    delay = backoff.firstMs;
    if (down) {
      down = false;
      listener.restored();
    }
  };

  await connect();
  return {
    async close() {
      if (closed) return;
      closed = true;
      if (retry !== null) clearTimeout(retry);
      retry = null;
      const open = client;
      client = null;
      await open?.end().catch(() => undefined);
    },
  };
}
