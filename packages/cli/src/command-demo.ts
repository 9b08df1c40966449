/**
 * `openkyt demo`: builds a SQLite database from the credited extract of real data shipped with
 * the package plus a generated ledger, screens transfers that show each kind of risk, prints
 * what the engine found, then serves the KYT interface with a printed demo key (until Ctrl-C;
 * `--no-serve` stops after the screening).
 */
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { createHttpApp, createHttpLogger, serveHttp } from "@openkyt/http";
import { parseCommandArgs, portOption, stringOption } from "./cli-args.js";
import { type CliCommand, EXIT } from "./cli-command.js";
import { openStore } from "./db-target.js";
import { describeDemo, loadDemoWorld, screenDemo } from "./demo-world.js";
import { createCliEngine } from "./engine-setup.js";

/** The demo key: for a local demo only, printed so that anyone can try the interface. */
export const DEMO_KEY = Object.freeze({
  id: "demo-key-0001",
  secret: "demo-secret-do-not-use-in-production",
  account: "demo",
});

/** The demo command. */
export const demoCommand: CliCommand = {
  name: "demo",
  summary: "build a demo database from real sanctions and labels, screen transfers, and serve them",
  usage: `usage: openkyt demo [--db ./openkyt-demo.db] [--port 8080] [--host 127.0.0.1] [--transfers 50000] [--no-serve]

  --db         the SQLite file to (re)create; default ./openkyt-demo.db
  --transfers  size of the generated background ledger; default 50000
  --no-serve   stop after printing the screening results`,
  async run(argv, io) {
    const args = parseCommandArgs(argv, {
      db: { type: "string" },
      port: { type: "string", short: "p" },
      host: { type: "string" },
      transfers: { type: "string" },
      "no-serve": { type: "boolean" },
    });
    const file = resolve(stringOption(args, "db") ?? "openkyt-demo.db");
    const transfers = Number(stringOption(args, "transfers") ?? 50_000);
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
    const started = Date.now();
    const store = await openStore({ kind: "sqlite", filename: file }, { migrateSqlite: true });
    try {
      io.stderr(
        `building ${file}: 60 OFAC SDN addresses, 43 labelled addresses, a ${transfers.toLocaleString("en-US")}-transfer ledger...\n`,
      );
      const loaded = await loadDemoWorld(store, transfers);
      const engine = createCliEngine(store, io.env);
      const api = engine.forAccount(DEMO_KEY.account);
      const items = await screenDemo(api);
      await engine.drain();
      io.stdout(
        `OpenKYT demo: ${loaded.toLocaleString("en-US")} ledger transfers, screened in ${Date.now() - started} ms\n\n`,
      );
      io.stdout(await describeDemo(api, items));
      if (args.values["no-serve"]) return EXIT.OK;
      await engine.apiKeys.provision(DEMO_KEY.id, DEMO_KEY.secret, DEMO_KEY.account);
      const logger = createHttpLogger({ level: "warn" });
      const server = await serveHttp(createHttpApp({ engine, logger }), {
        host: stringOption(args, "host") ?? "127.0.0.1",
        port: portOption(args, "port", 8080),
      });
      engine.start();
      const stopped = io.untilSignal();
      const first = items[0]?.id ?? "";
      io.stdout(
        [
          `Serving the KYT interface at ${server.url} with the demo key (account "${DEMO_KEY.account}"):`,
          `  key id ${DEMO_KEY.id}`,
          `  secret ${DEMO_KEY.secret}`,
          "Try it (the script signs the request as the interface says):",
          `  OPENKYT_KEY_ID=${DEMO_KEY.id} OPENKYT_SECRET=${DEMO_KEY.secret} node scripts/sign-request.mjs GET /v1/transfers/${first}/ | curl -s -H @- ${server.url}/v1/transfers/${first}/`,
          `The database is ${file}; Ctrl-C stops the server.`,
          "",
        ].join("\n"),
      );
      await stopped;
      await server.close();
      await engine.stop();
      return EXIT.OK;
    } finally {
      await store.close();
    }
  },
};
