/**
 * `openkyt import KIND FILE`: streams a sanctions list, address labels, a ledger, tokens or
 * prices into the store, with progress and a final summary (bad rows listed with file, line and
 * reason; skip reasons by count; the good rows kept). A refused import (a file of no known
 * format, a sanctions run that would delist from an incomplete file or delist too much) writes
 * nothing and exits 2, as a dry run that a real run would refuse does.
 */
import {
  detectFormat,
  FORMATS,
  IMPORT_KINDS,
  type ImportOptions,
  importFile,
  isImportKind,
  MASS_DELIST_SHARE,
  refusalOf,
} from "@openkyt/datasets";
import { parseCommandArgs, stringOption, wholeOption } from "./cli-args.js";
import { type CliCommand, EXIT, UsageError } from "./cli-command.js";
import { openStore, resolveDbTarget } from "./db-target.js";
import { progressReporter } from "./import-progress.js";
import { conflictText, summaryText } from "./import-summary-text.js";
import { dropExpiredChangesOnce } from "./ledger-changes-upkeep.js";
import { LEDGER_OPTION, LEDGER_USAGE, resolveLedgerTarget, withLedgerTarget } from "./ledger-target.js";

const formatsOf = (kind: string) =>
  FORMATS.filter((f) => f.kind === kind)
    .map((f) => f.id)
    .join(", ");

