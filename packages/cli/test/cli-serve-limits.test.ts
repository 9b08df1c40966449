/**
 * `openkyt serve` connection caps and failed-authentication budget, from flags and from the
 * environment: a serve process with a per-address cap of 3 resets the fourth connection, one
 * with a failure budget of 1/s answers 429 after two bad signatures, and bad values are usage
 * errors naming the flag or variable.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exited, firstLine, runInProcess, start } from "./cli-process.js";

async function openkyt(env: Record<string, string>, ...argv: string[]) {
  return runInProcess(argv, env);
}

/** Opens a connection and resolves with whether it is still open 300 ms later. */
function stillOpen(port: number): Promise<{ socket: Socket; open: boolean }> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    let closed = false;
    socket.on("error", () => undefined);
    socket.on("close", () => {
      closed = true;
    });
    setTimeout(() => resolve({ socket, open: !closed }), 300);
  });
}

describe("openkyt serve: connection caps and the failure budget", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "openkyt-limits-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("--max-connections-per-address 3 resets the fourth connection; OPENKYT_FAILED_AUTH_LIMIT=1 gives 429 after 2 failures", {
    timeout: 60_000,
  }, async () => {
    const server = start(
      [
        "serve",
        "--port",
        "0",
        "--db",
        join(dir, "kyt.db"),
        "--no-workers",
        "--max-connections-per-address",
        "3",
        "--json",
      ],
      { OPENKYT_FAILED_AUTH_LIMIT: "1" },
    );
    try {
      const { url } = JSON.parse(await firstLine(server)) as { url: string };
      const port = Number(new URL(url).port);
      const opened = [];
      for (let i = 0; i < 4; i += 1) opened.push(await stillOpen(port));
      expect(opened.map((o) => o.open)).toEqual([true, true, true, false]);
      for (const o of opened) o.socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const bad = () =>
        fetch(`${url}/v1/transfers/`, {
          headers: {
            "API-KEY-ID": "no-such-key",
            "API-TIMESTAMP": String(Date.now()),
            "API-SIGNATURE": Buffer.alloc(32).toString("base64"),
          },
        }).then((r) => r.status);
      const statuses = [];
      for (let i = 0; i < 5; i += 1) statuses.push(await bad());
      expect(statuses.slice(0, 2)).toEqual([401, 401]);
      expect(statuses, "past 2 failures at 1/s (more than 1 s apart on a slow machine: still 401)").toContain(
        429,
      );
      server.kill("SIGTERM");
      expect(await exited(server)).toBe(0);
    } finally {
      server.kill("SIGKILL");
    }
  });

  it("bad values are usage errors naming the flag or the variable", async () => {
    const flag = await openkyt({}, "serve", "--max-connections", "many", "--db", join(dir, "x.db"));
    expect(flag.code).not.toBe(0);
    expect(flag.err).toMatch(/--max-connections must be a whole number/);
    const env = await openkyt(
      { OPENKYT_MAX_CONNECTIONS_PER_ADDRESS: "-1" },
      "serve",
      "--db",
      join(dir, "x.db"),
    );
    expect(env.code).not.toBe(0);
    expect(env.err).toMatch(/OPENKYT_MAX_CONNECTIONS_PER_ADDRESS must be a whole number/);
  });
});
