/**
 * `openkyt import KIND FILE`: streams a sanctions list, address labels, a ledger, tokens or
 * prices into the store, with progress and a final summary (bad rows listed with file, line and
 * reason; the good rows kept).
 */
import { FORMATS, IMPORT_KINDS, type ImportOptions, importFile, isImportKind } from "@openkyt/datasets";
import { parseCommandArgs, stringOption } from "./cli-args.js";
import { type CliCommand, EXIT, UsageError } from "./cli-command.js";
import { openStore, resolveDbTarget } from "./db-target.js";
import { progressReporter } from "./import-progress.js";

const formatsOf = (kind: string) =>
  FORMATS.filter((f) => f.kind === kind)
    .map((f) => f.id)
    .join(", ");

/** The import command. */
export const importCommand: CliCommand = {
  name: "import",
  summary: "import sanctions, labels, a ledger, tokens or prices from a file",
  usage: `usage: openkyt import KIND FILE [--format F] [--network N] [--token T] [--list NAME] [--as-of DATE] [--db ...] [--json]

  KIND        ${IMPORT_KINDS.join(" | ")}
  --format    the file's format (recognised from its header when left out):
${IMPORT_KINDS.map((k) => `                ${k}: ${formatsOf(k)}`).join("\n")}
  --network   the network of a per-asset address list or price file, when the file name does not say
  --token     the token of a price file
  --list      the sanctions list's name (default "OFAC SDN")
  --as-of     the snapshot date of a sanctions list (YYYY-MM-DD)
  --db        SQLite file or postgres:// URL; default $OPENKYT_DB, then ./openkyt.db`,
  async run(argv, io) {
    const args = parseCommandArgs(
      argv,
      {
        db: { type: "string" },
        format: { type: "string" },
        network: { type: "string" },
        token: { type: "string" },
        list: { type: "string" },
        "as-of": { type: "string" },
      },
      2,
    );
    const [kind, file] = args.positionals;
    if (!kind || !isImportKind(kind)) throw new UsageError(`KIND must be one of ${IMPORT_KINDS.join(", ")}`);
    if (!file) throw new UsageError("FILE is required");
    const store = await openStore(resolveDbTarget(stringOption(args, "db"), io.env), { migrateSqlite: true });
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
        onProgress: (p) => progress.update(p),
        // The command opened the store for this import alone.
        exclusiveStore: true,
      } as ImportOptions).finally(() => progress.done()); // an error starts on a line of its own
      if (args.values.json) {
        io.stdout(`${JSON.stringify(summary)}\n`);
      } else {
        const s = summary;
        io.stdout(
          `${kind} ${file}: ${s.rowsRead} rows read, ${s.added} added, ${s.updated} updated, ${s.unchanged} unchanged, ` +
            `${s.duplicates} duplicates, ${s.skipped} skipped, ${s.rejected} rejected` +
            `${s.delisted ? `, ${s.delisted} delisted` : ""} in ${Math.round(s.durationMs)} ms ` +
            `(reading ${Math.round(s.readingMs)} ms, finishing ${Math.round(s.durationMs - s.readingMs)} ms)\n`,
        );
        for (const problem of s.rejections)
          io.stdout(`  rejected ${problem.file}:${problem.line}: ${problem.reason}\n`);
      }
      return EXIT.OK;
    } finally {
      await store.close();
    }
  },
};
