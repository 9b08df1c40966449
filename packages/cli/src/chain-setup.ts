/**
 * The live chain sources of `serve` and `worker`: `--chain NETWORK=URL` (repeatable) and
 * `OPENKYT_CHAINS` name a node per network; each is checked at start (its chain must be the
 * network's, else the process refuses to start, saying which); a lookup on a network with a node
 * asks the node, any other network binds against the ledger as before.
 */
import {
  type ChainSource,
  type Logger,
  routedChainSource,
  type Store,
  storeChainSource,
  storeTokenCatalog,
} from "@openkyt/core";
import { chainEndpoints, redactUrl } from "./chain-endpoints.js";
import { openChainSources } from "./chain-families.js";
import { type ParsedArgs, stringOption, stringsOption, wholeOption } from "./cli-args.js";

/** The options of {@link liveChainSource}, to spread into a command's options. */
export const CHAIN_OPTIONS = {
  chain: { type: "string", multiple: true },
  confirmations: { type: "string" },
  "bind-poll-ms": { type: "string" },
} as const;

/** The usage lines of {@link CHAIN_OPTIONS}. */
export const CHAIN_USAGE = `  --chain       NETWORK=URL: bind transfers of NETWORK by asking its node (EVM JSON-RPC; BTC, LTC:
                Bitcoin Core JSON-RPC with -txindex), checked
                at start (a node of another chain refuses to start); repeatable; also
                $OPENKYT_CHAINS="ETH=URL,...". Other networks bind against the ledger
  --confirmations  confirmations a transaction needs before a live node's answer binds it; default 1
  --bind-poll-ms  how often a registered hash that is not found yet (not mined, or its block not
                in the ledger yet: see openkyt follow) is asked again; default 15000`;

/** The binding settings of `--bind-poll-ms`, or none. */
export function bindingOption(args: ParsedArgs): { readonly binding?: { readonly pollMs: number } } {
  if (stringOption(args, "bind-poll-ms") === undefined) return {};
  return { binding: { pollMs: wholeOption(args, "bind-poll-ms", 15_000, 10) } };
}

/** The nodes named, checked; null when none is. */
export async function liveChainSource(
  args: ParsedArgs,
  env: Readonly<Record<string, string | undefined>>,
  store: Store,
  logger: Logger,
  fallback: ChainSource | undefined,
): Promise<{ readonly chainSource: ChainSource; readonly described: string } | null> {
  const endpoints = chainEndpoints(stringsOption(args, "chain"), env.OPENKYT_CHAINS);
  if (endpoints.length === 0) return null;
  const confirmations = wholeOption(args, "confirmations", 1, 1);
  const routes = await openChainSources(endpoints, {
    confirmations,
    logger,
    tokens: storeTokenCatalog(store),
  });
  return {
    chainSource: routedChainSource(routes, fallback ?? storeChainSource(store)),
    described: endpoints.map((e) => `${e.network} at ${redactUrl(e.url)}`).join(", "),
  };
}
