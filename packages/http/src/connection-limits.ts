/**
 * Caps on open connections: a total and one per source address (an IPv6 /64, see
 * remote-address.ts). A connection past a cap is reset at once, before any byte of it is read,
 * so a flood of idle connections cannot take the file descriptors a signed request needs. The
 * refusals are counted and logged at most once per interval, never one line per socket.
 */
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import type { Socket } from "node:net";
import { limitAddress } from "./remote-address.js";

/** The caps; 0 disables one. */
export interface ConnectionLimits {
  /** Most open connections in all. */
  readonly maxConnections: number;
  /** Most open connections from one source address. */
  readonly maxConnectionsPerAddress: number;
}

/** Where refusals are reported: a pino logger fits. */
export interface ConnectionLog {
  warn(fields: object, message: string): void;
}

/** File descriptors kept free of connections for the store, logs and the rest of the process. */
const FD_RESERVE = 256;

/** The soft limit of open files of this process (Linux), or null when it cannot be read. */
export function openFileLimit(): number | null {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync("/proc/self/limits", "latin1"));
    if (!line || line[1] === "unlimited") return null;
    return Number(line[1]);
  } catch {
    return null;
  }
}

/**
 * The default total cap: 1,000, or fewer when the open-file limit is low (the limit less 256,
 * at least 32), so the caps bite before the process runs out of descriptors.
 */
export function defaultMaxConnections(fdLimit = openFileLimit()): number {
  return fdLimit === null ? 1_000 : Math.max(32, Math.min(1_000, fdLimit - FD_RESERVE));
}

/** Default cap per source address. */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 100;

/** Counts of refused connections, as the log line reports them. */
export interface RefusedConnections {
  /** Refused past the total cap. */
  total: number;
  /** Refused past the per-address cap. */
  perAddress: number;
  /** A few of the addresses refused (at most 5). */
  addresses: string[];
}

/** What {@link limitConnections} installed. */
export interface ConnectionLimiter {
  /** Open connections now, in all and for `address` (a socket's remoteAddress). */
  open(address?: string): number;
  /** Refusals since the server started. */
  refused(): { readonly total: number; readonly perAddress: number };
  /** Writes the pending refusal counts (if any) and stops the log timer. */
  stop(): void;
}

/** Installs the caps on `server`; refusals are logged to `log` at most once per `logIntervalMs`. */
export function limitConnections(
  server: Server,
  limits: ConnectionLimits,
  log: ConnectionLog | undefined,
  logIntervalMs = 10_000,
): ConnectionLimiter {
  const perAddress = new Map<string, number>();
  let open = 0;
  const totals = { total: 0, perAddress: 0 };
  let pending: RefusedConnections = { total: 0, perAddress: 0, addresses: [] };
  let timer: ReturnType<typeof setTimeout> | null = null;

  function flush(): void {
    if (pending.total + pending.perAddress === 0) return;
    log?.warn(
      {
        refusedTotal: pending.total,
        refusedPerAddress: pending.perAddress,
        addresses: pending.addresses,
        limits,
      },
      "connections refused past the connection caps",
    );
    pending = { total: 0, perAddress: 0, addresses: [] };
  }
  function count(kind: "total" | "perAddress", address: string): void {
    totals[kind] += 1;
    pending[kind] += 1;
    if (pending.addresses.length < 5 && !pending.addresses.includes(address)) pending.addresses.push(address);
    if (timer !== null) return;
    flush();
    const tick = () => {
      if (pending.total + pending.perAddress === 0) {
        timer = null;
        return;
      }
      flush();
      timer = setTimeout(tick, logIntervalMs);
      timer.unref();
    };
    timer = setTimeout(tick, logIntervalMs);
    timer.unref();
  }
  function refuse(socket: Socket, kind: "total" | "perAddress", address: string): void {
    count(kind, address);
    // A reset frees the descriptor at once (no lingering close) and tells the client plainly.
    if (typeof socket.resetAndDestroy === "function") socket.resetAndDestroy();
    else socket.destroy();
  }

  // Before node's own listener: a refused socket is destroyed before its parser reads a byte.
  server.prependListener("connection", (socket: Socket) => {
    const address = limitAddress(socket.remoteAddress);
    if (limits.maxConnections > 0 && open >= limits.maxConnections) return refuse(socket, "total", address);
    const mine = perAddress.get(address) ?? 0;
    if (limits.maxConnectionsPerAddress > 0 && mine >= limits.maxConnectionsPerAddress) {
      return refuse(socket, "perAddress", address);
    }
    open += 1;
    perAddress.set(address, mine + 1);
    socket.once("close", () => {
      open -= 1;
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left <= 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
  });

  return {
    open: (address) => (address === undefined ? open : (perAddress.get(limitAddress(address)) ?? 0)),
    refused: () => ({ ...totals }),
    stop() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      flush();
    },
  };
}
