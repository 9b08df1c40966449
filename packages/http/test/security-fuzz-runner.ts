/**
 * Running generated requests against the world and checking the properties every answer must
 * have: never a 5xx; a refusal (4xx) is JSON with a `detail` and a `code`; and a refused request
 * leaves the store as it was (no write call at all, or, when a write was tried and rolled back,
 * the same digest before and after); a request the generator knows must be refused (a NUL in a
 * string it reads) gets the status expected. Runs in chunks, each on a fresh world, so the store stays
 * small; in-process (`app.fetch`) or over real HTTP on 127.0.0.1. Returns a report, never
 * throws on a violation (the test asserts; the nightly script prints).
 */
import fc from "fast-check";
import { type HttpAppOptions, type HttpServer, serveHttp } from "../src/index.js";
import { KEYS } from "./http-harness.js";
import {
  createSecurityWorld,
  type HandRequest,
  handRequest,
  type SecurityWorld,
  type WorldStore,
} from "./security-fixture.js";
import { type FuzzCase, fuzzCaseArbitrary, unstorableCaseArbitrary } from "./security-fuzz-arbitraries.js";

/** Options of {@link runFuzz}. */
export interface FuzzOptions {
  /** Generated requests in all. */
  readonly runs: number;
  /** fast-check seed of the first chunk (the next chunks add 1 each); default random. */
  readonly seed?: number;
  /** Requests per world; default 2,500. */
  readonly chunk?: number;
  /** "in-process" (default) or "http" (a real server on 127.0.0.1). */
  readonly transport?: "in-process" | "http";
  /** The store of each world; default SQLite in memory. */
  readonly store?: WorldStore;
  /**
   * "any" (default): every kind of request. "unstorable": only requests that carry a NUL, an
   * unpaired surrogate or an overlong form where the endpoint reads a string, each of which
   * must be refused with the status the generator expects (400, or 404 for a path id).
   */
  readonly cases?: "any" | "unstorable";
  /** Adjusts the app of every world (for example a request observer); default none. */
  readonly http?: Partial<HttpAppOptions>;
}

/** What a run found. */
export interface FuzzReport {
  /** Requests sent (shrinking included). */
  readonly tried: number;
  readonly seed: number;
  /** Answers by status. */
  readonly byStatus: Readonly<Record<string, number>>;
  /** Refused requests whose store digest was compared before and after (a write was tried). */
  readonly digestChecks: number;
  /** The first violation, with fast-check's counterexample; null when every property held. */
  readonly failure: string | null;
}

const WINDOW_PLUS = 6 * 60_000;

let lastTimestamp = 0;

/**
 * Now, or just after the last timestamp given: two equal signed requests in one millisecond
 * would be one request and its replay (refused, 401), which is not what a case is about.
 */
function freshTimestamp(): number {
  lastTimestamp = Math.max(Date.now(), lastTimestamp + 1);
  return lastTimestamp;
}

/** The hand-built request of a generated case. */
export function caseRequest(c: FuzzCase): HandRequest {
  const body =
    c.body.kind === "none"
      ? undefined
      : c.body.kind === "json"
        ? JSON.stringify(c.body.value)
        : c.body.kind === "text"
          ? c.body.text
          : c.body.bytes;
  const now = freshTimestamp();
  const headers: Record<string, string | null> = Object.fromEntries(c.headers);
  const base: HandRequest = {
    method: c.method,
    target: c.path,
    timestamp: String(now),
    ...(body === undefined ? {} : { body }),
  };
  switch (c.auth) {
    case "valid":
      return { ...base, headers };
    case "other-account":
      return { ...base, key: KEYS.other, headers };
    case "wrong-secret":
      return { ...base, key: { keyId: KEYS.acme.keyId, secret: `${KEYS.acme.secret}x` }, headers };
    case "missing-header": {
      const name = ["API-KEY-ID", "API-TIMESTAMP", "API-SIGNATURE"][c.path.length % 3] as string;
      return { ...base, headers: { ...headers, [name]: null } };
    }
    case "stale":
      return { ...base, timestamp: String(now - WINDOW_PLUS), headers };
    case "future":
      return { ...base, timestamp: String(now + WINDOW_PLUS), headers };
    case "seconds":
      return { ...base, timestamp: String(Math.floor(now / 1000)), headers };
    case "garbage-signature":
      return { ...base, headers: { ...headers, "API-SIGNATURE": `${"A".repeat(43)}=` } };
    case "unknown-key":
      return { ...base, key: { keyId: "unknown-key-0001", secret: KEYS.acme.secret }, headers };
    case "unsigned":
      return { ...base, sign: false, headers };
    case "signed-other-target": {
      // Another query parameter before any fragment: after a `#` it would sign the same target.
      const [sent = ""] = c.path.split("#");
      const other = handRequest({ ...base, target: `${sent}${sent.includes("?") ? "&" : "?"}x=1` });
      return { ...base, headers: { ...headers, "API-SIGNATURE": other.headers.get("API-SIGNATURE") } };
    }
  }
}

