/**
 * A throwaway ClickHouse server for tests and benchmarks: the installed binary (Debian's
 * `clickhouse-server` 18.16, or a current `clickhouse server`) started as a plain process with a
 * generated configuration, its own data folder under a temporary directory and free loopback
 * ports. Optionally part of a `remote_servers` cluster (for a sharded ledger).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { KytError } from "@openkyt/core";
import { sqlIdentifier } from "./ch-escape.js";

/** How to start the server binary: the program and the arguments before `--config-file=`. */
export interface ClickHouseBinary {
  readonly command: string;
  readonly args: ReadonlyArray<string>;
}

/**
 * The installed server: `$OPENKYT_CLICKHOUSE_BIN`, else `clickhouse-server` on PATH or in
 * /usr/sbin or /usr/bin, else a `clickhouse` binary (`clickhouse server`); null when none.
 */
export function findClickHouseBinary(
  env: Readonly<Record<string, string | undefined>> = process.env,
): ClickHouseBinary | null {
  if (env.OPENKYT_CLICKHOUSE_BIN) return { command: env.OPENKYT_CLICKHOUSE_BIN, args: [] };
  const dirs = [...(env.PATH ?? "").split(delimiter).filter(Boolean), "/usr/sbin", "/usr/bin"];
  for (const dir of dirs) {
    if (existsSync(join(dir, "clickhouse-server")))
      return { command: join(dir, "clickhouse-server"), args: [] };
  }
  for (const dir of dirs) {
    if (existsSync(join(dir, "clickhouse"))) return { command: join(dir, "clickhouse"), args: ["server"] };
  }
  return null;
}

/** A running server. */
export interface LocalClickHouse {
  /** HTTP endpoint, `http://127.0.0.1:PORT`. */
  readonly httpUrl: string;
  readonly httpPort: number;
  readonly tcpPort: number;
  /** The temporary folder holding its data, configuration and logs. */
  readonly dir: string;
  /** The process (a test may SIGKILL or SIGSTOP it). */
  readonly process: ChildProcess;
  /** `clickhouse://127.0.0.1:PORT/<database>`. */
  ledgerUrl(database: string, cluster?: string): string;
  /** Stops the server (SIGTERM, then SIGKILL after 10 s) and removes its folder. */
  stop(): Promise<void>;
}

