/**
 * Running the binary: `openkyt COMMAND [options]`, `openkyt --help`, `openkyt COMMAND --help`,
 * `openkyt --version`. Usage errors print the message and usage and exit 2; failures print the
 * message and exit 1. A lazy command's module is imported only when it runs or shows its usage.
 */
import {
  type CliCommand,
  type CliCommands,
  type CliIo,
  EXIT,
  type LazyCliCommand,
  UsageError,
} from "./cli-command.js";

/** Options of {@link runCli}. */
export interface RunCliOptions {
  /** What `--version` and `-v` print; without it they are unknown commands. */
  readonly version?: string;
}

function overview(commands: CliCommands, version: boolean): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  const lines = Object.values(commands).map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  const more = version ? "openkyt --version prints the version.\n" : "";
  return `usage: openkyt COMMAND [options]\n\ncommands:\n${lines.join("\n")}\n\nopenkyt COMMAND --help shows a command's options.\n${more}`;
}

/** The command itself, importing a lazy command's module. */
async function loaded(command: CliCommand | LazyCliCommand): Promise<CliCommand> {
  return "load" in command ? command.load() : command;
}

/** Runs one invocation; resolves to the exit status. */
export async function runCli(
  argv: ReadonlyArray<string>,
  io: CliIo,
  commands: CliCommands,
  options: RunCliOptions = {},
): Promise<number> {
  const [name, ...rest] = argv;
  const hasVersion = options.version !== undefined;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const topic =
      name === "help" && rest[0] && Object.hasOwn(commands, rest[0]) ? commands[rest[0]] : undefined;
    (name === undefined ? io.stderr : io.stdout)(
      topic ? `${(await loaded(topic)).usage}\n` : overview(commands, hasVersion),
    );
    return name === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (hasVersion && (name === "--version" || name === "-v")) {
    io.stdout(`${options.version}\n`);
    return EXIT.OK;
  }
  const entry = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!entry) {
    io.stderr(`openkyt: unknown command "${name}"\n\n${overview(commands, hasVersion)}`);
    return EXIT.USAGE;
  }
  const command = await loaded(entry);
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout(`${command.usage}\n`);
    return EXIT.OK;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`openkyt ${name}: ${error.message}\n\n${command.usage}\n`);
      return EXIT.USAGE;
    }
    // Loaded here: a command that failed has loaded the core already, --help never needs it.
    const { describeError } = await import("@openkyt/core");
    io.stderr(`openkyt ${name}: ${describeError(error)}\n`);
    return EXIT.FAILED;
  }
}
