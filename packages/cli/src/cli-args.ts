/** Parsing a command's options with node:util parseArgs, usage problems as UsageError. */
import { parseArgs } from "node:util";
import { UsageError } from "./cli-command.js";

/** Option definitions as parseArgs takes them. */
export type OptionSpec = Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }>;

/** Parsed options and positionals. */
export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | ReadonlyArray<string> | undefined>>;
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
    throw new UsageError(parseProblem(error, options));
  }
}

/** The option a parseArgs message quotes (`'--db <value>'` gives `--db`), or null. */
function quotedOption(message: string): string | null {
  const quoted = /'(-{1,2}[^'\s=<]+)/.exec(message);
  return quoted?.[1] ?? null;
}

/** The known option closest to `given` by edit distance, when it is a likely typo. */
function closest(given: string, known: ReadonlyArray<string>): string | null {
  const distance = (a: string, b: string) => {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i += 1) {
      const next = [i];
      for (let j = 1; j <= b.length; j += 1) {
        next[j] = Math.min(
          (row[j] ?? 0) + 1,
          (next[j - 1] ?? 0) + 1,
          (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
        );
      }
      row = next;
    }
    return row[b.length] ?? Number.POSITIVE_INFINITY;
  };
  let best: string | null = null;
  let bestDistance = Math.max(2, Math.floor(given.length / 3)) + 1;
  for (const name of known) {
    const d = distance(given, name);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return best;
}

/**
 * Our own words for what node:util's parser refused (its text talks about positionals after
 * `--`, which is no help here): the option it names, and what is wrong with it.
 */
function parseProblem(error: unknown, options: OptionSpec): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const option = quotedOption(message);
  if (option === null) return message.split("\n")[0] ?? message;
  const name = option.replace(/^-+/, "");
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const known = ["help", "json", ...Object.keys(options)];
    const guess = option.startsWith("--") ? closest(name, known) : null;
    return `unknown option ${option}${guess === null ? "" : ` (did you mean --${guess}?)`}`;
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    if (/does not take an argument/.test(message)) return `${option} takes no value`;
    if (/ambiguous/.test(message)) {
      return `${option} needs a value, and the next argument is an option (write ${option}=VALUE if the value starts with -)`;
    }
    return `${option} needs a value`;
  }
  return message.split("\n")[0] ?? message;
}

/** A string option's value, or undefined. */
export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === "string" ? value : undefined;
}

/** Every value of a repeatable string option (`multiple: true`), in order; empty when not given. */
export function stringsOption(args: ParsedArgs, name: string): ReadonlyArray<string> {
  const value = args.values[name];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return typeof value === "string" ? [value] : [];
}

/** A whole number option (at least `min`), or the fallback. */
export function wholeOption(args: ParsedArgs, name: string, fallback: number, min = 0): number {
  const raw = stringOption(args, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)) || Number(raw) < min) {
    throw new UsageError(`--${name} must be a whole number >= ${min}, got ${raw}`);
  }
  return Number(raw);
}

/** A TCP port option (0 to 65535), or the fallback. */
export function portOption(args: ParsedArgs, name: string, fallback: number): number {
  const raw = stringOption(args, name);
  if (raw === undefined) return fallback;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65_535) throw new UsageError(`--${name} must be a port number (0-65535)`);
  return port;
}

/** Where a process serves `/metrics`, `/readyz` and `/healthz` on their own (`--metrics-port`). */
export interface MetricsAddress {
  readonly host: string;
  readonly port: number;
}

/** The options of {@link metricsAddressOption}, to spread into a command's options. */
export const METRICS_OPTIONS = {
  "metrics-host": { type: "string" },
  "metrics-port": { type: "string" },
} as const;

/**
 * The separate metrics address from `--metrics-port` (0: any free port) and `--metrics-host`
 * (default 127.0.0.1), or null without `--metrics-port`; a host without a port is a usage error.
 */
export function metricsAddressOption(args: ParsedArgs): MetricsAddress | null {
  const host = stringOption(args, "metrics-host");
  if (stringOption(args, "metrics-port") === undefined) {
    if (host !== undefined) throw new UsageError("--metrics-host needs --metrics-port");
    return null;
  }
  return { host: host ?? "127.0.0.1", port: portOption(args, "metrics-port", 0) };
}

/** A whole number of seconds option (0 or more, at most a day), or the fallback. */
export function secondsOption(args: ParsedArgs, name: string, fallback: number): number {
  const raw = stringOption(args, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > 86_400) {
    throw new UsageError(`--${name} must be a whole number of seconds (0-86400), got ${raw}`);
  }
  return Number(raw);
}
