/**
 * The mixed traffic of a soak run: workers that loop until a deadline, each request drawn from
 * a weighted mix of registrations (of ledger transactions and of unknown hashes), attempts then
 * binds, address checks, lists, reads, PDF reports and bad requests (invalid bodies, wrong
 * signatures, other accounts' ids, oversized bodies, page_size past 100). Every answer is
 * tallied by kind: expected (a success, or the refusal a bad request must get) or not.
 */
import { signedHeaders } from "@openkyt/client";
import type { LedgerTransfer } from "@openkyt/core";
import { SOAK_KEYS } from "./soak-settings.js";

type Key = (typeof SOAK_KEYS)[number];

/** What the traffic did. */
export interface TrafficTally {
  /** Requests answered (any status). */
  served: number;
  /** Answers by kind: "ok 201 register", "refused 401 UNAUTHORIZED (as meant)", "UNEXPECTED 500 ..." */
  readonly kinds: Map<string, number>;
  /** Answers that were not what the request should get (5xx, a good request refused, network errors). */
  unexpected: number;
  /** Transfers acknowledged with 201 (or bound with 200), by account. */
  readonly registered: Map<string, Set<string>>;
  /** Milliseconds per answer, for percentiles. */
  readonly latencies: number[];
}

/** A new, empty tally. */
export function newTally(): TrafficTally {
  return { served: 0, kinds: new Map(), unexpected: 0, registered: new Map(), latencies: [] };
}

interface Answer {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the soak reads arbitrary answers
  readonly json: any;
}

/** One worker's view: the server, the ledger to draw from, the tally. */
interface Context {
  readonly baseUrl: string;
  readonly ledger: ReadonlyArray<LedgerTransfer>;
  readonly tally: TrafficTally;
  readonly random: () => number;
}

const pick = <T>(ctx: Context, items: ReadonlyArray<T>): T =>
  items[Math.floor(ctx.random() * items.length)] as T;

function count(ctx: Context, kind: string, unexpected = false): void {
  ctx.tally.kinds.set(kind, (ctx.tally.kinds.get(kind) ?? 0) + 1);
  if (unexpected) ctx.tally.unexpected += 1;
}

/** Sends a signed request (or one spoiled by `spoil`) and tallies the answer against `expected`. */
async function send(
  ctx: Context,
  label: string,
  expected: number | ReadonlyArray<number>,
  r: { key: Key; method: string; path: string; body?: string; spoil?: "signature" },
): Promise<Answer | null> {
  const headers: Record<string, string> = {
    ...signedHeaders(r.key.keyId, {
      secret: r.spoil === "signature" ? `${r.key.secret}x` : r.key.secret,
      method: r.method,
      path: r.path,
      timestamp: Date.now(),
      body: r.body ?? null,
    }),
    "Content-Type": "application/json",
  };
  const started = performance.now();
  try {
    const response = await fetch(`${ctx.baseUrl}${r.path}`, { method: r.method, headers, body: r.body });
    const bytes = await response.arrayBuffer();
    ctx.tally.latencies.push(performance.now() - started);
    ctx.tally.served += 1;
    const text = response.headers.get("content-type")?.includes("json")
      ? new TextDecoder().decode(bytes)
      : "";
    const json = text ? JSON.parse(text) : null;
    const status = response.status;
    const code = status >= 400 ? ` ${json?.code ?? "?"}` : "";
    const meant = typeof expected === "number" ? [expected] : expected;
    if (meant.includes(status)) count(ctx, `${status >= 400 ? "refused" : "ok"} ${status}${code} ${label}`);
    else count(ctx, `UNEXPECTED ${status}${code} ${label} (expected ${expected})`, true);
    return { status, json };
  } catch (error) {
    count(ctx, `UNEXPECTED network ${(error as Error).cause ?? (error as Error).message} ${label}`, true);
    return null;
  }
}

const ids = (ctx: Context, key: Key) => [...(ctx.tally.registered.get(key.account) ?? [])];

function remember(ctx: Context, key: Key, id: unknown): void {
  if (typeof id !== "string") return;
  const set = ctx.tally.registered.get(key.account) ?? new Set<string>();
  set.add(id);
  ctx.tally.registered.set(key.account, set);
}

