/**
 * `openkyt backtest`: what a risk model would have done to an account's transfers already
 * screened, from their stored results, beside what the model that checked them did. Prints a
 * table (or the report as JSON with `--json`); a progress bar on a terminal's stderr. `--html`
 * and `--pdf` also write the report as a page or a PDF (the renderer of @openkyt/pdf).
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import { type BacktestProgress, type BacktestRunRequest, KytError } from "@openkyt/core";
import { backtestHtml } from "./backtest-html.js";
import { backtestText } from "./backtest-text.js";
import { type ParsedArgs, parseCommandArgs, stringOption } from "./cli-args.js";
import { type CliCommand, type CliIo, EXIT, UsageError } from "./cli-command.js";
import { openStore, resolveDbTarget } from "./db-target.js";
import { createCliEngine, lazyPdfRenderer } from "./engine-setup.js";

/** The model to try: an id, or the body of a model file (`{ "name", "rules" }`). */
async function modelOf(value: string): Promise<string | unknown> {
  const isFile = await stat(value).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!isFile) {
    if (/\.json$/i.test(value)) throw new UsageError(`--model ${value}: no such file`);
    return value;
  }
  const text = await readFile(value, "utf8");
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`--model ${value}: not JSON (${error instanceof Error ? error.message : error})`);
  }
}

/** The in-process body from the options. */
async function bodyOf(args: ParsedArgs): Promise<BacktestRunRequest> {
  const required = (name: string) => {
    const value = stringOption(args, name);
    if (!value) throw new UsageError(`--${name} is required`);
    return value;
  };
  const limit = stringOption(args, "shift-limit");
  const filters = {
    ...(stringOption(args, "network") ? { network: stringOption(args, "network") } : {}),
    ...(stringOption(args, "direction") ? { direction: stringOption(args, "direction") } : {}),
    ...(stringOption(args, "token") ? { token_id: stringOption(args, "token") } : {}),
  };
  if (limit !== undefined && !/^\d+$/.test(limit))
    throw new UsageError(`--shift-limit ${limit}: not a whole number`);
  // The flags' text as the request it is; the engine validates it as any body (a bad
  // --direction is a VALIDATION_ERROR naming it).
  return {
    model: (await modelOf(required("model"))) as BacktestRunRequest["model"],
    from: required("from"),
    to: required("to"),
    filters: filters as BacktestRunRequest["filters"],
    ...(limit === undefined ? {} : { shift_limit: Number(limit) }),
    retrace: args.values.retrace === true,
  };
}

/** A bar redrawn on a terminal, or a line every 5 s elsewhere. */
function progressWriter(io: CliIo, tty: boolean) {
  let last = 0;
  let drawn = false;
  return {
    update(p: BacktestProgress) {
      const now = Date.now();
      if (now - last < (tty ? 200 : 5_000) && p.scanned < p.total) return;
      last = now;
      const fraction = p.total > 0 ? Math.min(1, p.scanned / p.total) : 1;
      const text = `${p.scanned.toLocaleString("en-US")} of ${p.total.toLocaleString("en-US")} transfers`;
      if (tty) {
        io.stderr(`\r[${"#".repeat(Math.round(fraction * 20)).padEnd(20, ".")}] ${text}`);
        drawn = true;
      } else io.stderr(`backtest: ${text}\n`);
    },
    done() {
      if (drawn) io.stderr("\n");
    },
  };
}

/** The backtest command. */
export const backtestCommand: CliCommand = {
  name: "backtest",
  summary: "what a risk model would have done to an account's screened transfers",
  usage: `usage: openkyt backtest --account NAME --model ID|FILE --from DATE --to DATE
                        [--network NET] [--direction incoming|outgoing] [--token TOKEN_ID]
                        [--shift-limit N] [--retrace] [--html FILE] [--pdf FILE]
                        [--db FILE|postgres://...] [--json]

  Re-evaluates the stored check results (exposure, counterparty, sanctions) of the account's
  transfers registered from --from to --to (YYYY-MM-DD, whole UTC days, or ISO 8601 with an
  offset) under the model: an id of the account's models ("default": the built-in one), or a
  JSON file holding a model body ({"name": ..., "rules": [...]}, as POST /v1/risk-models/ takes).
  Prints, beside what the model that checked them did: transfers by risk level, alerts by risk
  type and category, the level shift with the first --shift-limit ids each way (default 20), and
  the throughput. Writes nothing: no result, no alert. --retrace traces each transfer again
  against the current ledger, labels and lists for the candidate (a trace per transfer: slow).
  --html FILE also writes the report as a page with a chart of the level shift, --pdf FILE
  as a PDF (the same report as GET /v1/backtests/{id}/report/).
  See docs/backtesting.md.`,
  async run(argv, io) {
    const args = parseCommandArgs(argv, {
      db: { type: "string" },
      account: { type: "string" },
      model: { type: "string" },
      from: { type: "string" },
      to: { type: "string" },
      network: { type: "string" },
      direction: { type: "string" },
      token: { type: "string" },
      "shift-limit": { type: "string" },
      retrace: { type: "boolean" },
      html: { type: "string" },
      pdf: { type: "string" },
    });
    const account = stringOption(args, "account");
    if (!account) throw new UsageError("--account NAME is required");
    const body = await bodyOf(args);
    const store = await openStore(resolveDbTarget(stringOption(args, "db"), io.env), { migrateSqlite: true });
    const progress = progressWriter(io, Boolean(process.stderr.isTTY) && !args.values.json);
    const renderer = lazyPdfRenderer();
    try {
      const backtests = createCliEngine(store, io.env, undefined, {}, renderer).forAccount(account).backtests;
      const report = await backtests.run(body, { onProgress: progress.update });
      progress.done();
      const window = { from: String(body.from), to: String(body.to) };
      const html = stringOption(args, "html");
      if (html) {
        await writeFile(html, backtestHtml(report, window));
        io.stderr(`backtest: report written to ${html}\n`);
      }
      const pdf = stringOption(args, "pdf");
      if (pdf) {
        await writeFile(pdf, (await backtests.renderReport(report, window)).bytes);
        io.stderr(`backtest: PDF report written to ${pdf}\n`);
      }
      if (args.values.json) io.stdout(`${JSON.stringify(report)}\n`);
      else io.stdout(`${backtestText(report, window)}\n`);
      return EXIT.OK;
    } catch (error) {
      progress.done();
      if (!(error instanceof KytError)) throw error;
      io.stderr(`backtest: ${error.message}\n`);
      for (const [field, problems] of Object.entries(error.errors))
        io.stderr(`  ${field}: ${problems.join("; ")}\n`);
      return EXIT.FAILED;
    } finally {
      await renderer.close();
      await store.close();
    }
  },
};
