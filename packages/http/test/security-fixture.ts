/**
 * The world the security tests attack: an engine on a real SQLite store (watched for writes),
 * the hand-made world plus a few transactions of each account's own, two accounts ("acme",
 * "other") with transfers, an unbound and a bound attempt, manual checks, alerts and risks,
 * and the app served in-process (`app.fetch`) with signed requests built by hand.
 */
import type { Engine, LedgerTransfer, Store } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { createHarness, HARNESS_JOBS, type Harness, T0, W } from "@openkyt/testkit";
import type { Hono } from "hono";
import {
  type AppEnv,
  computeSignature,
  createHttpApp,
  type HttpAppOptions,
  reportSettings,
} from "../src/index.js";
import { TEST_GOAML_PROFILE } from "./goaml-schema.js";
import { KEYS, stubRenderer } from "./http-harness.js";
import { storeDigest, type WatchedStore, watchStore } from "./security-store-watch.js";

/** The accounts of the world. */
export const ACCOUNTS = ["acme", "other"] as const;
/** An account of the world. */
export type AccountName = (typeof ACCOUNTS)[number];

/** What one account owns: every id, hash and value another account must never see. */
export interface AccountData {
  readonly transferIds: ReadonlyArray<string>;
  /** An attempt still without a transaction (bindable). */
  readonly openAttemptId: string;
  readonly checkIds: ReadonlyArray<string>;
  readonly addressCheckId: string;
  readonly alertIds: ReadonlyArray<string>;
  readonly riskIds: ReadonlyArray<string>;
  readonly riskModelId: string;
  readonly webhookId: string;
  readonly txHashes: ReadonlyArray<string>;
  readonly clientIds: ReadonlyArray<string>;
  readonly attemptIds: ReadonlyArray<string>;
  /** The account's own client address (nobody else's transfers touch it). */
  readonly address: string;
  /** Strings that must never appear in a response to another account. */
  readonly secrets: ReadonlyArray<string>;
}

const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const HOUR = 3_600_000;

/** Each account's own ledger: a sanctioned and a mixer deposit, and a deposit an attempt binds to. */
const OWN = {
  acme: { address: `0x${"a1".repeat(20)}`, base: 0xac00 },
  other: { address: `0x${"b2".repeat(20)}`, base: 0x0e00 },
} as const;

function ownLedger(account: AccountName): LedgerTransfer[] {
  const { address, base } = OWN[account];
  const row = (n: number, from: string, amount: number): LedgerTransfer => ({
    network: "ETH",
    txHash: hash(base + n),
    logIndex: 0,
    tokenId: "native",
    from,
    to: address,
    amount,
    occurredAt: T0 + (10 + n) * HOUR,
    block: 2_000 + base + n,
    valueUsd: null,
  });
  return [row(1, W.sanctioned, 5), row(2, W.mixer, 1), row(3, W.exchange, 2)];
}

async function seedAccount(engine: Engine, account: AccountName): Promise<AccountData> {
  const api = engine.forAccount(account);
  const { address } = OWN[account];
  const [sanctioned, mixer, bindable] = ownLedger(account).map((r) => r.txHash) as [string, string, string];
  const clientIds = [`${account}-client-1`, `${account}-client-2`];
  const attemptIds = [`${account}-attempt-1`, `${account}-attempt-2`];
  const register = async (txHash: string, clientId: string) =>
    (
      await api.registerTransfer({
        direction: "incoming",
        network: "ETH",
        tx_hash: txHash,
        output_address: address,
        client_id: clientId,
      })
    ).transfer.id;
  const t1 = await register(sanctioned, clientIds[0] as string);
  const t2 = await register(mixer, clientIds[1] as string);
  const attempt = (attemptId: string) =>
    api.registerAttempt({
      direction: "incoming",
      network: "ETH",
      input_address: W.exchange,
      output_address: address,
      attempt_id: attemptId,
      client_id: clientIds[0],
      amount: 2,
    });
  const open = await attempt(attemptIds[0] as string);
  const bound = await attempt(attemptIds[1] as string);
  await api.bindTransaction(bound.id, { tx_hash: bindable });
  const addressCheck = await api.checkAddress({ network: "ETH", address: W.sanctioned });
  const transferCheck = await api.checkTransfer({
    network: "ETH",
    tx_hash: sanctioned,
    output_address: address,
    direction: "incoming",
  });
  await engine.drain();
  // After the drain, so that no delivery is attempted to it.
  const model = await api.riskModels.create({ name: `${account} strict`, copy_from: "default" });
  const webhook = await api.webhooks.create({
    url: `https://${account}.example/hooks`,
    events: ["alert.created"],
  });
  const transferIds = [t1, t2, open.id, bound.id];
  const checkIds = [addressCheck.id, transferCheck.id];
  const alerts = await api.listAlerts({ page_size: "100" });
  const riskIds: string[] = [];
  for (const id of transferIds) riskIds.push(...(await api.getTransferRisks(id)).map((r) => r.id));
  for (const id of checkIds) riskIds.push(...(await api.getManualCheckRisks(id)).map((r) => r.id));
  const alertIds = alerts.items.map((a) => a.id);
  if (alertIds.length === 0 || riskIds.length === 0) throw new Error(`${account}: seeding made no alerts`);
  await api.updateAlert(alertIds[0] as string, { alert_status: "in_progress", comment: `${account} note` });
  const txHashes = [sanctioned, mixer, bindable];
  return {
    transferIds,
    openAttemptId: open.id,
    checkIds,
    addressCheckId: addressCheck.id,
    alertIds,
    riskIds,
    riskModelId: model.id,
    webhookId: webhook.id,
    txHashes,
    clientIds,
    attemptIds,
    address,
    secrets: [
      ...transferIds,
      ...checkIds,
      ...alertIds,
      ...riskIds,
      ...txHashes,
      ...clientIds,
      ...attemptIds,
      address,
      model.id,
      webhook.id,
      `${account}.example`,
      `${account} note`,
    ],
  };
}

