/**
 * HTTP: signed `GET /v1/transfers/{id}/` and signed `POST /v1/transfers/register/` requests/s
 * and p99 with autocannon in this process against a server in another, beside a bare
 * node:http server answering a fixed JSON body in the same run (the ratio is the figure).
 *
 *   node --conditions=source --import tsx bench/src/http/http-bench.ts [--quick]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { signRequest } from "@openkyt/client";
import autocannon from "autocannon";
import type { Figure } from "../bench-stats.js";
import { figure } from "../bench-stats.js";

const KEY = { id: "bench-key-0001", secret: "bench-secret-0123456789abcdef" };
const child = fileURLToPath(new URL("./http-server-child.ts", import.meta.url));

/** Starts a server child and reads its first line. */
async function startServer(
  kind: "bare" | "openkyt",
): Promise<{ proc: ChildProcess; port: number; transferId: string }> {
  const proc = spawn(process.execPath, ["--conditions=source", "--import", "tsx", child, kind], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once("line", resolve);
    proc.once("exit", (code) => reject(new Error(`${kind} server exited ${code}`)));
  });
  const info = JSON.parse(line) as { port: number; transferId?: string };
  return { proc, port: info.port, transferId: info.transferId ?? "" };
}

function headers(method: string, path: string, body?: string): Record<string, string> {
  const timestamp = Date.now();
  return {
    "API-KEY-ID": KEY.id,
    "API-TIMESTAMP": String(timestamp),
    "API-SIGNATURE": signRequest({ secret: KEY.secret, method, path, timestamp, ...(body ? { body } : {}) }),
    "content-type": "application/json",
    accept: "application/json",
  };
}

type Run = { rps: number; p99: number; non2xx: number };

async function load(
  url: string,
  seconds: number,
  setup: (req: autocannon.Request) => autocannon.Request,
): Promise<Run> {
  const result = await autocannon({
    url,
    connections: 32,
    duration: seconds,
    requests: [{ setupRequest: setup }],
  });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx + result.errors };
}

let counter = 0;
/** The figures of one full run. */
export async function benchHttp(quick: boolean): Promise<Figure[]> {
  const seconds = quick ? 2 : 8;
  const bare = await startServer("bare");
  const kyt = await startServer("openkyt");
  try {
    const getPath = `/v1/transfers/${kyt.transferId}/`;
    const base = await load(`http://127.0.0.1:${bare.port}`, seconds, (req) => ({
      ...req,
      method: "GET",
      path: "/",
    }));
    const get = await load(`http://127.0.0.1:${kyt.port}`, seconds, (req) => ({
      ...req,
      method: "GET",
      path: getPath,
      headers: headers("GET", getPath),
    }));
    const postPath = "/v1/transfers/register/";
    const post = await load(`http://127.0.0.1:${kyt.port}`, seconds, (req) => {
      counter += 1;
      const body = JSON.stringify({
        direction: "incoming",
        network: "ETH",
        tx_hash: `0x${(0xabc000000 + counter).toString(16).padStart(64, "0")}`,
        output_address: `0x${"cc".repeat(20)}`,
        disable_auto_check: true,
      });
      return { ...req, method: "POST", path: postPath, body, headers: headers("POST", postPath, body) };
    });
    if (get.non2xx > 0 || post.non2xx > 0)
      throw new Error(`non-2xx answers: GET ${get.non2xx}, POST ${post.non2xx}`);
    return [
      figure("bare node:http, fixed JSON (same run)", "requests/s", [base.rps]),
      figure("signed GET /v1/transfers/{id}/", "requests/s", [get.rps]),
      figure("signed GET vs bare node:http", "ratio", [get.rps / base.rps], ">= 0.5"),
      figure("signed GET p99", "ms", [get.p99]),
      figure("signed POST /v1/transfers/register/", "requests/s", [post.rps], ">= 5,000"),
      figure("signed POST p99", "ms", [post.p99]),
    ];
  } finally {
    bare.proc.kill("SIGTERM");
    kyt.proc.kill("SIGTERM");
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await benchHttp(process.argv.includes("--quick"))));
}
