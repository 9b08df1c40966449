/**
 * The Postgres fleet: one `openkyt serve --no-workers` (the HTTP interface only) and N
 * `openkyt worker` processes (the job runners) on one Postgres database, a load run against
 * them, and its figures.
 *
 * 1. The database is migrated and given reference data: a generated ledger with its labels and
 *    sanctions (`@openkyt/ledger-generator`, as the demo and the benchmarks use).
 * 2. The processes start; the server provisions an API key from `OPENKYT_API_KEYS`.
 * 3. The load: transfers of the ledger are registered through the HTTP interface in batches
 *    (`POST /v1/transfers/register-batch/`, up to 1,000 a request), and the run waits until no
 *    transfer is left unscreened (`GET /v1/transfers/?risk_level=undefined`).
 * 4. The figures, then every process is stopped with SIGTERM.
 */
import { createKytClient, type RegisterTransferBody } from "@openkyt/client";
import { createEngine } from "@openkyt/core";
import { createPostgresStore } from "@openkyt/store-postgres";
import { generateLedger } from "@openkyt/testkit";
import { type FleetProcess, startOpenkyt } from "./fleet-processes.js";

/** What to run. */
export interface FleetOptions {
  /** postgres:// URL (a `?schema=` parameter puts the store in that schema). */
  readonly url: string;
  readonly workers: number;
  /** Transfers registered by the load run. */
  readonly transfers: number;
  /** Size of the generated ledger (at least twice `transfers`). */
  readonly ledger: number;
  /** Progress messages. */
  readonly log: (line: string) => void;
  /** Give up waiting for the screening after this long (default 5 minutes). */
  readonly timeoutMs?: number;
}

/** The figures of a run. */
export interface FleetFigures {
  readonly workers: number;
  readonly transfers: number;
  /** Registrations accepted per second by the server (the batches' wall time). */
  readonly registeredPerSecond: number;
  /** Transfers screened per second, from the first registration to the last check. */
  readonly screenedPerSecond: number;
  readonly secondsToScreenAll: number;
  /** Transfers that ended unscreened (not found, or every check failed): 0 on a healthy run. */
  readonly unscreened: number;
  /** How the screened transfers came out, by risk level. */
  readonly levels: Readonly<Record<string, number>>;
}

const KEY = { keyId: "fleet-key-0001", secret: "fleet-secret-0123456789abcdef", account: "fleet" } as const;

/** Loads the generated ledger and its reference data; answers the ledger's transfers. */
async function seed(url: string, size: number) {
  const store = await createPostgresStore({ connectionString: url, migrate: true });
  try {
    const ledger = generateLedger({ transfers: size, seed: 21 });
    const engine = createEngine({ store });
    await engine.reference.loadLedger(ledger.transfers);
    await engine.reference.loadAttributions(ledger.attributions);
    await engine.reference.loadSanctions(ledger.sanctions);
    return ledger.transfers;
  } finally {
    await store.close();
  }
}

/** Runs the fleet and the load; every process is stopped before it resolves or rejects. */
export async function runFleet(options: FleetOptions): Promise<FleetFigures> {
  const { log } = options;
  log(`seeding a ${options.ledger.toLocaleString("en-US")}-transfer ledger`);
  const ledger = await seed(options.url, options.ledger);
  const processes: FleetProcess[] = [];
  try {
    const env = { OPENKYT_API_KEYS: `${KEY.keyId}:${KEY.secret}:${KEY.account}` };
    const server = await startOpenkyt(
      "serve",
      ["serve", "--no-workers", "--db", options.url, "--port", "0", "--no-console"],
      env,
    );
    processes.push(server);
    const starting = Array.from({ length: options.workers }, (_, i) =>
      startOpenkyt(`worker ${i + 1}`, ["worker", "--db", options.url], {}),
    );
    const started = await Promise.allSettled(starting);
    for (const s of started) if (s.status === "fulfilled") processes.push(s.value);
    const failed = started.find((s) => s.status === "rejected");
    if (failed) throw failed.reason;
    const baseUrl = String(server.ready.url);
    log(`serve --no-workers at ${baseUrl}, ${options.workers} workers`);
    const client = createKytClient({ baseUrl, keyId: KEY.keyId, secret: KEY.secret });

    // The latest transfers of the ledger: each has history behind it to trace.
    const chosen = ledger.slice(-options.transfers);
    const bodies: RegisterTransferBody[] = chosen.map((t) => ({
      direction: "incoming",
      network: t.network,
      tx_hash: t.txHash,
      token_id: t.tokenId,
      output_address: t.to,
    }));
    const t0 = performance.now();
    for (let i = 0; i < bodies.length; i += 1_000) {
      const items = await client.registerTransfers(bodies.slice(i, i + 1_000));
      const refused = items.filter((item) => item.status !== 201);
      if (refused.length > 0) throw new Error(`registrations refused: ${JSON.stringify(refused[0])}`);
    }
    const registered = (performance.now() - t0) / 1000;
    log(`registered ${bodies.length.toLocaleString("en-US")} transfers in ${registered.toFixed(2)} s`);

    const deadline = Date.now() + (options.timeoutMs ?? 300_000);
    const pendingCount = async () =>
      (await client.listTransfers({ risk_level: "undefined", page_size: 1 })).total_items;
    let pending = await pendingCount();
    while (pending > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      pending = await pendingCount();
    }
    const screened = (performance.now() - t0) / 1000;
    const levels: Record<string, number> = {};
    for (const level of ["none", "low", "medium", "high", "severe"] as const) {
      levels[level] = (await client.listTransfers({ risk_level: level, page_size: 1 })).total_items;
    }
    return {
      workers: options.workers,
      transfers: bodies.length,
      registeredPerSecond: Math.round(bodies.length / registered),
      screenedPerSecond: Math.round((bodies.length - pending) / screened),
      secondsToScreenAll: Number(screened.toFixed(2)),
      unscreened: pending,
      levels,
    };
  } finally {
    for (const p of processes.reverse()) {
      const code = await p.stop();
      if (code !== 0 && code !== null) log(`${p.name} exited ${code}`);
    }
  }
}

/** The figures as lines, with how to read them. */
export function fleetText(f: FleetFigures): string {
  return [
    `fleet: 1 server (--no-workers), ${f.workers} workers, ${f.transfers.toLocaleString("en-US")} transfers`,
    `  registered   ${f.registeredPerSecond.toLocaleString("en-US")} transfers/s (batches of 1,000 over HTTP)`,
    `  screened     ${f.screenedPerSecond.toLocaleString("en-US")} transfers/s (first registration to last check, ${f.secondsToScreenAll} s)`,
    `  unscreened   ${f.unscreened}`,
    `  levels       ${Object.entries(f.levels)
      .map(([level, n]) => `${level} ${n}`)
      .join(", ")}`,
  ].join("\n");
}
