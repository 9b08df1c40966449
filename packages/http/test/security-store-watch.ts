/**
 * Watching a real store for side effects: a decorator that counts every write call (inside
 * transactions too) and passes everything through to the store, and a digest of the store's
 * observable state read back through the Store port (transfers, manual checks, alerts, risks,
 * jobs, keys, models and webhooks of the accounts named), to compare before and after.
 */
import { createHash } from "node:crypto";
import type { Store, StoreOps } from "@openkyt/core";

/** Methods of the port that only read. Everything else (and every new method) counts as a write. */
const READ = /^(get|list|find|ledger|next|capabilities$|close$)/;
/**
 * Writes of state no account can observe and the digest does not cover: the replay guard's
 * record of each signed request (on Postgres, a row per request, refused ones included).
 */
const UNOBSERVED = new Set(["admitRequestSignature"]);

/** A store whose writes are counted. */
export interface WatchedStore extends Store {
  /** Write calls made so far, through the store or any of its transactions. */
  readonly writeCount: () => number;
}

function countingOps<T extends object>(inner: T, count: () => void, wrapTx: boolean): T {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function" || typeof prop !== "string") return value;
      if (wrapTx && prop === "transaction") {
        return <R>(fn: (tx: StoreOps) => Promise<R>) =>
          (value as Store["transaction"]).call(target, (tx) => fn(countingOps(tx, count, false)));
      }
      if (READ.test(prop) || UNOBSERVED.has(prop)) return value.bind(target);
      return (...args: unknown[]) => {
        count();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** Wraps `store`; the result is the same store with its writes counted. */
export function watchStore(store: Store): WatchedStore {
  let writes = 0;
  const counted = countingOps(store, () => (writes += 1), true);
  return new Proxy(counted, {
    get(target, prop, receiver) {
      if (prop === "writeCount") return () => writes;
      return Reflect.get(target, prop, receiver);
    },
  }) as WatchedStore;
}

async function allPages<T>(read: (page: number) => Promise<{ items: ReadonlyArray<T>; total: number }>) {
  const out: T[] = [];
  for (let page = 1; ; page += 1) {
    const result = await read(page);
    out.push(...result.items);
    if (result.items.length === 0 || out.length >= result.total) return out;
  }
}

/**
 * A SHA-256 over everything the accounts can observe or change, read through the port:
 * transfers with their risks and alerts (and alert history), manual checks with their risks,
 * every job, and each account's API keys, risk models and webhooks.
 */
export async function storeDigest(store: StoreOps, accounts: ReadonlyArray<string>): Promise<string> {
  const hash = createHash("sha256");
  const add = (label: string, value: unknown) => hash.update(`${label}\n${JSON.stringify(value)}\n`);
  const pageSize = 100;
  for (const account of accounts) {
    const transfers = await allPages((page) => store.listTransfers(account, {}, { page, pageSize }));
    add(`transfers ${account}`, transfers);
    for (const t of transfers) {
      add(`risks ${t.id}`, await store.listRisks("transfer", t.id));
      const alerts = await store.listAlertsOfTransfer(t.id);
      add(`alerts ${t.id}`, alerts);
      for (const alert of alerts) add(`history ${alert.id}`, await store.listAlertHistory(alert.id));
    }
    const checks = await allPages((page) => store.listManualChecks(account, { page, pageSize }));
    add(`checks ${account}`, checks);
    for (const c of checks) add(`risks ${c.id}`, await store.listRisks("manual_check", c.id));
    add(`alerts ${account}`, await allPages((page) => store.listAlerts(account, {}, { page, pageSize })));
    add(`keys ${account}`, await store.listApiKeys(account));
    add(`models ${account}`, await store.listRiskModels(account));
    add(`webhooks ${account}`, await store.listWebhooks(account));
  }
  add("jobs", await store.listJobs());
  return hash.digest("hex");
}