/** The import command. */
export const importCommand: CliCommand = {
  name: "import",
  summary: "import sanctions, labels, a ledger, tokens or prices from a file",
  usage: `usage: openkyt import KIND FILE [--format F] [--network N] [--token T] [--list NAME] [--as-of DATE]
                           [--dry-run] [--allow-mass-delist] [--no-delist] [--net N] [--undo FILE] [--no-clustering]
                           [--db ...] [--json]

  KIND        ${IMPORT_KINDS.join(" | ")}
  --format    the file's format (recognised from its header when left out):
${IMPORT_KINDS.map((k) => `                ${k}: ${formatsOf(k)}`).join("\n")}
  --network   the network of a per-asset address list or price file, when the file name does not say;
              of a UTXO ledger (bitcoin-core, esplora, bitcoin-blocks): BTC (default) or LTC
  --net       a UTXO ledger's network: main (default), test or regtest (the address prefixes; a
              blk*.dat file's magic says it)
  --undo      bitcoin-blocks: the undo data (default revNNNNN.dat beside blkNNNNN.dat, NAME-undo.EXT
              beside NAME.EXT)
  --no-clustering
              UTXO ledger: do not merge address clusters (common-input ownership); by default each
              batch merges its clusters in its own transaction, and the summary counts them and
              lists every cluster holding two labelled entities (a conflict, also a warning line)
  --token     the token of a price file
  --list      the sanctions list's name (default "OFAC SDN")
  --as-of     the snapshot date of a sanctions list (YYYY-MM-DD)
  --dry-run   sanctions: read and plan, write nothing; print what would be added, changed and delisted
  --allow-mass-delist
              sanctions: apply a run that delists more than ${MASS_DELIST_SHARE * 100}% of the list's listings
              (no floor: a list of fewer than ${Math.ceil(1 / MASS_DELIST_SHARE)} loses none without it); without it
              such a run is refused and writes nothing
  --no-delist sanctions: add and update only, delist nothing (a complete list that does not look whole)
  --db        SQLite file or postgres:// URL; default $OPENKYT_DB, then ./openkyt.db
${LEDGER_USAGE}
  --changes-retention-days  with --ledger clickhouse://: days of the ledger's change log kept; an
              import drops older days at its end (as openkyt follow does every hour). Default 7

  A file of no known format is refused (exit 2) with its first line quoted. A sanctions list
  delists only from a complete snapshot of the same list (the OFAC CSV, an all-chain address
  list) that looks whole: at least one row taken, no unreadable row, a newline at its end, no
  skipped row that begins an address it would delist. A file cut exactly at a line boundary
  looks whole: the ${MASS_DELIST_SHARE * 100}% limit is the only guard there, so check with --dry-run.
  Re-importing the correct list after a bad run reopens the listings that run ended. Every
  sanctions import is one transaction. See docs/data.md.`,
  async run(argv, io) {
    const args = parseCommandArgs(
      argv,
      {
        db: { type: "string" },
        ...LEDGER_OPTION,
        "changes-retention-days": { type: "string" },
        format: { type: "string" },
        network: { type: "string" },
        token: { type: "string" },
        list: { type: "string" },
        "as-of": { type: "string" },
        "dry-run": { type: "boolean" },
        "allow-mass-delist": { type: "boolean" },
        "no-delist": { type: "boolean" },
        net: { type: "string" },
        undo: { type: "string" },
        "no-clustering": { type: "boolean" },
      },
      2,
    );
    const [kind, file] = args.positionals;
    if (!kind || !isImportKind(kind)) throw new UsageError(`KIND must be one of ${IMPORT_KINDS.join(", ")}`);
    if (!file) throw new UsageError("FILE is required");
    const flag = (name: string) => args.values[name] === true;
    for (const name of ["dry-run", "allow-mass-delist", "no-delist"]) {
      if (flag(name) && kind !== "sanctions") throw new UsageError(`--${name} is for sanctions imports only`);
    }
    for (const name of ["net", "undo"]) {
      if (stringOption(args, name) !== undefined && kind !== "ledger")
        throw new UsageError(`--${name} is for UTXO ledger imports only`);
    }
    if (flag("no-clustering") && kind !== "ledger")
      throw new UsageError("--no-clustering is for UTXO ledger imports only");
    const refuse = (error: unknown): number => {
      if (refusalOf(error) === null) throw error;
      // Refused before anything was written: bad input, as a usage error is.
      io.stderr(`openkyt import: refused: ${(error as Error).message}\n`);
      return EXIT.USAGE;
    };
    // A file of no known format is refused before the database is opened (or created).
    if (stringOption(args, "format") === undefined) {
      const unknown = await detectFormat(file, kind).then(
        () => null,
        (error: unknown) => error,
      );
      if (unknown !== null) return refuse(unknown);
    }
    const ledger = resolveLedgerTarget(stringOption(args, "ledger"), io.env);
    const retentionDays = wholeOption(args, "changes-retention-days", 7, 1);
    const store = await withLedgerTarget(
      await openStore(resolveDbTarget(stringOption(args, "db"), io.env), { migrateSqlite: true }),
      ledger,
    );
    const progress = progressReporter(io.stderr, {
      tty: Boolean(process.stderr.isTTY) && !args.values.json,
      columns: process.stderr.columns,
    });
    try {
      const optional = (name: string, key: keyof ImportOptions) => {
        const value = stringOption(args, name);
        return value === undefined ? {} : { [key]: value };
      };
      const summary = await importFile(store, {
        kind,
        file,
        ...optional("format", "format"),
        ...optional("network", "network"),
        ...optional("token", "token"),
        ...optional("list", "listName"),
        ...optional("as-of", "asOf"),
        ...optional("net", "chain"),
        ...optional("undo", "undoFile"),
        ...(flag("dry-run") ? { dryRun: true } : {}),
        ...(flag("allow-mass-delist") ? { allowMassDelist: true } : {}),
        ...(flag("no-delist") ? { delist: false } : {}),
        ...(flag("no-clustering") ? { clustering: false } : {}),
        onProgress: (p) => progress.update(p),
        // The command opened the store for this import alone.
        exclusiveStore: true,
      } as ImportOptions)
        .catch((error: unknown) => {
          if (refusalOf(error) === null) throw error;
          return error as Error;
        })
        .finally(() => progress.done()); // an error starts on a line of its own
      if (summary instanceof Error) return refuse(summary);
      for (const c of summary.utxo?.clustering?.conflicts ?? [])
        io.stderr(`openkyt import: warning: ${conflictText(c)}\n`);
      // The import stamped the change log once per row: its expired days go now.
      if (ledger !== null && kind === "ledger") {
        await dropExpiredChangesOnce(ledger, { retentionDays, report: io.stderr });
      }
      if (args.values.json) io.stdout(`${JSON.stringify(summary)}\n`);
      else io.stdout(summaryText(kind, file, summary));
      return summary.refusal === null ? EXIT.OK : EXIT.USAGE;
    } finally {
      await store.close();
    }
  },
};
