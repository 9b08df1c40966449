/**
 * Which node serves which network: `--chain NETWORK=URL` (repeatable) and `OPENKYT_CHAINS`
 * ("ETH=https://...,TRX=https://..."), a flag replacing the variable's entry for its network;
 * and how a node's URL is shown: without the credentials URLs often carry (user and password,
 * an API key in the path or the query), so no log or message ever holds them.
 */
import { isNetworkCode } from "@openkyt/core";
import { UsageError } from "./cli-command.js";

/** A node for one network. */
export interface ChainEndpoint {
  readonly network: string;
  /** The URL as given (credentials included): passed to the client, never printed. */
  readonly url: string;
}

/** One `NETWORK=URL`, checked; `from` names where it came from in the error. */
function parseEntry(entry: string, from: string): ChainEndpoint {
  const at = entry.indexOf("=");
  const network = (at < 0 ? entry : entry.slice(0, at)).trim().toUpperCase();
  const url = at < 0 ? "" : entry.slice(at + 1).trim();
  if (at < 0 || url === "")
    throw new UsageError(`${from} takes NETWORK=URL (for example ETH=http://127.0.0.1:8545)`);
  if (!isNetworkCode(network)) throw new UsageError(`${from}: unknown network ${JSON.stringify(network)}`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`${from}: the URL of ${network} is not a URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new UsageError(`${from}: the URL of ${network} must be http:// or https://`);
  }
  return { network, url };
}

/** The endpoints of `--chain` flags and `OPENKYT_CHAINS`, one per network, flags winning. */
export function chainEndpoints(
  flags: ReadonlyArray<string>,
  env: string | undefined,
): ReadonlyArray<ChainEndpoint> {
  const byNetwork = new Map<string, ChainEndpoint>();
  const fromEnv = (env ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "");
  for (const entry of fromEnv) {
    const endpoint = parseEntry(entry, "OPENKYT_CHAINS");
    if (byNetwork.has(endpoint.network))
      throw new UsageError(`OPENKYT_CHAINS names ${endpoint.network} twice`);
    byNetwork.set(endpoint.network, endpoint);
  }
  const flagged = new Set<string>();
  for (const entry of flags) {
    const endpoint = parseEntry(entry, "--chain");
    if (flagged.has(endpoint.network)) throw new UsageError(`--chain names ${endpoint.network} twice`);
    flagged.add(endpoint.network);
    byNetwork.set(endpoint.network, endpoint);
  }
  return [...byNetwork.values()];
}

/**
 * A node URL as it may be shown: scheme, host and port; a user or password becomes `***@`, a
 * path (where providers put API keys) `/***`, a query `?***`. Anything unparseable is hidden whole.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "(a URL)";
  }
  const auth = parsed.username || parsed.password ? "***@" : "";
  const path = parsed.pathname !== "/" && parsed.pathname !== "" ? "/***" : "";
  const query = parsed.search ? "?***" : "";
  return `${parsed.protocol}//${auth}${parsed.host}${path}${query}`;
}