/** One request of the mix. */
async function step(ctx: Context): Promise<void> {
  const key = pick(ctx, SOAK_KEYS);
  const other = SOAK_KEYS.find((k) => k !== key) as Key;
  const row = pick(ctx, ctx.ledger);
  const known = ids(ctx, key);
  const anyId = known.length > 0 ? pick(ctx, known) : "00000000-0000-4000-8000-000000000000";
  const roll = ctx.random() * 100;
  const post = (label: string, expected: number | number[], path: string, body: unknown, k: Key = key) =>
    send(ctx, label, expected, { key: k, method: "POST", path, body: JSON.stringify(body) });
  const get = (label: string, expected: number, path: string, k: Key = key) =>
    send(ctx, label, expected, { key: k, method: "GET", path });
  if (roll < 25) {
    const body = { direction: "incoming", network: "ETH", tx_hash: row.txHash, output_address: row.to };
    remember(ctx, key, (await post("register", 201, "/v1/transfers/register/", body))?.json?.id);
  } else if (roll < 28) {
    const hash = `0x${Array.from({ length: 64 }, () => Math.floor(ctx.random() * 16).toString(16)).join("")}`;
    const body = { direction: "incoming", network: "ETH", tx_hash: hash, output_address: row.to };
    remember(ctx, key, (await post("register unknown hash", 201, "/v1/transfers/register/", body))?.json?.id);
  } else if (roll < 36) {
    const attempt = {
      direction: "incoming",
      network: "ETH",
      input_address: row.from,
      output_address: row.to,
    };
    const created = await post("register-attempt", 201, "/v1/transfers/register-attempt/", attempt);
    const id = created?.json?.id;
    remember(ctx, key, id);
    // 409 when this account registered the same transfer in full before: it is a duplicate.
    if (typeof id === "string")
      await post("bind", [200, 409], `/v1/transfers/${id}/bind-transaction/`, { tx_hash: row.txHash });
  } else if (roll < 43) {
    await post("check-address", 200, "/v1/manual-checks/check-address/", {
      network: "ETH",
      address: row.from,
    });
  } else if (roll < 63) {
    const list = pick(ctx, [
      "/v1/transfers/?page_size=20",
      "/v1/transfers/?risk_level=high",
      "/v1/alerts/",
      "/v1/manual-checks/",
    ]);
    await get("list", 200, list);
  } else if (roll < 82 && known.length === 0) {
    await get("list", 200, "/v1/transfers/");
  } else if (roll < 78) {
    await get(
      "read",
      200,
      `/v1/transfers/${anyId}/${pick(ctx, ["", "risks/", "exposure/", "counterparty/"])}`,
    );
  } else if (roll < 82) {
    await get("pdf", 200, `/v1/transfers/${anyId}/pdf-report/`);
  } else {
    const bad = Math.floor(ctx.random() * 6);
    if (bad === 0) await post("bad body", 400, "/v1/transfers/register/", { direction: "sideways" });
    else if (bad === 1)
      await send(ctx, "bad signature", 401, {
        key,
        method: "GET",
        path: "/v1/transfers/",
        spoil: "signature",
      });
    else if (bad === 2) await get("other account's id", 404, `/v1/transfers/${anyId}/`, other);
    else if (bad === 3) await get("page_size past 100", 400, "/v1/transfers/?page_size=1000");
    else if (bad === 4)
      await post("oversized body", 413, "/v1/manual-checks/check-address/", { pad: "x".repeat(70_000) });
    else
      await send(ctx, "malformed JSON", 400, {
        key,
        method: "POST",
        path: "/v1/transfers/register/",
        body: '{"network":',
      });
  }
}

/** Runs `workers` loops against `baseUrl` until `deadline` (epoch ms). */
export async function runTraffic(options: {
  readonly baseUrl: string;
  readonly ledger: ReadonlyArray<LedgerTransfer>;
  readonly workers: number;
  readonly deadline: number;
  readonly random: () => number;
  readonly tally: TrafficTally;
}): Promise<void> {
  const ctx: Context = {
    baseUrl: options.baseUrl,
    ledger: options.ledger,
    tally: options.tally,
    random: options.random,
  };
  await Promise.all(
    Array.from({ length: options.workers }, async () => {
      while (Date.now() < options.deadline) await step(ctx);
    }),
  );
}
