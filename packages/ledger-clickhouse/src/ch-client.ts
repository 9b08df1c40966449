/**
 * The one way this package talks to ClickHouse: the official @clickhouse/client over HTTP, with
 * a bounded retry. A server that is down, restarting or too slow to answer makes a call wait and
 * try again (exponential backoff) until `retry.totalMillis` has passed; then the call fails with
 * a STORE_ERROR that names the server, the attempts and the last error. Errors the server
 * reports about the query itself (bad SQL, unknown table) are not retried.
 */
import { Readable } from "node:stream";
import { type ClickHouseClient, createClient } from "@clickhouse/client";
import { KytError } from "@openkyt/core";
import type { ClickHouseTarget } from "./ch-target.js";

/** How long calls wait for a server that does not answer. */
export interface RetryPolicy {
  /** Give up once this much time has passed since the first attempt (default 30 s). */
  readonly totalMillis: number;
  /** First pause between attempts, doubled each time up to `maxDelayMillis` (default 100 ms). */
  readonly firstDelayMillis: number;
  /** Longest pause between attempts (default 2 s). */
  readonly maxDelayMillis: number;
  /** Longest one request may take before it counts as failed (default 60 s). */
  readonly requestTimeoutMillis: number;
}

/** The defaults of {@link RetryPolicy}. */
export const DEFAULT_RETRY: RetryPolicy = {
  totalMillis: 30_000,
  firstDelayMillis: 100,
  maxDelayMillis: 2_000,
  requestTimeoutMillis: 60_000,
};

/** A thin client: text queries in, rows out, every call retried under the policy. */
export interface ChClient {
  readonly target: ClickHouseTarget;
  /** Rows of a SELECT, as JSON objects (64-bit integers as numbers), from one `FORMAT JSON` answer. */
  rows<T>(query: string): Promise<T[]>;
  /** A statement with no result (DDL, INSERT ... SELECT). */
  command(query: string): Promise<void>;
  /** Inserts rows as JSONEachRow into `table` (one INSERT: one atomic block per max_insert_block_size rows). */
  insert(table: string, rows: ReadonlyArray<Record<string, unknown>>): Promise<void>;
  /**
   * One INSERT of `columns` into `table` whose body is `body` in `format` (RowBinary for the
   * ledger's bulk path), streamed as it is produced. A body that can be produced again (an array
   * of chunks) is retried under the policy; a one-shot stream is sent once, since a retry could
   * not resend what it already consumed. One INSERT is atomic per max_insert_block_size rows:
   * `blockRows`, when given, is sent as that setting with this INSERT, so a body of at most that
   * many rows is one block (one part per table, all or nothing) whatever the server's profile says.
   */
  insertBody(
    table: string,
    columns: ReadonlyArray<string>,
    format: "RowBinary",
    body: ReadonlyArray<Buffer> | AsyncIterable<Buffer>,
    blockRows?: number,
  ): Promise<void>;
  close(): Promise<void>;
}

/** Opens a client on a target; `database` overrides the target's (null: the server's default, for CREATE DATABASE). */
export function openChClient(
  target: ClickHouseTarget,
  options: {
    readonly retry?: Partial<RetryPolicy>;
    readonly database?: string | null;
    /** Server settings sent with every request (for example a per-query max_memory_usage). */
    readonly settings?: Readonly<Record<string, string | number>>;
  } = {},
): ChClient {
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const database = options.database === undefined ? target.database : options.database;
  const client: ClickHouseClient = createClient({
    url: target.url,
    username: target.username,
    password: target.password,
    ...(database === null ? {} : { database }),
    request_timeout: retry.requestTimeoutMillis,
    compression: { request: false, response: false },
    clickhouse_settings: {
      output_format_json_quote_64bit_integers: 0,
      // A sharded ledger's INSERT returns once every shard has the rows, so reads see them.
      ...(target.cluster === null ? {} : { insert_distributed_sync: 1 }),
      ...(options.settings as Record<string, never>),
    },
  });
  const call = <T>(what: string, fn: () => Promise<T>) => withRetry(target, retry, what, fn);
  return {
    target,
    rows: <T>(query: string) =>
      call("query", async () => {
        // One JSON document, parsed by one JSON.parse: JSONEachRow is split and parsed line by
        // line by the client (a Buffer slice, a string and a closure per row), several times the
        // CPU of one parse of the same rows (docs/benchmarks.md, "ClickHouse rows in one parse").
        const result = await client.query({ query, format: "JSON" });
        return ((await result.json()) as { readonly data: T[] }).data;
      }),
    command: (query) =>
      call("command", async () => {
        await client.command({ query });
      }),
    insert: async (table, rows) => {
      if (rows.length === 0) return;
      await call("insert", async () => {
        await client.insert({ table, values: rows as Record<string, unknown>[], format: "JSONEachRow" });
      });
    },
    insertBody: async (table, columns, format, body, blockRows) => {
      const query = `INSERT INTO ${table} (${columns.join(", ")}) FORMAT ${format}`;
      const settings =
        blockRows === undefined ? {} : { clickhouse_settings: { max_insert_block_size: String(blockRows) } };
      const send = async () => {
        const result = await client.exec({ query, values: Readable.from(body), ...settings });
        // The answer of an INSERT is empty; reading it to the end frees the socket.
        for await (const _ of result.stream) {
        }
      };
      if (Array.isArray(body)) {
        if (body.length > 0) await call("insert", send);
      } else {
        // A half-sent stream cannot be sent again: one attempt, its failure reported as is.
        try {
          await send();
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          throw new KytError(
            "STORE_ERROR",
            `ClickHouse ledger at ${target.url}: insert into ${table} failed: ${message}`,
            {
              cause: error,
            },
          );
        }
      }
    },
    close: () => client.close(),
  };
}

/** True for failures worth another attempt: the server unreachable, restarting, overloaded or slow. */
export function isTransient(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (
    typeof code === "string" &&
    /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN)$/.test(code)
  ) {
    return true;
  }
  // ClickHouse's own codes for an overloaded or shutting-down server (202 too many
  // simultaneous queries, 209 socket timeout, 210 network error, 159 timeout exceeded).
  if (typeof code === "string" && /^(202|209|210|159)$/.test(code)) return true;
  return /timeout|socket hang up|ECONNREFUSED|ECONNRESET|other side closed|Connection refused/i.test(message);
}

/** Runs `fn` until it succeeds, fails for good, or the policy's time runs out. */
export async function withRetry<T>(
  target: ClickHouseTarget,
  retry: RetryPolicy,
  what: string,
  fn: () => Promise<T>,
): Promise<T> {
  const started = Date.now();
  let delay = retry.firstDelayMillis;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await fn();
    } catch (error) {
      const elapsed = Date.now() - started;
      const message = error instanceof Error ? error.message : String(error);
      if (!isTransient(error)) {
        throw new KytError("STORE_ERROR", `ClickHouse ledger at ${target.url}: ${what} failed: ${message}`, {
          cause: error,
        });
      }
      if (elapsed + delay > retry.totalMillis) {
        throw new KytError(
          "STORE_ERROR",
          `ClickHouse ledger at ${target.url} did not answer: ${what} failed ${attempt} times over ${elapsed} ms; last error: ${message}`,
          { cause: error, details: { attempts: attempt, elapsedMillis: elapsed } },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, retry.maxDelayMillis);
    }
  }
}
