/**
 * The server of a soak run, in its own process so its memory is its own: `openkyt`'s HTTP
 * interface over an engine on Postgres (the schema given, migrated), the generated ledger and
 * its reference data loaded, the two soak keys, the job runner on and PDF reports rendered by
 * @openkyt/pdf. Prints `{"port","rss","heapUsed"}`, then `{"rss","heapUsed"}` every 2 s; SIGTERM
 * stops it gracefully.
 *
 *   node --conditions=source --import tsx bench/src/soak/soak-server.ts --db URL --schema NAME
 */
import { createEngine } from "@openkyt/core";
import { createHttpApp, createHttpLogger, serveHttp } from "@openkyt/http";
import { createPdfRenderer } from "@openkyt/pdf";
import { createPostgresStore } from "@openkyt/store-postgres";
import { generateLedger, loadWorld } from "@openkyt/testkit";
import { argValue, SOAK_KEYS, SOAK_LEDGER } from "./soak-settings.js";

const memory = () => {
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
};

const store = await createPostgresStore({
  connectionString: argValue("--db", "postgres://127.0.0.1:5432/test"),
  schema: argValue("--schema", "openkyt_soak"),
  migrate: true,
  pool: { max: 10, applicationName: "openkyt-soak" },
});
const engine = createEngine({
  store,
  reportRenderer: createPdfRenderer(),
  // Unknown hashes end not_found within the run instead of after an hour.
  binding: { windowMs: 5_000, pollMs: 1_000 },
  jobs: { pollIntervalMs: 50 },
});
await loadWorld(engine);
const ledger = generateLedger(SOAK_LEDGER);
await engine.reference.loadLedger(ledger.transfers);
await engine.reference.loadAttributions(ledger.attributions);
await engine.reference.loadSanctions(ledger.sanctions);
for (const key of SOAK_KEYS) await engine.apiKeys.provision(key.keyId, key.secret, key.account);
engine.start();
const logger = createHttpLogger({ level: "error" });
const server = await serveHttp(createHttpApp({ engine, logger, limits: { ratePerKey: null } }), { port: 0 });
console.log(JSON.stringify({ port: server.port, ...memory() }));
const ticker = setInterval(() => console.log(JSON.stringify(memory())), 2_000);

process.once("SIGTERM", async () => {
  clearInterval(ticker);
  await server.close();
  await engine.stop();
  await store.close();
  console.log(JSON.stringify(memory()));
  logger.flush();
  process.exit(0);
});
