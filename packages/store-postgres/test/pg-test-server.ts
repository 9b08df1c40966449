/**
 * Finding a Postgres server for the tests: `OPENKYT_TEST_PG_URL`, else the local default;
 * when neither answers and `initdb` is installed, a throwaway server in a temporary folder on a
 * free 127.0.0.1 port; otherwise a reason to skip (or, under `CI=true`, a failure).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import pg from "pg";
import { withDefaultUser } from "../src/index.js";

/** The local server the tests use when `OPENKYT_TEST_PG_URL` is not set. */
export const DEFAULT_TEST_PG_URL = "postgres://127.0.0.1:5432/test";

/** A server the tests can use, and how to let go of it. */
export interface TestPostgres {
  readonly url: string;
  /** Where it came from, for the log line. */
  readonly origin: string;
  /** Stops a throwaway server and removes its folder; nothing for a server that was already there. */
  stop(): Promise<void>;
}

/** True when a connection to `url` opens and answers a query within 3 s. */
async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: withDefaultUser(url), connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The folder of `initdb`: on PATH, else the newest /usr/lib/postgresql/N/bin. */
function findPostgresBin(): string | null {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir && existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"))) return dir;
  }
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? null : join(root, versions[0], "bin");
}

/** A port nobody listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

/** initdb refuses root: as root, run the server's programs as the `postgres` user. */
function serverUser(): { uid: number; gid: number; wrap: (argv: string[]) => string[] } | null {
  if (process.getuid?.() !== 0) return { uid: -1, gid: -1, wrap: (argv) => argv };
  const uid = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0) return null;
  return {
    uid: Number(uid.stdout.trim()),
    gid: Number(gid.stdout.trim()),
    wrap: (argv) => ["runuser", "-u", "postgres", "--", ...argv],
  };
}

/** Runs argv to completion; when `check`, throws with its output if it fails. */
function run(argv: string[], check = true): void {
  const [command, ...args] = argv;
  const result = spawnSync(command ?? "", args, { encoding: "utf8" });
  if (check && result.status !== 0) {
    throw new Error(`${argv.join(" ")} failed: ${result.stderr || result.stdout}`);
  }
}

/** Starts a throwaway server in a temporary folder; null with a reason when it cannot. */
async function startThrowaway(): Promise<TestPostgres | string> {
  const bin = findPostgresBin();
  if (!bin) return "initdb is neither on PATH nor under /usr/lib/postgresql/*/bin";
  const user = serverUser();
  if (!user) return "running as root and there is no postgres user to run initdb as";
  const dir = await mkdtemp(join(tmpdir(), "openkyt-pg-"));
  if (user.uid >= 0) await chown(dir, user.uid, user.gid);
  const data = join(dir, "data");
  run(
    user.wrap([join(bin, "initdb"), "-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]),
  );
  const port = await freePort();
  const [command, ...args] = user.wrap([
    join(bin, "postgres"),
    ...["-D", data, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1"],
    ...["-c", "fsync=off", "-c", "max_connections=200"],
  ]);
  const server = spawn(command ?? "", args, { stdio: "ignore" });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = async () => {
    run(user.wrap([join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"]), false);
    server.kill("SIGKILL");
    await rm(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 100; i++) {
    if (await answers(url)) return { url, origin: `a throwaway server in ${dir}`, stop };
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  await stop();
  return `a throwaway server in ${dir} did not answer`;
}

/**
 * A server for this test file, or the reason there is none. Under `CI=true` (or
 * `OPENKYT_REQUIRE_PG=1`, which `.ci/run` sets) there is no reason good enough: it throws, so
 * the suite fails instead of skipping.
 */
export async function findTestPostgres(): Promise<TestPostgres | { readonly skip: string }> {
  const url = process.env.OPENKYT_TEST_PG_URL || DEFAULT_TEST_PG_URL;
  if (await answers(url)) return { url, origin: url, stop: async () => undefined };
  const started = await startThrowaway();
  if (typeof started !== "string") return started;
  const reason = `no Postgres at ${url} and no throwaway server (${started})`;
  if (process.env.CI === "true" || process.env.OPENKYT_REQUIRE_PG === "1") {
    throw new Error(`the Postgres suite must run here (CI) but cannot: ${reason}`);
  }
  return { skip: reason };
}
