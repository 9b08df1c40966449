/**
 * `openkyt demo`: builds a SQLite database from the credited extract of real data shipped with
 * the package plus a generated ledger, screens transfers that show each kind of risk, prints
 * what the engine found, keeps a demo key in the database (so `openkyt serve --db FILE` accepts
 * it later), prints it with signed `curl` lines to try, then serves the KYT interface (until
 * Ctrl-C; `--no-serve` stops after the screening).
 */

import { rmSync } from "node:fs";
import { resolve } from "node:path";
import {
  createHttpApp,
  createHttpLogger,
  createUserDirectory,
  serveHttp,
  type UserDirectory,
} from "@openkyt/http";
import { userPath } from "@openkyt/runtime-node";
import { parseCommandArgs, portOption, stringOption } from "./cli-args.js";
import { type CliCommand, EXIT, UsageError } from "./cli-command.js";
import { consoleAssetsDir } from "./console-dir.js";
import { openStore } from "./db-target.js";
import {
  DEMO_ADDRESSES,
  DEMO_BTC_STORIES,
  DEMO_REGISTER_EXAMPLE,
  describeDemo,
  loadDemoWorld,
  screenDemo,
} from "./demo-world.js";
import { createCliEngine } from "./engine-setup.js";

/** The demo key: for a local demo only, printed so that anyone can try the interface. */
export const DEMO_KEY = Object.freeze({
  id: "demo-key-0001",
  secret: "demo-secret-do-not-use-in-production",
  account: "demo",
});

/** The demo's console users (both of the demo account), with one password: for a local demo only. */
export const DEMO_USERS = Object.freeze({
  admin: "admin@demo.openkyt.test",
  analyst: "analyst@demo.openkyt.test",
  password: "demo-password-do-not-use",
});

/** Makes the demo's console users (kept in the database, like the demo key). */
async function createDemoUsers(users: UserDirectory): Promise<void> {
  for (const [email, role] of [
    [DEMO_USERS.admin, "admin"],
    [DEMO_USERS.analyst, "analyst"],
  ] as const) {
    if (!(await users.find(email))) {
      await users.create({ accountId: DEMO_KEY.account, email, role, password: DEMO_USERS.password });
    }
  }
}

/** The lines that say where the console is and how to sign in. */
function consoleLines(url: string | null): string[] {
  const login = `sign in as ${DEMO_USERS.admin} (admin) or ${DEMO_USERS.analyst} (analyst), password ${DEMO_USERS.password}`;
  return url ? [`Console: ${url} -- ${login}`] : [`Console (once served, at /console/): ${login}`];
}

/** A signed `curl` of the KYT interface at `url`, as shell lines (signed by scripts/sign-request.mjs). */
function signedCurl(url: string, method: "GET" | "POST", path: string, body?: unknown): string[] {
  if (body === undefined) {
    return [`node scripts/sign-request.mjs ${method} ${path} | curl -sS -H @- ${url}${path}`];
  }
  return [
    `BODY='${JSON.stringify(body)}'`,
    `node scripts/sign-request.mjs ${method} ${path} "$BODY" | curl -sS -H @- -H "Content-Type: application/json" --data "$BODY" ${url}${path}`,
  ];
}

/**
 * What to try against the interface at `url` with the demo key: register a deposit whose hash
 * is in the demo ledger, check an address, read a transfer the demo screened.
 */
export function demoTryLines(url: string, screened: string): string[] {
  const lines = [
    `export OPENKYT_KEY_ID=${DEMO_KEY.id} OPENKYT_SECRET=${DEMO_KEY.secret}`,
    "# register a deposit whose hash is in the demo ledger (50 ETH, 40% from a sanctioned address one hop back)",
    ...signedCurl(url, "POST", "/v1/transfers/register/", DEMO_REGISTER_EXAMPLE),
    "# check an address (Lazarus Group, OFAC SDN)",
    ...signedCurl(url, "POST", "/v1/manual-checks/check-address/", {
      network: "ETH",
      address: DEMO_ADDRESSES.lazarus,
    }),
    "# read a transfer the demo screened",
    ...signedCurl(url, "GET", `/v1/transfers/${screened}/`),
  ];
  return lines.map((line) => `  ${line}`);
}

