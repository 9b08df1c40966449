/**
 * `npm start` in examples/risk-lab: runs the lab on the files of `data/` (or those given) in a
 * fresh database, and prints the comparison table.
 *
 *   node --conditions=source --import tsx src/main.ts [--ledger F] [--labels F] [--deposits F] [--model F] [--db F]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { userPath } from "@openkyt/runtime-node";
import { runLab } from "./lab.js";

const data = join(dirname(fileURLToPath(import.meta.url)), "..", "data");
// `pnpm ... start -- --ledger F` hands the script a leading "--"; relative files are relative to
// where the command was typed (pnpm runs this script in the example's folder).
const args = process.argv.slice(2);
const { values: given } = parseArgs({
  args: args[0] === "--" ? args.slice(1) : args,
  options: {
    ledger: { type: "string", default: join(data, "ledger.csv") },
    labels: { type: "string", default: join(data, "labels.csv") },
    deposits: { type: "string", default: join(data, "deposits.csv") },
    model: { type: "string", default: join(data, "model-b.json") },
    db: { type: "string" },
  },
});
const values = Object.fromEntries(
  Object.entries(given).map(([name, value]) => [name, value === undefined ? value : userPath(value)]),
) as typeof given;
const scratch = values.db ? null : await mkdtemp(join(tmpdir(), "openkyt-risk-lab-"));
try {
  await runLab({
    ledger: values.ledger,
    labels: values.labels,
    deposits: values.deposits,
    model: values.model,
    db: values.db ?? join(scratch ?? ".", "lab.db"),
    io: {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      env: process.env,
      untilSignal: () => new Promise(() => {}),
    },
  });
} finally {
  if (scratch) await rm(scratch, { recursive: true, force: true });
}
