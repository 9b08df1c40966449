/**
 * The risk lab: a ledger CSV and address labels in; the deposits listed in a CSV screened with
 * the account's model (the built-in one); a second model, from a JSON file, backtested against
 * what the first one did; the comparison printed as a table (or returned as the report).
 *
 * Every step is an `openkyt` command or an engine call a benchmarker can run on their own data:
 * `openkyt import ledger`, `openkyt import labels`, `registerTransfer` for each deposit, and
 * `openkyt backtest`.
 */
import { readFile } from "node:fs/promises";
import { type CliIo, COMMANDS, runCli } from "@openkyt/cli";
import { type BacktestReportResponse, createEngine } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";

/** What the lab reads and where it keeps the database. */
export interface LabOptions {
  readonly ledger: string;
  readonly labels: string;
  /** CSV `tx_hash,output_address`: the incoming transfers to screen. */
  readonly deposits: string;
  /** The candidate model: a JSON model body (`{ "name", "rules" }`). */
  readonly model: string;
  /** The SQLite file (it is created; an existing one is added to). */
  readonly db: string;
  /** Where the commands write. */
  readonly io: CliIo;
}

/** The account the lab screens for. */
export const LAB_ACCOUNT = "lab";

/** Runs an `openkyt` command, failing with its messages when it does not exit 0. */
async function openkyt(args: string[], io: CliIo): Promise<void> {
  const status = await runCli(args, io, COMMANDS);
  if (status !== 0) throw new Error(`openkyt ${args.join(" ")} exited ${status}`);
}

/** The `tx_hash,output_address` rows of the deposits file. */
async function depositsOf(file: string): Promise<Array<{ txHash: string; outputAddress: string }>> {
  const [header, ...lines] = (await readFile(file, "utf8")).trim().split(/\r?\n/);
  if (header?.trim() !== "tx_hash,output_address") {
    throw new Error(`${file}: the header must be tx_hash,output_address (got ${header})`);
  }
  return lines.map((line, i) => {
    const [txHash, outputAddress] = line.split(",").map((cell) => cell.trim());
    if (!txHash || !outputAddress) throw new Error(`${file}:${i + 2}: expected tx_hash,output_address`);
    return { txHash, outputAddress };
  });
}

/** Screens the deposits with the built-in model, then backtests the candidate: the report. */
export async function runLab(options: LabOptions): Promise<BacktestReportResponse> {
  const { io, db } = options;
  await openkyt(["import", "ledger", options.ledger, "--db", db], io);
  await openkyt(["import", "labels", options.labels, "--db", db], io);

  const store = await createSqliteStore({ filename: db });
  const engine = createEngine({ store });
  try {
    const lab = engine.forAccount(LAB_ACCOUNT);
    for (const d of await depositsOf(options.deposits)) {
      await lab.registerTransfer({
        direction: "incoming",
        network: "ETH",
        tx_hash: d.txHash,
        output_address: d.outputAddress,
      });
    }
    await engine.drain(); // every deposit bound and checked with the built-in model
  } finally {
    await engine.stop();
    await store.close();
  }

  // The window: the deposits were registered just now.
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const window = ["--from", day(-1), "--to", day(1)];
  let reportJson = "";
  const json: CliIo = {
    ...io,
    stdout: (text) => {
      reportJson += text;
    },
  };
  await openkyt(
    ["backtest", "--account", LAB_ACCOUNT, "--model", options.model, ...window, "--db", db, "--json"],
    json,
  );
  await openkyt(["backtest", "--account", LAB_ACCOUNT, "--model", options.model, ...window, "--db", db], io);
  return JSON.parse(reportJson) as BacktestReportResponse;
}