/** The demo command. */
export const demoCommand: CliCommand = {
  name: "demo",
  summary: "build a demo database from real sanctions and labels, screen transfers, and serve them",
  usage: `usage: openkyt demo [--db ./openkyt-demo.db] [--port 8080] [--host 127.0.0.1] [--transfers 50000] [--no-serve]

  --db         the SQLite file to (re)create; default ./openkyt-demo.db
  --transfers  size of the generated background ledger; default 50000
  --no-serve   stop after printing the screening results (\`openkyt serve --db FILE\` serves them later)

  The database keeps the printed demo key, in the account of the demo's transfers.`,
  async run(argv, io) {
    const args = parseCommandArgs(argv, {
      db: { type: "string" },
      port: { type: "string", short: "p" },
      host: { type: "string" },
      transfers: { type: "string" },
      "no-serve": { type: "boolean" },
    });
    const named = stringOption(args, "db") ?? "openkyt-demo.db";
    // Where the command was typed, also under `npm run demo` typed in a subfolder.
    const file = resolve(userPath(named));
    const transfers = Number(stringOption(args, "transfers") ?? 50_000);
    if (!Number.isInteger(transfers) || transfers < 0) {
      throw new UsageError("--transfers must be a whole number of transfers (0 or more)");
    }
    const port = portOption(args, "port", 8080);
    const host = stringOption(args, "host") ?? "127.0.0.1";
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
    const started = Date.now();
    const store = await openStore({ kind: "sqlite", filename: file }, { migrateSqlite: true });
    try {
      io.stderr(
        `building ${file}: 60 OFAC SDN addresses, 45 labelled addresses, a ${transfers.toLocaleString("en-US")}-transfer ledger, ${DEMO_BTC_STORIES.length} Bitcoin transactions...\n`,
      );
      const loaded = await loadDemoWorld(store, transfers);
      const engine = createCliEngine(store, io.env);
      const api = engine.forAccount(DEMO_KEY.account);
      const items = await screenDemo(api);
      await engine.drain();
      // Kept in the database: `openkyt serve --db FILE` accepts the printed key later too.
      await engine.apiKeys.provision(DEMO_KEY.id, DEMO_KEY.secret, DEMO_KEY.account);
      await createDemoUsers(createUserDirectory({ store }));
      io.stdout(
        `OpenKYT demo: ${loaded.toLocaleString("en-US")} ledger transfers, screened in ${Date.now() - started} ms\n\n`,
      );
      io.stdout(await describeDemo(api, items));
      const key = [`  key id ${DEMO_KEY.id}`, `  secret ${DEMO_KEY.secret}`];
      const screened = items[0]?.id ?? "";
      if (args.values["no-serve"]) {
        io.stdout(
          [
            `${file} keeps the demo key (account "${DEMO_KEY.account}", the demo's transfers):`,
            ...key,
            `Serve it with \`npx openkyt serve --db ${named}\`, then try it from the repository root in`,
            "another shell (scripts/sign-request.mjs signs each request):",
            ...demoTryLines(`http://${host}:${port}`, screened),
            ...consoleLines(null),
            "",
          ].join("\n"),
        );
        return EXIT.OK;
      }
      const logger = createHttpLogger({ level: "warn" });
      const assetsDir = consoleAssetsDir(io.env);
      const server = await serveHttp(createHttpApp({ engine, logger, console: { assetsDir } }), {
        host,
        port,
      });
      engine.start();
      const stopped = io.untilSignal();
      io.stdout(
        [
          `Serving the KYT interface at ${server.url} with the demo key (account "${DEMO_KEY.account}", kept in ${file}):`,
          ...key,
          "Try it from the repository root in another shell (scripts/sign-request.mjs signs each request):",
          ...demoTryLines(server.url, screened),
          ...consoleLines(assetsDir ? `${server.url}/console/` : null),
          `Ctrl-C stops the server; \`npx openkyt serve --db ${named}\` serves the database again.`,
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
