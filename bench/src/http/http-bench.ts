/**
 * HTTP: signed `GET /v1/transfers/{id}/` and signed `POST /v1/transfers/register/` requests/s
 * and p99 with autocannon in this process against a server in another, beside a bare
 * node:http server answering a fixed JSON body in the same run (the ratio is the figure).
 * Each server's CPU time per request is reported too: on a shared machine it is steadier than
 * requests/s. A third server, the floor, answers the same signed GET doing only the work no
 * server of the interface can skip (read the key, check the HMAC, read and present the
 * transfer) on bare node:http: the distance from it to bare node:http is not the framework's. The signed GET also runs against a server with the metrics wired as `openkyt
 * serve` wires them, alternating with the plain one, for the CPU the metrics cost per request. Connections are kept alive; `--pipelining N` sends N requests per connection
 * before reading answers (default 1, as ordinary clients do).
 *
 *   node --conditions=source --import tsx bench/src/http/http-bench.ts [--quick] [--pipelining N]
 *     [--replay-guard auto|memory|store]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { loadavg } from "node:os";
import { createInterface, type Interface } from "node:readline";
import { fileURLToPath } from "node:url";
import { signRequest } from "@openkyt/client";
import autocannon from "autocannon";
import type { Figure } from "../bench-stats.js";
import { figure } from "../bench-stats.js";

const KEY = { id: "bench-key-0001", secret: "bench-secret-0123456789abcdef" };
const child = fileURLToPath(new URL("./http-server-child.ts", import.meta.url));

/** CPU time, user and system apart (ms). */
interface CpuSplit {
  readonly userMs: number;
  readonly systemMs: number;
}

/** A server child: its port, the transfer it holds, and its CPU time on demand. */
interface Server {
  readonly proc: ChildProcess;
  readonly port: number;
  readonly transferId: string;
  /** Its CPU time so far, user and system apart. */
  cpuSplit(): Promise<CpuSplit>;
}

/** Starts a server child and reads its first line. */
async function startServer(
  kind: "bare" | "floor" | "openkyt",
  args: ReadonlyArray<string> = [],
): Promise<Server> {
  // OPENKYT_BENCH_CPU_PROF=DIR: each server writes a CPU profile there when it stops (node --cpu-prof).
  const profile = process.env.OPENKYT_BENCH_CPU_PROF;
  const flags = profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : [];
  const proc = spawn(
    process.execPath,
    [...flags, "--conditions=source", "--import", "tsx", child, kind, ...args],
    {
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const lines: Interface = createInterface({ input: proc.stdout! });
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      const exit = (code: number | null) => reject(new Error(`${kind} server exited ${code}`));
      proc.once("exit", exit);
      lines.once("line", (line) => {
        proc.off("exit", exit);
        resolve(line);
      });
    });
  const info = JSON.parse(await nextLine()) as { port: number; transferId?: string };
  return {
    proc,
    port: info.port,
    transferId: info.transferId ?? "",
    async cpuSplit() {
      const line = nextLine();
      proc.stdin!.write("cpu\n");
      const { userMs, systemMs } = JSON.parse(await line) as CpuSplit;
      return { userMs, systemMs };
    },
  };
}

function signed(method: string, path: string, timestamp: number, body?: string): Record<string, string> {
  return {
    "API-KEY-ID": KEY.id,
    "API-TIMESTAMP": String(timestamp),
    "API-SIGNATURE": signRequest({ secret: KEY.secret, method, path, timestamp, ...(body ? { body } : {}) }),
    "content-type": "application/json",
    accept: "application/json",
  };
}

/**
 * Signed GET headers, signed afresh each second: a GET may be repeated (there is no replay
 * guard on it), so the load generator need not spend an HMAC per request; the server still
 * verifies every one.
 */
function getHeaders(path: string): () => Record<string, string> {
  let second = -1;
  let headers: Record<string, string> = {};
  return () => {
    const now = Date.now();
    if (Math.floor(now / 1000) !== second) {
      second = Math.floor(now / 1000);
      headers = signed("GET", path, now);
    }
    return headers;
  };
}

type Run = {
  rps: number;
  p99: number;
  failed: number;
  cpuMsPerRequest: number;
  /** User and system CPU per request, in µs. */
  userUs: number;
  systemUs: number;
  load: number;
};

/** A warm-up second (compiles the hot paths; not counted), then `seconds` of load. */
async function load(
  server: Server,
  seconds: number,
  pipelining: number,
  setup: (req: autocannon.Request) => autocannon.Request,
): Promise<Run> {
  const options = {
    url: `http://127.0.0.1:${server.port}`,
    connections: 32,
    pipelining,
    requests: [{ setupRequest: setup }],
  };
  await autocannon({ ...options, duration: 1 });
  const cpuBefore = await server.cpuSplit();
  const result = await autocannon({ ...options, duration: seconds });
  const cpuAfter = await server.cpuSplit();
  const requests = Math.max(1, result.requests.total);
  const userMs = cpuAfter.userMs - cpuBefore.userMs;
  const systemMs = cpuAfter.systemMs - cpuBefore.systemMs;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors,
    cpuMsPerRequest: (userMs + systemMs) / requests,
    userUs: (1000 * userMs) / requests,
    systemUs: (1000 * systemMs) / requests,
    load: loadavg()[0] ?? 0,
  };
}

