/**
 * `--ledger clickhouse://host:port/db` (or `OPENKYT_LEDGER`): the ledger in ClickHouse while the
 * screening state stays on the `--db` store. The store is wrapped so that its ledger members
 * (writes, hash lookup, tracing hops, bulk loads) go to ClickHouse; the package is imported only
 * when the option is given.
 */
import type { Store } from "@openkyt/core";
import { KytError } from "@openkyt/core";

/** The parseArgs entry of the option. */
export const LEDGER_OPTION = { ledger: { type: "string" } } as const;

/** The usage lines of the option. */
export const LEDGER_USAGE = `  --ledger     clickhouse://host:port/database: keep the ledger in ClickHouse (migrated on start;
               ?cluster=NAME&shards=host:port,... for a sharded one); default $OPENKYT_LEDGER, else the --db store`;

/** The ledger location, from the flag, then `OPENKYT_LEDGER`; null when the store keeps its ledger. */
export function resolveLedgerTarget(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | null {
  const value = flag ?? env.OPENKYT_LEDGER;
  if (value === undefined || value === "") return null;
  if (!/^clickhouse:\/\//i.test(value)) {
    throw new KytError(
      "VALIDATION_ERROR",
      `--ledger: expected clickhouse://host:port/database, got ${value}`,
      {
        errors: { ledger: ["expected clickhouse://host:port/database"] },
      },
    );
  }
  return value;
}

/** Refuses `--warm` with an external ledger: the point of one is that it does not fit in memory. */
export function checkLedgerWithWarm(ledger: string | null, warm: boolean): void {
  if (ledger !== null && warm) {
    throw new KytError(
      "VALIDATION_ERROR",
      "--warm loads the ledger into memory; a --ledger clickhouse:// ledger is read from the server: use one of them",
      { errors: { warm: ["not with --ledger"] } },
    );
  }
}

/** `store` with its ledger in ClickHouse when `ledger` is set; `store` itself otherwise. */
export async function withLedgerTarget(store: Store, ledger: string | null): Promise<Store> {
  if (ledger === null) return store;
  try {
    const { openClickHouseLedgerUrl, withExternalLedger } = await import("@openkyt/ledger-clickhouse");
    return withExternalLedger(store, await openClickHouseLedgerUrl(ledger));
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** The ledger as shown to people (no password). */
export function describeLedgerTarget(ledger: string | null): string | null {
  if (ledger === null) return null;
  return ledger.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
}
