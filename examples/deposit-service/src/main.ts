/**
 * `npm start` in examples/deposit-service: the service on http://127.0.0.1:8070 over a SQLite
 * file, with the engine's job runner in the same process.
 *
 *   DB=deposits.db PORT=8070 node --conditions=source --import tsx src/main.ts
 *
 * Load reference data into the same database first (`openkyt import ... --db deposits.db`),
 * or try it on the demo's: DB=openkyt-demo.db. A relative DB is relative to where the command
 * was typed; the service never creates the database (an empty one would screen nothing, and
 * every deposit would wait forever): a missing one is an error that says where it looked.
 */
import { serve } from "@hono/node-server";
import { createEngine } from "@openkyt/core";
import { existingDatabase } from "@openkyt/runtime-node";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { createDepositService } from "./deposit-service.js";

let filename: string;
try {
  filename = existingDatabase(
    process.env.DB ?? "deposits.db",
    "make the demo's with `npx openkyt demo --no-serve --db openkyt-demo.db` (then DB=openkyt-demo.db ACCOUNT=demo), " +
      "or load your data with `npx openkyt import ... --db FILE`",
  );
} catch (error) {
  console.error(`deposit service: ${(error as Error).message}`);
  process.exit(1);
}
const store = await createSqliteStore({ filename });
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
