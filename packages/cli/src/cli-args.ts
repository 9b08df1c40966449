/** Parsing a command's options with node:util parseArgs, usage problems as UsageError. */
import { parseArgs } from "node:util";
import { UsageError } from "./cli-command.js";

/** Option definitions as parseArgs takes them. */
export type OptionSpec = Record<string, { type: "string" | "boolean"; short?: string }>;

/** Parsed options and positionals. */
export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  readonly positionals: ReadonlyArray<string>;
}

/** Parses `args` strictly (unknown options are usage errors); `--help` and `--json` are always known. */
export function parseCommandArgs(
  args: ReadonlyArray<string>,
  options: OptionSpec,
  maxPositionals = 0,
): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: { help: { type: "boolean", short: "h" }, json: { type: "boolean" }, ...options },
      allowPositionals: true,
      strict: true,
    });
    if (!values.help && positionals.length > maxPositionals) {
      throw new UsageError(`unexpected argument: ${positionals[maxPositionals]}`);
    }
    return { values: values as ParsedArgs["values"], positionals };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** A string option's value, or undefined. */
export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === "string" ? value : undefined;
}

/** A TCP port option (0 to 65535), or the fallback. */
export function portOption(args: ParsedArgs, name: string, fallback: number): number {
  const raw = stringOption(args, name);
  if (raw === undefined) return fallback;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65_535) throw new UsageError(`--${name} must be a port number (0-65535)`);
  return port;
}
