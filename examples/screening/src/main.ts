/**
 * Embedding OpenKYT: an engine in this process on a SQLite file. It loads the demo world (a
 * credited extract of real OFAC sanctions, Ethereum and Bitcoin labels, a generated ledger and a
 * few Bitcoin transactions), screens transfers that show each kind of risk (two BTC deposits
 * among them), and prints what the engine found.
 *
 *   npx -y pnpm@10.34.8 --filter @openkyt/example-screening start [FILE]
 */
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { describeDemo, loadDemoWorld, screenDemo } from "@openkyt/cli";
import { createEngine } from "@openkyt/core";
import { userPath } from "@openkyt/runtime-node";
import { createSqliteStore } from "@openkyt/store-sqlite";

// The file is made afresh (relative to where the command was typed, as pnpm runs this script in
// the example's folder); `--` is what pnpm puts before forwarded arguments.
const given = process.argv.slice(2).filter((a) => a !== "--")[0];
const file = resolve(userPath(given ?? "openkyt-example.db"));
for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });

// 1. A store and an engine: the whole composition is this one call.
const store = await createSqliteStore({ filename: file });
const engine = createEngine({ store });
engine.events.on("alert.created", (alert) =>
  console.log(
    `alert: ${alert.riskLevel} ${alert.riskType} ${alert.entityCategory} on transfer ${alert.transferId}`,
  ),
);

// 2. Reference data: sanctions, labels, the ledger and prices.
const loaded = await loadDemoWorld(store);

// 3. Screening: the job runner binds and checks in the background while transfers and checks
// are registered as the published interface has them; drain() returns when all of it is done.
engine.start();
const api = engine.forAccount("example");
const items = await screenDemo(api);
await engine.drain();

console.log(`\n${loaded.toLocaleString("en-US")} ledger transfers in ${file}\n`);
console.log(await describeDemo(api, items));

// 4. Exit: stop the job runner (it would keep the process alive), then close the store.
await engine.stop();
await store.close();
