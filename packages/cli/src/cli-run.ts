/**
 * Running the binary: `openkyt COMMAND [options]`, `openkyt --help`, `openkyt COMMAND --help`.
 * Usage errors print the message and usage and exit 2; failures print the message and exit 1.
 */
import { describeError } from "@openkyt/core";
import { type CliCommand, type CliIo, EXIT, UsageError } from "./cli-command.js";

function overview(commands: Readonly<Record<string, CliCommand>>): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  const lines = Object.values(commands).map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `usage: openkyt COMMAND [options]\n\ncommands:\n${lines.join("\n")}\n\nopenkyt COMMAND --help shows a command's options.\n`;
}

/** Runs one invocation; resolves to the exit status. */
export async function runCli(
  argv: ReadonlyArray<string>,
  io: CliIo,
  commands: Readonly<Record<string, CliCommand>>,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const topic = name === "help" && rest[0] ? commands[rest[0]] : undefined;
    (name === undefined ? io.stderr : io.stdout)(topic ? `${topic.usage}\n` : overview(commands));
    return name === undefined ? EXIT.USAGE : EXIT.OK;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    io.stderr(`openkyt: unknown command "${name}"\n\n${overview(commands)}`);
    return EXIT.USAGE;
  }
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
    io.stderr(`openkyt ${name}: ${describeError(error)}\n`);
    return EXIT.FAILED;
  }
}