function optionValue(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

let counter = 0;
/** The figures of one full run. */
export async function benchHttp(quick: boolean, pipelining = 1, replayGuard = "auto"): Promise<Figure[]> {
  const seconds = quick ? 2 : 8;
  const bare = await startServer("bare");
  const floor = await startServer("floor");
  const kyt = await startServer("openkyt", ["0", replayGuard]);
  const cachedKeys = await startServer("openkyt", ["1000"]);
  const metered = await startServer("openkyt", ["0", replayGuard, "metrics"]);
  try {
    // Signed GETs of the transfer each server holds, its headers signed afresh each second.
    const signedGet = (server: Server) => {
      const path = `/v1/transfers/${server.transferId}/`;
      const headers = getHeaders(path);
      return (req: autocannon.Request): autocannon.Request => ({
        ...req,
        method: "GET",
        path,
        headers: headers(),
      });
    };
    const getKyt = signedGet(kyt);
    const getMetered = signedGet(metered);
    const base = await load(bare, seconds, pipelining, (req) => ({ ...req, method: "GET", path: "/" }));
    const least = await load(floor, seconds, pipelining, signedGet(floor));
    const get = await load(kyt, seconds, pipelining, getKyt);
    // The metrics' cost: plain and metered servers alternately, CPU per request of each.
    const plainCpu: number[] = [];
    const meteredCpu: number[] = [];
    for (let round = 0; round < (quick ? 3 : 6); round += 1) {
      const plain = await load(kyt, seconds, pipelining, getKyt);
      const withMetrics = await load(metered, seconds, pipelining, getMetered);
      if (plain.failed > 0 || withMetrics.failed > 0)
        throw new Error("failed answers in the metrics comparison");
      plainCpu.push(plain.cpuMsPerRequest);
      meteredCpu.push(withMetrics.cpuMsPerRequest);
    }
    const overhead = meteredCpu.map((ms, i) => (100 * (ms - (plainCpu[i] ?? ms))) / (plainCpu[i] ?? ms));
    const getCached = await load(cachedKeys, seconds, pipelining, signedGet(cachedKeys));
    const postPath = "/v1/transfers/register/";
    const post = await load(kyt, seconds, pipelining, (req) => {
      counter += 1;
      const body = JSON.stringify({
        direction: "incoming",
        network: "ETH",
        tx_hash: `0x${(0xabc000000 + counter).toString(16).padStart(64, "0")}`,
        output_address: `0x${"cc".repeat(20)}`,
        disable_auto_check: true,
      });
      return {
        ...req,
        method: "POST",
        path: postPath,
        body,
        headers: signed("POST", postPath, Date.now(), body),
      };
    });
    if (get.failed > 0 || getCached.failed > 0 || post.failed > 0 || least.failed > 0)
      throw new Error(
        `failed answers: GET ${get.failed}, GET (keys reused) ${getCached.failed}, POST ${post.failed}, floor ${least.failed}`,
      );
    return [
      figure("bare node:http, fixed JSON (same run)", "requests/s", [base.rps]),
      figure("bare node:http server CPU per request", "ms", [base.cpuMsPerRequest]),
      figure("signed GET floor: node:http + key read, HMAC, transfer read (no framework)", "requests/s", [
        least.rps,
      ]),
      figure("signed GET floor vs bare node:http", "ratio", [least.rps / base.rps]),
      figure("signed GET floor server CPU per request", "ms", [least.cpuMsPerRequest]),
      figure("signed GET /v1/transfers/{id}/", "requests/s", [get.rps]),
      figure("signed GET vs bare node:http", "ratio", [get.rps / base.rps], ">= 0.5"),
      figure("signed GET p99", "ms", [get.p99]),
      figure("signed GET server CPU per request", "ms", [get.cpuMsPerRequest]),
      ...(
        [
          ["bare node:http", base],
          ["signed GET floor", least],
          ["signed GET", get],
        ] as const
      ).flatMap(([what, run]) => [
        figure(`  ${what}: user CPU per request`, "µs", [run.userUs]),
        figure(`  ${what}: system CPU per request`, "µs", [run.systemUs]),
      ]),
      figure("signed GET, auth.keyCacheMs 1000", "requests/s", [getCached.rps]),
      figure("signed GET vs bare, auth.keyCacheMs 1000", "ratio", [getCached.rps / base.rps], ">= 0.5"),
      figure("signed GET server CPU per request, auth.keyCacheMs 1000", "ms", [getCached.cpuMsPerRequest]),
      figure("signed GET server CPU per request, metrics off (alternating)", "ms", plainCpu),
      figure("signed GET server CPU per request, metrics on (alternating)", "ms", meteredCpu),
      figure("metrics' cost on signed GET CPU per request", "%", overhead, "< 5"),
      figure("signed POST /v1/transfers/register/", "requests/s", [post.rps], ">= 3,000"),
      figure("signed POST p99", "ms", [post.p99]),
      figure("signed POST server CPU per request", "ms", [post.cpuMsPerRequest]),
      figure("load average (1 min) after the runs", "load", [post.load]),
    ];
  } finally {
    bare.proc.kill("SIGTERM");
    floor.proc.kill("SIGTERM");
    kyt.proc.kill("SIGTERM");
    cachedKeys.proc.kill("SIGTERM");
    metered.proc.kill("SIGTERM");
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(
    JSON.stringify(
      await benchHttp(
        process.argv.includes("--quick"),
        optionValue("--pipelining", 1),
        process.argv.includes("--replay-guard")
          ? String(process.argv[process.argv.indexOf("--replay-guard") + 1])
          : "auto",
      ),
    ),
  );
}
