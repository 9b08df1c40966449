/**
 * The dispatch table of the `openkyt` binary. A new command is one entry here (and its file).
 * Each entry imports its module only when that command runs or shows its usage: the binary's
 * start-up (`--help`, `--version`) loads none of them (measured by `npm run bench -- --only cli`).
 */
import type { CliCommand, CliCommands, LazyCliCommand } from "./cli-command.js";

const lazy = (name: string, summary: string, load: () => Promise<CliCommand>): LazyCliCommand =>
  Object.freeze({ name, summary, load });

/** Every command, by name. */
export const COMMANDS: CliCommands = Object.freeze({
  serve: lazy(
    "serve",
    "serve the KYT interface over HTTP (and run the job runner)",
    async () => (await import("./command-serve.js")).serveCommand,
  ),
  worker: lazy(
    "worker",
    "run the job runner only (binding and checks)",
    async () => (await import("./command-worker.js")).workerCommand,
  ),
  follow: lazy(
    "follow",
    "keep the ledger current with a chain: write its final blocks' transfers as they come",
    async () => (await import("./command-follow.js")).followCommand,
  ),
  keys: lazy(
    "keys",
    "create, list, revoke or seal API keys of an account",
    async () => (await import("./command-keys.js")).keysCommand,
  ),
  users: lazy(
    "users",
    "create, list or disable the console's users of an account",
    async () => (await import("./command-users.js")).usersCommand,
  ),
  migrate: lazy(
    "migrate",
    "migrate a store to the latest schema",
    async () => (await import("./command-migrate.js")).migrateCommand,
  ),
  import: lazy(
    "import",
    "import sanctions, labels, a ledger, tokens or prices from a file",
    async () => (await import("./command-import.js")).importCommand,
  ),
  backtest: lazy(
    "backtest",
    "what a risk model would have done to an account's screened transfers",
    async () => (await import("./command-backtest.js")).backtestCommand,
  ),
  demo: lazy(
    "demo",
    "build a demo database from real sanctions and labels, screen transfers, and serve them",
    async () => (await import("./command-demo.js")).demoCommand,
  ),
});
