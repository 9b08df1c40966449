/**
 * `npm start` in examples/deposit-service: the service on http://127.0.0.1:8070 over a SQLite
 * file, with the engine's job runner in the same process.
 *
 *   DB=deposits.db PORT=8070 node --conditions=source --import tsx src/main.ts
 *
 * Load reference data into the same database first (`openkyt import ... --db deposits.db`),
 * or try it on the demo's: DB=openkyt-demo.db.
 */
import { serve } from "@hono/node-server";
import { createEngine } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { createDepositService } from "./deposit-service.js";

const store = await createSqliteStore({ filename: process.env.DB ?? "deposits.db" });
const engine = createEngine({ store });
const { app } = createDepositService({ engine, accountId: process.env.ACCOUNT ?? "deposits" });
engine.start();
const port = Number(process.env.PORT ?? 8070);
const server = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, () =>
  console.error(`deposit service on http://127.0.0.1:${port}/deposits`),
);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    server.close();
    await engine.stop();
    await store.close();
  });
}
