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
