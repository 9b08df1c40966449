/**
 * The ClickHouse server of the tests: the installed binary started as a plain process with its
 * own data folder and loopback ports (see startLocalClickHouse). Without a binary the suites skip,
 * saying why; under CI (`OPENKYT_REQUIRE_CLICKHOUSE=1`) they fail instead.
 */
import { createMemoryStore, type Store } from "@openkyt/core";
import {
  type ClickHouseLedger,
  type ClickHouseLedgerOptions,
  findClickHouseBinary,
  type LocalClickHouse,
  migrateClickHouseLedger,
  openChClient,
  openClickHouseLedger,
  parseClickHouseUrl,
  withExternalLedger,
} from "../src/index.js";

const binary = findClickHouseBinary();

/** Why the ClickHouse suites skip, or null when a server binary is installed. */
export const CLICKHOUSE_MISSING: string | null = binary
  ? null
  : "no clickhouse-server binary found (apt-get install clickhouse-server): the ClickHouse ledger tests are skipped";

if (CLICKHOUSE_MISSING) {
  if (process.env.OPENKYT_REQUIRE_CLICKHOUSE === "1") {
    throw new Error(`${CLICKHOUSE_MISSING}; OPENKYT_REQUIRE_CLICKHOUSE=1 makes that a failure`);
  }
  console.warn(CLICKHOUSE_MISSING);
}

let counter = 0;

/** A new, migrated database on `server` and the ledger on it. */
export async function freshLedger(
  server: LocalClickHouse,
  options: ClickHouseLedgerOptions = {},
): Promise<ClickHouseLedger> {
  counter += 1;
  const database = `t${process.pid}_${counter}_${Math.random().toString(36).slice(2, 8)}`;
  const target = parseClickHouseUrl(server.ledgerUrl(database));
  await migrateClickHouseLedger(target);
  return openClickHouseLedger(target, options);
}

/** Drops the ledger's database and closes it. */
export async function dropLedger(ledger: ClickHouseLedger): Promise<void> {
  await ledger.close();
  const admin = openChClient(ledger.target, { database: null });
  try {
    await admin.command(`DROP DATABASE IF EXISTS ${ledger.target.database}`);
  } finally {
    await admin.close();
  }
}

/** A memory store (the screening state) whose ledger is a fresh ClickHouse database. */
export async function storeWithClickHouseLedger(server: LocalClickHouse): Promise<Store> {
  const ledger = await freshLedger(server);
  const composed = withExternalLedger(createMemoryStore(), {
    ...ledger,
    close: () => dropLedger(ledger),
  });
  return composed;
}