/** Checks one answer; the problem found, or null. */
async function judge(c: FuzzCase, response: Response): Promise<string | null> {
  const text = await response.text();
  const status = response.status;
  if (status >= 500) return `answered ${status}: ${text.slice(0, 300)}`;
  if (c.expect && !c.expect.includes(status))
    return `answered ${status}, expected ${c.expect.join(" or ")}: ${text.slice(0, 300)}`;
  if (status < 400 || c.method === "HEAD") return null;
  if (!(response.headers.get("content-type") ?? "").includes("application/json")) {
    return `${status} is not JSON (${response.headers.get("content-type")})`;
  }
  let body: { detail?: unknown; code?: unknown; errors?: unknown };
  try {
    body = JSON.parse(text);
  } catch {
    return `${status} body does not parse: ${text.slice(0, 200)}`;
  }
  if (typeof body.detail !== "string" || body.detail === "" || typeof body.code !== "string") {
    return `${status} without detail and code: ${text.slice(0, 200)}`;
  }
  if (typeof body.errors !== "object" || body.errors === null)
    return `${status} without errors: ${text.slice(0, 200)}`;
  return null;
}

/** Sends requests of one world and checks them; `send` answers a Request. */
function worldRunner(world: SecurityWorld, send: (request: Request) => Promise<Response>) {
  let cache: { writes: number; digest: string } | null = null;
  const digest = async () => {
    const writes = world.store.writeCount();
    if (cache?.writes !== writes) cache = { writes, digest: await world.digest() };
    return cache.digest;
  };
  return async (c: FuzzCase, tally: (status: number, digested: boolean) => void): Promise<string | null> => {
    const authenticated = c.auth === "valid" || c.auth === "other-account";
    const mayWrite = authenticated && c.method !== "GET" && c.method !== "HEAD";
    const before = mayWrite ? await digest() : null;
    const writes = world.store.writeCount();
    const response = await send(handRequest(caseRequest(c)));
    const problem = await judge(c, response);
    const wrote = world.store.writeCount() !== writes;
    const refused = response.status >= 400;
    tally(response.status, refused && wrote);
    if (problem) return problem;
    if (!refused || !wrote) return null;
    if (before === null) return `a refused ${c.auth} request wrote to the store`;
    const after = await world.digest();
    return after === before ? null : `refused with ${response.status} but the store changed`;
  };
}

async function forwardOverHttp(server: HttpServer, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
  return fetch(`${server.url}${url.pathname}${url.search}`, {
    method: request.method,
    headers: request.headers,
    ...(body ? { body } : {}),
  });
}

/** A report readable in a log: runs of one character folded, at most 3,000 characters. */
function shorten(message: string): string {
  return message.replace(/(.)\1{40,}/g, (run, ch: string) => `${ch}{x${run.length}}`).slice(0, 3_000);
}

/** Runs `runs` generated requests, chunk by chunk on fresh worlds, and reports. */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const chunk = options.chunk ?? 2_500;
  const byStatus: Record<string, number> = {};
  let tried = 0;
  let digestChecks = 0;
  let failure: string | null = null;
  const tally = (status: number, digested: boolean) => {
    tried += 1;
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    if (digested) digestChecks += 1;
  };
  for (let done = 0, round = 0; done < options.runs && failure === null; done += chunk, round += 1) {
    const world = await createSecurityWorld(options.http ?? {}, options.store);
    const server = options.transport === "http" ? await serveHttp(world.app, { port: 0 }) : null;
    const send = server
      ? (r: Request) => forwardOverHttp(server, r)
      : (r: Request) => Promise.resolve(world.app.fetch(r));
    try {
      const check = worldRunner(world, send);
      const arbitrary =
        options.cases === "unstorable"
          ? unstorableCaseArbitrary(world.data.acme)
          : fuzzCaseArbitrary(world.data.acme, world.data.other);
      const result = await fc.check(
        fc.asyncProperty(arbitrary, async (c) => {
          const problem = await check(c, tally);
          if (problem) throw new Error(problem);
        }),
        { numRuns: Math.min(chunk, options.runs - done), seed: seed + round },
      );
      if (result.failed) failure = shorten(fc.defaultReportMessage(result) ?? "failed");
    } finally {
      await server?.close();
      await world.close();
    }
  }
  return { tried, seed, byStatus, digestChecks, failure };
}
