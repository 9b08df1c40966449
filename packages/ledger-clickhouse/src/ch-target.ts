/**
 * Where a ClickHouse ledger lives: `clickhouse://[user[:password]@]host[:port]/database`, spoken
 * to over HTTP (port 8123 by default). `?cluster=NAME` names a `remote_servers` cluster: the
 * ledger's tables are then `Distributed` tables over per-shard local tables, and
 * `&shards=host:port,host:port` lists the shards' HTTP addresses for migrating them.
 */
import { KytError } from "@openkyt/core";
import { sqlIdentifier } from "./ch-escape.js";

/** A parsed ledger location. */
export interface ClickHouseTarget {
  /** The HTTP endpoint, without credentials. */
  readonly url: string;
  readonly database: string;
  readonly username: string;
  readonly password: string;
  /** The `remote_servers` cluster of a sharded ledger; null for one server. */
  readonly cluster: string | null;
  /** HTTP endpoints of a sharded ledger's shards (`?shards=`), for migrations; empty otherwise. */
  readonly shards: ReadonlyArray<string>;
}

/** The default HTTP port of ClickHouse. */
export const DEFAULT_CLICKHOUSE_PORT = 8123;

/** True when `value` is a clickhouse:// URL. */
export function isClickHouseUrl(value: string): boolean {
  return /^clickhouse:\/\//i.test(value);
}

/** Parses a clickhouse:// URL; anything else is a VALIDATION_ERROR naming the part that is wrong. */
export function parseClickHouseUrl(value: string): ClickHouseTarget {
  if (!isClickHouseUrl(value)) {
    throw new KytError(
      "VALIDATION_ERROR",
      `--ledger: expected clickhouse://host:port/database, got ${value}`,
    );
  }
  let url: URL;
  try {
    url = new URL(`http://${value.slice("clickhouse://".length)}`);
  } catch (error) {
    throw new KytError("VALIDATION_ERROR", "--ledger: not a URL (clickhouse://host:port/database)", {
      cause: error,
    });
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, "")) || "default";
  try {
    sqlIdentifier(database);
  } catch {
    throw new KytError(
      "VALIDATION_ERROR",
      `--ledger: database name ${JSON.stringify(database)} is not a plain name`,
    );
  }
  const cluster = url.searchParams.get("cluster");
  if (cluster !== null) {
    try {
      sqlIdentifier(cluster);
    } catch {
      throw new KytError(
        "VALIDATION_ERROR",
        `--ledger: cluster name ${JSON.stringify(cluster)} is not a plain name`,
      );
    }
  }
  const port = url.port === "" ? DEFAULT_CLICKHOUSE_PORT : Number(url.port);
  const shards = (url.searchParams.get("shards") ?? "")
    .split(",")
    .filter(Boolean)
    .map((hostPort) => {
      if (!/^[A-Za-z0-9.\-_]+(:\d{1,5})?$/.test(hostPort)) {
        throw new KytError(
          "VALIDATION_ERROR",
          `--ledger: shard ${JSON.stringify(hostPort)} is not host:port`,
        );
      }
      return `http://${hostPort.includes(":") ? hostPort : `${hostPort}:${DEFAULT_CLICKHOUSE_PORT}`}`;
    });
  return {
    url: `http://${url.hostname}:${port}`,
    database,
    username: decodeURIComponent(url.username) || "default",
    password: decodeURIComponent(url.password),
    cluster,
    shards,
  };
}

/** The target as shown to people: no password. */
export function describeClickHouseTarget(target: ClickHouseTarget): string {
  const user = target.username === "default" ? "" : `${target.username}@`;
  const host = target.url.replace(/^http:\/\//, "");
  return `clickhouse://${user}${host}/${target.database}${target.cluster ? `?cluster=${target.cluster}` : ""}`;
}
