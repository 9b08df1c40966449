import { loadavg } from "node:os";
import { join } from "node:path";
import type { LedgerTransfer } from "@openkyt/core";
import {
  migrateClickHouseLedger,
  openChClient,
  parseClickHouseUrl,
  startLocalClickHouse,
} from "@openkyt/ledger-clickhouse";
import { argFlag, checkoutArgs, percentile, processCpuMs } from "./bench-stats.js";

const txCounts = (argFlag("--tx") ?? "0,1000").split(",").map(Number);
const logs = Number(argFlag("--logs") ?? "2");
const catchups = Number(argFlag("--catchups") ?? "50");
const rounds = Number(argFlag("--rounds") ?? "3");
const overlapMs = Number(argFlag("--overlap-ms") ?? "3600000");
const settleMs = Number(argFlag("--settle-ms") ?? "0");
const checkouts = checkoutArgs();
const cpuMs = processCpuMs;

/** The rows of `tx` transactions of `logs` rows each into one hub. */
function hubRows(tx: number, logs: number): LedgerTransfer[] {
  const out: LedgerTransfer[] = [];
  for (let i = 0; i < tx; i++) {
    for (let l = 0; l < logs; l++) {
      out.push({
        network: "ETH",
        txHash: `0x${i.toString(16).padStart(64, "0")}`,
        logIndex: l,
        tokenId: "native",
        from: `0xsender${i % 97}`,
        to: "0xhub",
        amount: i + l + 0.5,
        occurredAt: Date.UTC(2024, 0, 1) + i * 1000,
        block: i,
        valueUsd: null,
      });
    }
  }
  // The hub is loaded only with at least 64 rows (the default minRows): 64 more transactions.
  for (let i = 0; i < 64; i++) {
    out.push({
      network: "ETH",
      txHash: `0xbase${i}`,
      logIndex: 0,
      tokenId: "native",
      from: "0xbase",
      to: "0xhub",
      amount: i + 0.25,
      occurredAt: Date.UTC(2023, 0, 1) + i * 1000,
      block: i,
      valueUsd: null,
    });
  }
  return out;
}

interface CheckoutModules {
  core: typeof import("@openkyt/core");
  ledger: typeof import("@openkyt/ledger-clickhouse");
}

if (checkouts.length === 0) throw new Error("name at least one LABEL=CHECKOUT");
const modules: CheckoutModules[] = [];
for (const c of checkouts) {
  modules.push({
    core: await import(join(c.dir, "packages/core/src/index.ts")),
    ledger: await import(join(c.dir, "packages/ledger-clickhouse/src/index.ts")),
  });
}

const server = await startLocalClickHouse();
const serverPid = server.process.pid ?? 0;
try {
  for (const tx of txCounts) {
    const database = `bench_changes_${tx}_${process.pid}`;
    const target = parseClickHouseUrl(server.ledgerUrl(database));
    await migrateClickHouseLedger(target);
    const admin = openChClient(target);
    const perCheckout = checkouts.map(() => ({
      client: [] as number[],
      server: [] as number[],
      wall: [] as number[],
    }));
    try {
      const followers = [];
      for (const [c, mod] of modules.entries()) {
        const ledger = mod.ledger.openClickHouseLedger(target, { changesOverlapMs: overlapMs });
        if (c === 0) await ledger.appendLedgerTransfers(hubRows(tx, logs));
        let rowsRead = 0;
        // Counts the rows each answer carries (the ledger reads exactly those).
        const counted = {
          ledgerChangesSince: (since: never, limit: number) =>
            ledger.ledgerChangesSince(since, limit).then((a: { rows: ReadonlyArray<unknown> | null }) => {
              rowsRead += a.rows?.length ?? 0;
              return a;
            }),
        };
        const cached = await mod.core.createHubCachedLedger(ledger, counted as never, {
          maxLagMs: 3_600_000,
        });
        // Hold the hub, then one catch-up (the one after a load reads its whole window in both).
        await cached.ledgerIncoming(
          "ETH",
          "native",
          [{ address: "0xhub", before: Number.MAX_SAFE_INTEGER }],
          1e9,
        );
        await cached.catchUp();
        followers.push({ ledger, cached, rowsRead: () => rowsRead });
      }
      // With a short overlap: wait until the window holds nothing (a ledger quiet for longer).
      await new Promise((r) => setTimeout(r, settleMs));
      const [held] = await admin.rows<{ n: number | string }>(
        `SELECT count() AS n FROM ${database}.ledger_changes`,
      );
      console.log(
        `window: ${tx} transactions, ${held?.n} change rows; ${catchups} catch-ups per round and checkout`,
      );
      for (let round = 1; round <= rounds; round++) {
        for (const [c, f] of followers.entries()) {
          const read0 = f.rowsRead();
          const server0 = cpuMs(serverPid);
          const cpu0 = process.cpuUsage();
          const wall0 = performance.now();
          for (let i = 0; i < catchups; i++) await f.cached.catchUp();
          const wall = (performance.now() - wall0) / catchups;
          const cpu = process.cpuUsage(cpu0);
          const client = (cpu.user + cpu.system) / 1000 / catchups;
          const serverMs = (cpuMs(serverPid) - server0) / catchups;
          perCheckout[c]?.client.push(client);
          perCheckout[c]?.server.push(serverMs);
          perCheckout[c]?.wall.push(wall);
          console.log(
            `${checkouts[c]?.label} round ${round}: per catch-up client ${client.toFixed(2)} ms CPU, server ${serverMs.toFixed(2)} ms CPU, wall ${wall.toFixed(2)} ms, rows read ${((f.rowsRead() - read0) / catchups).toFixed(0)}; hub rows ${f.cached.stats().rows}; load ${loadavg()[0]?.toFixed(1)}`,
          );
        }
      }
      for (const [c, p] of perCheckout.entries()) {
        const span = (v: number[]) =>
          `${percentile(v, 50).toFixed(2)} (${Math.min(...v).toFixed(2)}-${Math.max(...v).toFixed(2)})`;
        console.log(
          `${checkouts[c]?.label} window ${tx} tx: median of ${rounds} rounds, ms per catch-up: client CPU ${span(p.client)}, server CPU ${span(p.server)}, wall ${span(p.wall)}`,
        );
      }
      for (const f of followers) await f.ledger.close();
    } finally {
      await admin.command(`DROP DATABASE IF EXISTS ${database}`);
      await admin.close();
    }
  }
} finally {
  await server.stop();
}
