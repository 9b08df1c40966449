/**
 * The address a limit counts a client under: an IPv4 address as it is (an IPv4-mapped IPv6
 * address as its IPv4 form), an IPv6 address by its /64 prefix, since one host or customer
 * commonly holds a whole /64 and could otherwise take a new address per connection.
 */
import { isIPv6, type Socket } from "node:net";

function expandIPv6(address: string): string[] | null {
  const [head = "", tail, extra] = address.split("::");
  if (extra !== undefined) return null;
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return null;
  return [...left, ...Array.from({ length: missing }, () => "0"), ...right];
}

/** The key `remote` (a socket's remoteAddress) is limited under; "unknown" when there is none. */
export function limitAddress(remote: string | undefined): string {
  if (remote === undefined || remote === "") return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remote);
  if (mapped) return mapped[1] as string;
  if (!isIPv6(remote)) return remote;
  const groups = expandIPv6(remote.split("%")[0] as string);
  if (groups === null) return remote;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

/** Each socket's limit address, worked out once per connection rather than once per request. */
const socketAddresses = new WeakMap<Socket, string>();

/** {@link limitAddress} of a socket's remote address, remembered for the socket's lifetime. */
export function socketLimitAddress(socket: Socket | undefined | null): string {
  if (!socket) return limitAddress(undefined);
  let address = socketAddresses.get(socket);
  if (address === undefined) {
    address = limitAddress(socket.remoteAddress);
    // A socket not yet (or no longer) connected has no address: not remembered.
    if (socket.remoteAddress !== undefined) socketAddresses.set(socket, address);
  }
  return address;
}