/** A request built by hand, signed (or not) as asked. */
export interface HandRequest {
  readonly method: string;
  /** Path and query. */
  readonly target: string;
  /** Body as sent: text or raw bytes. */
  readonly body?: string | Uint8Array;
  /** The key presenting the request; default acme's. */
  readonly key?: { readonly keyId: string; readonly secret: string };
  /** API-TIMESTAMP; default now. */
  readonly timestamp?: string;
  /** Extra headers (null removes a signed one). */
  readonly headers?: Readonly<Record<string, string | null>>;
  /** False: send no signature headers at all. */
  readonly sign?: boolean;
}

/** Origin of in-process requests. */
export const ORIGIN = "http://127.0.0.1";

const encoder = new TextEncoder();

/** The three signed headers of a request as the server will see it (its URL-normalised target). */
export function signatureHeaders(r: HandRequest): Record<string, string> {
  const url = new URL(r.target, ORIGIN);
  const key = r.key ?? KEYS.acme;
  const timestamp = r.timestamp ?? String(Date.now());
  const body = r.body === undefined ? null : typeof r.body === "string" ? encoder.encode(r.body) : r.body;
  const signature = computeSignature(key.secret, {
    method: r.method.toUpperCase(),
    target: `${url.pathname}${url.search}`,
    timestamp,
    body: body === null || body.length === 0 ? null : body,
  });
  return { "API-KEY-ID": key.keyId, "API-TIMESTAMP": timestamp, "API-SIGNATURE": signature };
}

/** A fetch Request of a hand-built request. */
export function handRequest(r: HandRequest): Request {
  const headers = new Headers(r.sign === false ? {} : signatureHeaders(r));
  for (const [name, value] of Object.entries(r.headers ?? {})) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  const method = r.method.toUpperCase();
  const sendsBody = r.body !== undefined && method !== "GET" && method !== "HEAD";
  return new Request(new URL(r.target, ORIGIN), {
    method,
    headers,
    ...(sendsBody ? { body: r.body as string | Uint8Array<ArrayBuffer> } : {}),
  });
}

/** The world: engine, watched store, app and each account's data. */
export interface SecurityWorld {
  readonly h: Harness;
  readonly store: WatchedStore;
  readonly app: Hono<AppEnv>;
  readonly data: Readonly<Record<AccountName, AccountData>>;
  /** Answers a hand-built request in-process. */
  send(r: HandRequest): Promise<Response>;
  /** The digest of both accounts' observable state. */
  digest(): Promise<string>;
  close(): Promise<void>;
}

/** Where a world keeps its data: a new, empty store per world, and how to let go of it. */
export interface WorldStore {
  /** For the log, e.g. "sqlite" or "postgres". */
  readonly name: string;
  create(): Promise<Store>;
  /** Closes (and drops) a store `create` made; default `store.close()`. */
  destroy?(store: Store): Promise<void>;
}

/** The default store of a world: SQLite in memory. */
export const SQLITE_WORLD_STORE: WorldStore = {
  name: "sqlite",
  create: () => createSqliteStore({ filename: ":memory:" }),
};

/**
 * Builds the world; `http` adjusts the app (rate limits and the failed-authentication budget
 * are off unless given); `backing` is the store (default SQLite in memory).
 */
export async function createSecurityWorld(
  http: Partial<HttpAppOptions> = {},
  backing: WorldStore = SQLITE_WORLD_STORE,
): Promise<SecurityWorld> {
  let watched: WatchedStore | null = null;
  let inner: Store | null = null;
  const h = await createHarness(
    {
      name: backing.name,
      createStore: async () => {
        inner = await backing.create();
        watched = watchStore(inner);
        return watched;
      },
      destroyStore: async () => {
        if (inner === null) return;
        if (backing.destroy) await backing.destroy(inner);
        else await inner.close();
      },
    },
    // No runner works here (a server whose jobs run elsewhere), so a valid ?wait= polls and ends.
    { reportRenderer: stubRenderer, jobs: { ...HARNESS_JOBS, runsElsewhere: true } },
  );
  const store = watched as unknown as WatchedStore;
  await h.engine.reference.loadLedger([...ownLedger("acme"), ...ownLedger("other")]);
  await h.engine.apiKeys.provision(KEYS.acme.keyId, KEYS.acme.secret, "acme");
  await h.engine.apiKeys.provision(KEYS.other.keyId, KEYS.other.secret, "other");
  const data = { acme: await seedAccount(h.engine, "acme"), other: await seedAccount(h.engine, "other") };
  const app = createHttpApp({
    engine: h.engine,
    limits: { ratePerKey: null, failedAuth: null },
    // A goAML profile, so the goAML export answers (and is fuzzed) like every other endpoint.
    reports: reportSettings({ goaml: TEST_GOAML_PROFILE }),
    ...http,
  });
  return {
    h,
    store,
    app,
    data,
    send: async (r) => app.fetch(handRequest(r)),
    digest: () => storeDigest(store, ACCOUNTS),
    close: () => h.close(),
  };
}
