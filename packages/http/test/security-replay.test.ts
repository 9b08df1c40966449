/**
 * Replay after eviction (issue 18, item 1): another account floods the replay guard, then a
 * request captured from account "acme" is sent again inside its window. The old guard (one LRU
 * for everyone) had forgotten it and ran it twice; the guard now never drops a live entry: the
 * replay is refused, and a guard with no room answers 503 REPLAY_GUARD_FULL (nothing runs).
 * Small bounds keep the flood short; the bounds are options, the behaviour is the default one.
 */
import type { Clock } from "@openkyt/core";
import { W } from "@openkyt/testkit";
import { afterEach, describe, expect, it } from "vitest";
import type { ReplayGuardSettings } from "../src/index.js";
import { createSecurityWorld, type HandRequest, type SecurityWorld } from "./security-fixture.js";

const CHECK = "/v1/manual-checks/check-address/";
const T = 1_800_000_000_000;
const WINDOW = 300_000;

/** A clock the test moves. */
function manualClock(start: number): Clock & { set(at: number): void } {
  let now = start;
  return { now: () => now, set: (at) => (now = at) };
}

/** Keys of the flooding account ("other"), provisioned in the world. */
async function floodKeys(world: SecurityWorld, count: number) {
  const keys: Array<{ keyId: string; secret: string }> = [];
  for (let i = 0; i < count; i++) {
    const key = {
      keyId: `flood-key-${String(i).padStart(4, "0")}`,
      secret: `flood-secret-${i}-0123456789abcdef`,
    };
    await world.h.engine.apiKeys.provision(key.keyId, key.secret, "other");
    keys.push(key);
  }
  return keys;
}

/** A signed address check; `n` makes the body (and so the signature) differ. */
function check(n: number, at: number, key?: HandRequest["key"]): HandRequest {
  const address = `0x${n.toString(16).padStart(40, "0")}`;
  return {
    method: "POST",
    target: CHECK,
    body: JSON.stringify({ network: "ETH", address: n === 0 ? W.sanctioned : address }),
    timestamp: String(at),
    ...(key ? { key } : {}),
  };
}

describe("replay guard under a flood from another account", () => {
  let world: SecurityWorld | null = null;
  afterEach(async () => {
    await world?.close();
    world = null;
  });

  async function open(replay: ReplayGuardSettings, clock: Clock) {
    world = await createSecurityWorld({ clock, auth: { windowMs: WINDOW, replay } });
    return world;
  }

  it("keeps the captured request refused while its window lasts, and answers 503 when full", async () => {
    const clock = manualClock(T);
    const w = await open({ guard: "memory", perKey: 5, total: 12 }, clock);
    const captured = check(0, T);
    expect((await w.send(captured)).status).toBe(200);
    const checksBefore = (await w.h.engine.forAccount("acme").listManualChecks({})).total_items;

    // "other" floods from three keys: each key is stopped at its own bound (5), then the guard
    // as a whole (12 entries: acme's one and 11 of theirs) is full.
    const keys = await floodKeys(w, 3);
    const statuses: number[] = [];
    let n = 1;
    for (const key of keys) {
      for (let i = 0; i < 6; i++) {
        clock.set(T + n * 10);
        statuses.push((await w.send(check(n, T + n * 10, key))).status);
        n += 1;
      }
    }
    expect(statuses).toEqual([
      ...[200, 200, 200, 200, 200, 503],
      ...[200, 200, 200, 200, 200, 503],
      ...[200, 503, 503, 503, 503, 503],
    ]);

    // Inside the window the capture is still a replay, however full the guard is.
    clock.set(T + WINDOW - 1);
    const replayed = await w.send(captured);
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toMatchObject({
      code: "UNAUTHORIZED",
      detail: expect.stringMatching(/replay/),
    });
    // A new request of acme is not run unrecorded: 503 with Retry-After, nothing created.
    const full = await w.send(check(999, T + WINDOW - 1));
    expect(full.status).toBe(503);
    expect(await full.json()).toMatchObject({ code: "REPLAY_GUARD_FULL" });
    expect(Number(full.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await w.h.engine.forAccount("acme").listManualChecks({})).total_items).toBe(checksBefore);
    // GET requests are not recorded and still answer.
    expect(
      (await w.send({ method: "GET", target: "/v1/manual-checks/", timestamp: String(T + WINDOW - 1) }))
        .status,
    ).toBe(200);

    // After the window the capture is refused by its timestamp; the flood's entries expired,
    // so there is room again.
    clock.set(T + WINDOW + 1_000);
    expect((await w.send(captured)).status).toBe(401);
    expect((await w.send(check(999, T + WINDOW + 1_000))).status).toBe(200);
  });

  it("the store's guard (forced on SQLite) refuses the replay after any number of other requests", async () => {
    const clock = manualClock(T);
    const w = await open({ guard: "store" }, clock);
    const captured = check(0, T);
    expect((await w.send(captured)).status).toBe(200);
    const [key] = await floodKeys(w, 1);
    for (let n = 1; n <= 150; n++) {
      clock.set(T + n);
      expect((await w.send(check(n, T + n, key))).status).toBe(200);
    }
    clock.set(T + WINDOW);
    expect((await w.send(captured)).status).toBe(401);
    // Concurrent copies of one new request: exactly one runs.
    const copy = check(5_000, T + WINDOW);
    const answers = await Promise.all(Array.from({ length: 6 }, () => w.send(copy)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401, 401, 401, 401]);
  });
});