/** Options of {@link startLocalClickHouse}. */
export interface LocalClickHouseOptions {
  readonly binary?: ClickHouseBinary;
  /** Ports to use (for a restart on the same ports); free ones by default. */
  readonly httpPort?: number;
  readonly tcpPort?: number;
  /** An existing folder to reuse (a restart keeps the data); a new temporary one by default. */
  readonly dir?: string;
  /** `remote_servers` clusters: name to the TCP ports of its shards on 127.0.0.1 (one replica each). */
  readonly clusters?: Readonly<Record<string, ReadonlyArray<number>>>;
  /** How long to wait for the server to answer (default 90 s). */
  readonly startTimeoutMillis?: number;
  /**
   * Server-wide MergeTree settings (`<merge_tree>` of config.xml), e.g. `parts_to_delay_insert`,
   * `max_bytes_to_merge_at_max_space_in_pool`; the server's defaults otherwise. For benchmarks.
   */
  readonly mergeTree?: Readonly<Record<string, number>>;
  /**
   * Settings of the default profile (users.xml) besides `max_memory_usage` and `max_threads`, e.g.
   * `background_pool_size`, `max_insert_block_size`. For benchmarks.
   */
  readonly profile?: Readonly<Record<string, number>>;
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Starts a server and waits until it answers. */
export async function startLocalClickHouse(options: LocalClickHouseOptions = {}): Promise<LocalClickHouse> {
  const binary = options.binary ?? findClickHouseBinary();
  if (!binary)
    throw new KytError(
      "NOT_CONFIGURED",
      "no clickhouse-server binary found (apt-get install clickhouse-server)",
    );
  // Settings are checked before anything is made.
  const mergeTree = settingsXml(options.mergeTree ?? {});
  const profile = settingsXml(options.profile ?? {});
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), "openkyt-clickhouse-")));
  const httpPort = options.httpPort ?? (await freePort());
  const tcpPort = options.tcpPort ?? (await freePort());
  await writeFile(
    join(dir, "config.xml"),
    configXml(dir, httpPort, tcpPort, options.clusters ?? {}, mergeTree),
  );
  await writeFile(join(dir, "users.xml"), usersXml(profile));
  const child = spawn(binary.command, [...binary.args, `--config-file=${join(dir, "config.xml")}`], {
    cwd: dir,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const httpUrl = `http://127.0.0.1:${httpPort}`;
  const deadline = Date.now() + (options.startTimeoutMillis ?? 90_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new KytError(
        "STORE_ERROR",
        `clickhouse-server exited (${child.exitCode ?? child.signalCode}) before answering: ${stderr.trim()}`,
      );
    }
    if (await answers(httpUrl)) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new KytError(
        "STORE_ERROR",
        `clickhouse-server did not answer on ${httpUrl} in time: ${stderr.trim()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  let stopped: Promise<void> | null = null;
  return {
    httpUrl,
    httpPort,
    tcpPort,
    dir,
    process: child,
    ledgerUrl: (database, cluster) =>
      `clickhouse://127.0.0.1:${httpPort}/${sqlIdentifier(database)}${cluster ? `?cluster=${sqlIdentifier(cluster)}` : ""}`,
    stop() {
      stopped ??= (async () => {
        await stopProcess(child);
        if (!options.dir) await rm(dir, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}

/** Ends a server process: SIGCONT (if stopped), SIGTERM, then SIGKILL after 10 s. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGCONT");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/ping`, { signal: AbortSignal.timeout(2_000) });
    return response.ok;
  } catch {
    return false;
  }
}

function configXml(
  dir: string,
  httpPort: number,
  tcpPort: number,
  clusters: Readonly<Record<string, ReadonlyArray<number>>>,
  mergeTree: string,
): string {
  const remote = Object.entries(clusters)
    .map(
      ([name, ports]) =>
        `<${sqlIdentifier(name)}>${ports
          .map((p) => `<shard><replica><host>127.0.0.1</host><port>${p}</port></replica></shard>`)
          .join("")}</${name}>`,
    )
    .join("");
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>${dir}/server.log</log><errorlog>${dir}/server.err.log</errorlog></logger>
  <http_port>${httpPort}</http_port>
  <tcp_port>${tcpPort}</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/data/tmp/</tmp_path>
  <user_files_path>${dir}/data/user_files/</user_files_path>
  <format_schema_path>${dir}/data/format_schemas/</format_schema_path>
  <mark_cache_size>268435456</mark_cache_size>
  <uncompressed_cache_size>268435456</uncompressed_cache_size>
  <max_concurrent_queries>100</max_concurrent_queries>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mlock_executable>false</mlock_executable>
  <remote_servers>${remote}</remote_servers>
  <query_log><database>system</database><table>query_log</table><flush_interval_milliseconds>1000</flush_interval_milliseconds></query_log>
  <merge_tree>${mergeTree}</merge_tree>
</yandex>
`;
}

/** `<name>value</name>` for each setting: plain identifiers, safe whole numbers. */
function settingsXml(settings: Readonly<Record<string, number>>): string {
  return Object.entries(settings)
    .map(([name, value]) => {
      if (!Number.isSafeInteger(value) || value < 0)
        throw new KytError("VALIDATION_ERROR", `ClickHouse setting ${name}: expected a whole number`);
      return `<${sqlIdentifier(name)}>${value}</${name}>`;
    })
    .join("");
}

function usersXml(profile: string): string {
  return `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>4000000000</max_memory_usage><max_threads>2</max_threads>${profile}</default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip><ip>::1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
`;
}
