/**
 * The `openkyt` binary: runs one command with the process's arguments, streams and signals.
 * Imports only the dispatch table: each command's module is loaded when it runs.
 */
import type { CliIo } from "./cli-command.js";
import { runCli } from "./cli-run.js";
import { cliVersion } from "./cli-version.js";
import { COMMANDS } from "./commands.js";

const io: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  untilSignal: () =>
    new Promise((resolve) => {
      let received = false;
      const on = (signal: NodeJS.Signals) => {
        // A second signal while shutting down stops at once.
        if (received) process.exit(1);
        received = true;
        resolve(signal);
      };
      process.on("SIGTERM", on);
      process.on("SIGINT", on);
    }),
};

process.exitCode = await runCli(process.argv.slice(2), io, COMMANDS, { version: cliVersion() });
