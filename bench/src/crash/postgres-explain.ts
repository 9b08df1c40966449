/**
 * Plan check of the Postgres store on a realistic row count: fills a throwaway schema with
 * (default) 100k transfers, 10k alerts, 10k jobs and 1M ledger rows, runs every list filter of
 * the interface and the ledger reads of tracing through the store, and prints, for each SQL
 * statement the store ran, the scans of its EXPLAIN ANALYZE plan and its execution time.
 *
 *   node --conditions=source --import tsx bench/src/crash/postgres-explain.ts \
 *     [--db postgres://127.0.0.1:5432/test] [--transfers 100000] [--ledger 1000000] [--keep] [--reuse]
 *
 * --keep leaves the schema (kyt_explain) in place; --reuse runs the checks on a kept schema
 * (migrating it first, so new indexes get built) instead of filling a new one.
 */
import { createHash } from "node:crypto";
import type { Store } from "@openkyt/core";
import {
  createPostgresStore,
  dropSchema,
  migratePostgres,
  openPostgresDatabase,
} from "@openkyt/store-postgres";
import { BIG_ACCOUNT, EXPLAIN_T0, explainDataSql, USDT } from "./postgres-explain-data.js";
import { runPsql, sqlLiteral } from "./postgres-psql.js";

const arg = (flag: string) => {
  const at = process.argv.indexOf(flag);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const url = arg("--db") ?? process.env.OPENKYT_TEST_PG_URL ?? "postgres://127.0.0.1:5432/test";
const transfers = Number(arg("--transfers") ?? 100_000);
const ledger = Number(arg("--ledger") ?? 1_000_000);
const schema = "kyt_explain";
const DAY = 86_400_000;
const md5 = (text: string) => createHash("md5").update(text).digest("hex");
const ledgerAddress = (n: number) => `0x${md5(`a${n}`)}`;
const page = { page: 1, pageSize: 20 };

/** The store calls to check, by name. */
function cases(store: Store): Array<[string, () => Promise<unknown>]> {
  const list = (filter: Record<string, unknown>) => () => store.listTransfers(BIG_ACCOUNT, filter, page);
  const alerts = (filter: Record<string, unknown>) => () => store.listAlerts(BIG_ACCOUNT, filter, page);
  const frontier = (n: number) => Array.from({ length: n }, (_, i) => ({ address: ledgerAddress(i * 37) }));
  const mid = EXPLAIN_T0 + 200 * DAY;
  return [
    ["transfers: no filter", list({})],
    ["transfers: page 50", () => store.listTransfers(BIG_ACCOUNT, {}, { page: 50, pageSize: 20 })],
    ["transfers: client_id", list({ clientId: "client-7" })],
    ["transfers: direction", list({ direction: "incoming" })],
    ["transfers: network", list({ network: "TRX" })],
    ["transfers: token_id", list({ tokenId: USDT })],
    ["transfers: token_symbol", list({ tokenSymbol: "usdt" })],
    ["transfers: tx_hash", list({ txHash: `0x${md5("h1234")}${md5("x1234")}` })],
    ["transfers: input_address", list({ inputAddress: `0x${md5("i77")}` })],
    ["transfers: output_address", list({ outputAddress: `0x${md5("o77")}` })],
    [
      "transfers: registered (1 day)",
      list({ registeredFrom: EXPLAIN_T0 + 30 * DAY, registeredTo: EXPLAIN_T0 + 31 * DAY }),
    ],
    [
      "transfers: occurred (1 day)",
      list({ occurredFrom: EXPLAIN_T0 + 30 * DAY, occurredTo: EXPLAIN_T0 + 31 * DAY }),
    ],
    ["transfers: risk_level", list({ riskLevel: "severe" })],
    ["transfers: counterparty_name", list({ counterpartyName: "Entity 7" })],
    ["transfers: counterparty_category", list({ counterpartyCategory: "sanctions" })],
    [
      "transfer by identity",
      () =>
        store.findTransfer({
          accountId: BIG_ACCOUNT,
          network: "ETH",
          txHash: `0x${md5("h1234")}${md5("x1234")}`,
          tokenId: "native",
          outputAddress: `0x${md5("o1234")}`,
          direction: "incoming",
        }),
    ],
    ["alerts: no filter", alerts({})],
    ["alerts: alert_status", alerts({ alertStatus: "in_progress" })],
    ["alerts: risk_level", alerts({ riskLevel: "severe" })],
    ["alerts: risk_type", alerts({ riskType: "sender_entity" })],
    [
      "alerts: created (1 day)",
      alerts({ createdFrom: EXPLAIN_T0 + 30 * DAY, createdTo: EXPLAIN_T0 + 31 * DAY }),
    ],
    [
      "alerts: occurred (1 day)",
      alerts({ occurredFrom: EXPLAIN_T0 + 30 * DAY, occurredTo: EXPLAIN_T0 + 31 * DAY }),
    ],
    ["alerts: entity_category", alerts({ entityCategory: "mixer" })],
    ["alerts: proximity", alerts({ proximity: "direct" })],
    ["alerts: client_id", alerts({ clientId: "client-7" })],
    ["alerts: network", alerts({ network: "TRX" })],
    ["alerts of a transfer", () => store.listAlertsOfTransfer(md5("t10"))],
    ["manual checks: list", () => store.listManualChecks(BIG_ACCOUNT, page)],
    ["risks of a transfer", () => store.listRisks("transfer", md5("t10"))],
    [
      "jobs: claim",
      () => store.claimJobs({ now: EXPLAIN_T0 + 50_000, limit: 16, leaseMs: 60_000, owner: "explain" }),
    ],
    ["ledger: by tx hash", () => store.ledgerByTxHash("ETH", `0x${md5("l1234")}${md5("y1234")}`)],
    [
      "ledger: incoming, 1 address",
      () =>
        store.ledgerIncoming(
          "ETH",
          "native",
          frontier(1).map((f) => ({ ...f, before: mid })),
          100,
        ),
    ],
    [
      "ledger: incoming, 200 addresses",
      () =>
        store.ledgerIncoming(
          "ETH",
          "native",
          frontier(200).map((f) => ({ ...f, before: mid })),
          100,
        ),
    ],
    [
      "ledger: outgoing, 200 addresses",
      () =>
        store.ledgerOutgoing(
          "ETH",
          "native",
          frontier(200).map((f) => ({ ...f, after: mid })),
          100,
        ),
    ],
  ];
}

/** The plan's node types (scans, sorts, joins) and indexes, in order, once each; and its execution time. */
function summarise(plan: string): { scans: string; ms: string } {
  const nodes: string[] = [];
  for (const raw of plan.split("\n")) {
    const line = raw.trim().replace(/^->\s*/, "");
    const node =
      /^((?:Parallel )?(?:Seq Scan|Index Only Scan|Index Scan Backward|Index Scan|Bitmap Heap Scan|Bitmap Index Scan|Incremental Sort|Sort|Hash Join|Nested Loop|Hash Semi Join|Merge Join|Append))(?: using (\w+))?/.exec(
        line,
      );
    if (!node) continue;
    const label = node[2] ? `${node[1]} ${node[2]}` : (node[1] ?? "");
    if (!nodes.includes(label)) nodes.push(label);
  }
  const ms = /Execution Time: ([\d.]+ ms)/.exec(plan)?.[1] ?? "?";
  return { scans: nodes.join(", "), ms };
}

if (process.argv.includes("--reuse")) {
  await migratePostgres(url, schema);
  runPsql(url, schema, "analyze;");
} else {
  runPsql(url, "public", `drop schema if exists "${schema}" cascade;`);
  await migratePostgres(url, schema);
  const started = performance.now();
  runPsql(url, schema, explainDataSql(transfers, ledger));
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.error(`filled ${schema} with ${transfers} transfers and ${ledger} ledger rows in ${seconds} s`);
}
const statements: Array<{ sql: string; parameters: ReadonlyArray<unknown> }> = [];
const store = await createPostgresStore({
  connectionString: url,
  schema,
  onQuery: (q) => statements.push(q),
});
try {
  for (const [name, call] of cases(store)) {
    statements.length = 0;
    await call();
    const selects = statements.filter((s) => /^\s*select/i.test(s.sql));
    for (const [i, statement] of selects.entries()) {
      const params = statement.parameters.map(sqlLiteral).join(", ");
      const plan = runPsql(
        url,
        schema,
        `prepare q as ${statement.sql};\nexplain (analyze, costs off) execute q${params ? `(${params})` : ""};\ndeallocate q;`,
      );
      const { scans, ms } = summarise(plan);
      console.log(`${(i === 0 ? name : "").padEnd(34)} ${ms.padStart(10)}  ${scans}`);
    }
  }
} finally {
  await store.close();
  if (!process.argv.includes("--keep")) {
    const admin = openPostgresDatabase({ connectionString: url, schema });
    await dropSchema(admin, schema);
    await admin.destroy();
  }
}
