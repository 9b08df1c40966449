/**
 * The dispatch table of the `openkyt` binary. A new command is one entry here (and its file):
 * `import` and `demo` are added the same way.
 */
import type { CliCommand } from "./cli-command.js";
import { demoCommand } from "./command-demo.js";
import { importCommand } from "./command-import.js";
import { keysCommand } from "./command-keys.js";
import { migrateCommand } from "./command-migrate.js";
import { serveCommand } from "./command-serve.js";
import { workerCommand } from "./command-worker.js";

/** Every command, by name. */
export const COMMANDS: Readonly<Record<string, CliCommand>> = Object.freeze({
  serve: serveCommand,
  worker: workerCommand,
  keys: keysCommand,
  migrate: migrateCommand,
  import: importCommand,
  demo: demoCommand,
});
