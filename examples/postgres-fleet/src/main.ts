/**
 * `npm start` in examples/postgres-fleet: the fleet on the Postgres of `--db` (or
 * OPENKYT_DB), N workers, a load run, the figures.
 *
 *   node --conditions=source --import tsx src/main.ts --db postgres://127.0.0.1:5432/kyt?schema=fleet \
 *     [--workers 4] [--transfers 20000] [--ledger 200000]
 */
import { parseArgs } from "node:util";
import { fleetText, runFleet } from "./fleet.js";

// `pnpm --filter ... start -- --db URL` hands the script a leading "--": arguments follow it.
const args = process.argv.slice(2);
const { values } = parseArgs({
  args: args[0] === "--" ? args.slice(1) : args,
  options: {
    db: { type: "string", default: process.env.OPENKYT_DB },
    workers: { type: "string", default: "4" },
    transfers: { type: "string", default: "20000" },
    ledger: { type: "string" },
  },
});
if (!values.db?.startsWith("postgres")) {
  console.error("usage: --db postgres://HOST:PORT/DB[?schema=NAME] (or OPENKYT_DB)");
  process.exit(2);
}
const transfers = Number(values.transfers);
const figures = await runFleet({
  url: values.db,
  workers: Number(values.workers),
  transfers,
  ledger: values.ledger ? Number(values.ledger) : transfers * 10,
  log: (line) => console.error(line),
});
console.log(fleetText(figures));
