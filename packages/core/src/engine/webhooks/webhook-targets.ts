/**
 * Which hosts a webhook may be delivered to. A webhook is a request the server makes on an
 * account's behalf, so its target must not be the server itself or its private network (a port
 * scanner, or the cloud metadata service at 169.254.169.254): loopback, private, shared (CGNAT),
 * link-local, unique-local, multicast, unspecified, broadcast, documentation, IPv4-mapped and
 * translated (NAT64, 6to4, Teredo) and other special-purpose ranges are refused.
 *
 * The host is taken from the WHATWG URL parser (`new URL`), which already turns every spelling
 * of an IPv4 address (`127.1`, `2130706433`, `0x7f000001`, `0177.0.0.1`, a trailing dot) into
 * dotted quads and IPv6 into its canonical form, so only canonical addresses reach the table. A
 * name is resolved and every address it resolves to is checked; the sender connects only to
 * addresses checked this way (see @openkyt/runtime-node's sender), once per delivery, so a name that
 * resolves elsewhere later (DNS rebinding) is caught at that delivery.
 *
 * The ranges are matched with ipaddr.js (pure JavaScript, so core imports no `node:` builtin
 * and runs wherever the engine does): exact CIDR matching for both families; the table itself
 * follows the IANA IPv4 and IPv6 special-purpose address registries, so it can be read against
 * them. Only canonical literals count as addresses: dotted-decimal quads (no octal, hex or short
 * forms, which the URL parser has already turned into quads) and IPv6 text.
 */
import ipaddr from "ipaddr.js";
import type {
  HostLookup,
  ResolvedAddress,
  TargetVerdict,
  WebhookTargetPolicy,
} from "../../ports/webhook-transport.js";

/** The generic answer recorded for a refused target: it tells nothing about the network. */
export const TARGET_REFUSED = "target refused by policy";

/** Refused ranges, first match names the reason: [address, prefix, what it is]. */
const REFUSED_V4: ReadonlyArray<readonly [string, number, string]> = [
  ["255.255.255.255", 32, "broadcast"],
  ["0.0.0.0", 8, "unspecified (this network)"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared address space (CGNAT)"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local (cloud metadata)"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "IETF protocol assignments"],
  ["192.0.2.0", 24, "documentation"],
  ["192.31.196.0", 24, "AS112"],
  ["192.52.193.0", 24, "AMT"],
  ["192.88.99.0", 24, "6to4 relay"],
  ["192.168.0.0", 16, "private"],
  ["192.175.48.0", 24, "AS112"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
];
const REFUSED_V6: ReadonlyArray<readonly [string, number, string]> = [
  ["::", 128, "unspecified"],
  ["::1", 128, "loopback"],
  ["::ffff:0:0", 96, "IPv4-mapped"],
  ["::", 96, "IPv4-compatible"],
  ["64:ff9b::", 96, "NAT64"],
  ["64:ff9b:1::", 48, "NAT64 (local use)"],
  ["100::", 64, "discard-only"],
  ["2001::", 32, "Teredo"],
  ["2001::", 23, "IETF protocol assignments"],
  ["2001:db8::", 32, "documentation"],
  ["2002::", 16, "6to4"],
  ["3fff::", 20, "documentation"],
  ["5f00::", 16, "segment routing (SRv6)"],
  ["fc00::", 7, "unique-local"],
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "site-local"],
  ["ff00::", 8, "multicast"],
];

/** The rows parsed once, in order, so that the first match can name its reason. */
const RULES = [...REFUSED_V4, ...REFUSED_V6].map(([address, prefix, what]) => ({
  range: [ipaddr.parse(address), prefix] as [ipaddr.IPv4 | ipaddr.IPv6, number],
  what,
}));

/** The family of a canonical address literal (4 or 6), or 0 when the text is not one. */
function familyOf(text: string): 0 | 4 | 6 {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return 4;
  return text.includes(":") && ipaddr.IPv6.isValid(text) ? 6 : 0;
}

/** `[::1]` as `::1`; other hosts unchanged. */
function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** True for `localhost` and names under it (RFC 6761: they never leave the machine). */
function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.+$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

/**
 * The range a literal address lies in when it is refused (for example "loopback"), or null for
 * a globally routable unicast address. A string that is not an address is refused as such.
 */
export function refusedAddressRange(address: string): string | null {
  const bare = unbracket(address);
  if (familyOf(bare) === 0) return "not an IP address";
  const parsed = ipaddr.parse(bare);
  for (const r of RULES) if (r.range[0].kind() === parsed.kind() && parsed.match(r.range)) return r.what;
  return null;
}

/** Settings of {@link createWebhookTargetPolicy}. */
export interface WebhookTargetPolicyOptions {
  /** Allow every address (tests and internal deployments); default false. */
  readonly allowPrivate?: boolean;
  /** Addresses allowed although their range is refused (exact addresses); default none. */
  readonly allowedAddresses?: ReadonlyArray<string>;
  /** Resolves names; without one, a name never resolves (only literal addresses are allowed). */
  readonly lookup?: HostLookup | null;
  /** Longest a resolution may take before the name counts as unresolved; default 5 s. */
  readonly lookupTimeoutMs?: number;
}

/** `lookup(name)`, rejected when it takes longer than `ms`. */
async function boundedLookup(lookup: HostLookup, name: string, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`resolving ${name} took longer than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([lookup(name), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Creates the target policy. */
export function createWebhookTargetPolicy(options: WebhookTargetPolicyOptions = {}): WebhookTargetPolicy {
  const allowPrivate = options.allowPrivate ?? false;
  const lookup = options.lookup ?? null;
  const lookupTimeoutMs = options.lookupTimeoutMs ?? 5_000;
  const allowed = new Set((options.allowedAddresses ?? []).map((a) => unbracket(a).toLowerCase()));
  const refusedAddress = (address: string): string | null => {
    if (allowPrivate) return null;
    const bare = unbracket(address);
    if (allowed.has(bare.toLowerCase())) return null;
    return refusedAddressRange(bare);
  };
  return Object.freeze({
    allowPrivate,
    refusedAddress,
    async checkHost(hostname: string): Promise<TargetVerdict> {
      const bare = unbracket(hostname);
      const family = familyOf(bare);
      if (family !== 0) {
        const reason = refusedAddress(bare);
        return reason === null
          ? { kind: "allowed", addresses: [{ address: bare, family: family === 6 ? 6 : 4 }] }
          : { kind: "refused", reason };
      }
      if (!allowPrivate && isLocalhostName(bare)) return { kind: "refused", reason: "loopback (localhost)" };
      if (lookup === null)
        return { kind: "unresolved", error: new Error(`no host lookup is configured to resolve ${bare}`) };
      let addresses: ReadonlyArray<ResolvedAddress>;
      try {
        addresses = await boundedLookup(lookup, bare, lookupTimeoutMs);
      } catch (error) {
        return { kind: "unresolved", error };
      }
      if (addresses.length === 0) return { kind: "unresolved", error: new Error(`${bare} has no address`) };
      for (const a of addresses) {
        const reason = refusedAddress(a.address);
        if (reason !== null) return { kind: "refused", reason };
      }
      return { kind: "allowed", addresses };
    },
  });
}
