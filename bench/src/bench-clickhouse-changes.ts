/**
 * What a hub cache's catch-up costs on an idle ClickHouse ledger, for two checkouts alternating
 * in one run (the way to compare on a shared machine): a fresh server, per `--tx` value a ledger
 * whose change log window holds that many transactions (`--logs` rows each, all into one hub the
 * cache holds, with 64 more of one row that make it a hub) and then nothing more is stored; per round and checkout, `--catchups` catch-ups
 * of that checkout's `createHubCachedLedger` over its `openClickHouseLedger` (both imported from
 * its sources). Prints per round and checkout: client and server CPU per catch-up (ms), wall
 * per catch-up, ledger rows read per catch-up, and then the median over rounds.
 *
 * The overlap is widened to an hour (`changesOverlapMs`, `--overlap-ms`) in both checkouts, so
 * the window holds the same transactions for the whole run: what the default 30 s window holds
 * right after that many transactions were stored. `--overlap-ms 1000 --settle-ms 3000`: the
 * window holds nothing (a ledger quiet for longer than the overlap).
 *
 *   node --conditions=source --import tsx src/bench-clickhouse-changes.ts
 *     [--tx 0,1000] [--logs 2] [--catchups 50] [--rounds 3] [--overlap-ms N --settle-ms N]
 *     LABEL=CHECKOUT...
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import type { LedgerTransfer } from "@openkyt/core";
import {
  migrateClickHouseLedger,
  openChClient,
  parseClickHouseUrl,
  startLocalClickHouse,
} from "@openkyt/ledger-clickhouse";
import { argFlag, percentile } from "./bench-stats.js";

const txCounts = (argFlag("--tx") ?? "0,1000").split(",").map(Number);
const logs = Number(argFlag("--logs") ?? "2");
const catchups = Number(argFlag("--catchups") ?? "50");
const rounds = Number(argFlag("--rounds") ?? "3");
const overlapMs = Number(argFlag("--overlap-ms") ?? "3600000");
const settleMs = Number(argFlag("--settle-ms") ?? "0");
const checkouts = process.argv
  .slice(2)
  .filter((a) => /^[\w.-]+=/.test(a))
  .map((a) => ({ label: a.slice(0, a.indexOf("=")), dir: resolve(a.slice(a.indexOf("=") + 1)) }));

/** User + system CPU ms of a process so far (Linux /proc). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

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
