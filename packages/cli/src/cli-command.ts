/**
 * What a command of the `openkyt` binary is: a name, a summary and usage text for `--help`,
 * and a `run` over parsed-free argv with injected input/output, returning the exit status.
 * Statuses: 0 success, 1 a failure the message explains, 2 bad usage.
 */

/** Where a command writes and what it reads from its environment. */
export interface CliIo {
  /** Results (what `--json` makes machine-readable). */
  stdout(text: string): void;
  /** Messages: progress, warnings, errors. */
  stderr(text: string): void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Resolves with the first SIGTERM or SIGINT (long-running commands wait on it). */
  untilSignal(): Promise<string>;
}

/** A command of the binary. */
export interface CliCommand {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Usage text for `openkyt NAME --help`. */
  readonly usage: string;
  /** Runs with the arguments after the command name; resolves to the exit status. */
  run(args: ReadonlyArray<string>, io: CliIo): Promise<number>;
}

/**
 * A command listed by name and summary whose module is imported only when it runs or shows its
 * usage, so that `openkyt --help` and `openkyt --version` load almost nothing.
 */
export interface LazyCliCommand {
  readonly name: string;
  /** One line for the command list (the loaded command's own summary, kept equal by a test). */
  readonly summary: string;
  /** Imports the command's module. */
  load(): Promise<CliCommand>;
}

/** A table of commands by name: loaded ones, lazy ones, or both. */
export type CliCommands = Readonly<Record<string, CliCommand | LazyCliCommand>>;

/** Exit statuses. */
export const EXIT = Object.freeze({ OK: 0, FAILED: 1, USAGE: 2 });

/** Bad usage: the message and the command's usage go to stderr, exit status 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
