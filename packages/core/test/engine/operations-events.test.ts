/**
 * The events operations are watched by (docs/operations.md): each claimed job is settled once,
 * every batch finishes, chain lookups report their outcome, a failing chain source reports
 * `error`, and a failed delivery that pauses a webhook says so.
 */
import { describe, expect, it } from "vitest";
import { loadWorld, TX, W } from "../../../testkit/src/engine-world.js";
import { createEngine } from "../../src/engine/create-engine.js";
import type { EngineEvents } from "../../src/engine/engine-events.js";
import { createMemoryStore } from "../../src/store/index.js";

type Heard = Array<[keyof EngineEvents, unknown]>;

function listen(engine: ReturnType<typeof createEngine>, names: ReadonlyArray<keyof EngineEvents>): Heard {
  const heard: Heard = [];
  for (const name of names) engine.events.on(name, ((info: unknown) => heard.push([name, info])) as never);
  return heard;
}

describe("operations events", () => {
  it("settles every claimed job once and reports each lookup of the chain source", async () => {
    const engine = createEngine({ store: createMemoryStore() });
    await loadWorld(engine);
    const heard = listen(engine, ["jobs.claimed", "job.settled", "jobs.batch_finished", "chain.looked_up"]);
    const kyt = engine.forAccount("acme");
    await kyt.registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.deposit,
      output_address: W.client,
    });
    await kyt.registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: `0x${"ee".repeat(32)}`,
      output_address: W.client,
    });
    await engine.drain();

    const claimed = heard
      .filter(([n]) => n === "jobs.claimed")
      .flatMap(([, i]) => (i as { jobs: Array<{ id: string }> }).jobs);
    const settled = heard
      .filter(([n]) => n === "job.settled")
      .map(([, i]) => i as { lane: string; job: { id: string; kind: string }; outcome: string });
    expect(settled.map((s) => s.job.id).sort()).toEqual(claimed.map((j) => j.id).sort());
    // The known hash is bound and checked in one pass; the unknown one waits for a later lookup.
    expect(settled.map((s) => `${s.lane} ${s.job.kind} ${s.outcome}`).sort()).toEqual([
      "checks transfer.bind done",
      "checks transfer.bind later",
    ]);
    const batches = heard
      .filter(([n]) => n === "jobs.batch_finished")
      .map(([, i]) => i as { jobs: number; ms: number });
    expect(batches.reduce((sum, b) => sum + b.jobs, 0)).toBe(claimed.length);
    expect(batches.every((b) => b.ms >= 0)).toBe(true);
    const lookups = heard
      .filter(([n]) => n === "chain.looked_up")
      .map(([, i]) => (i as { outcome: string }).outcome);
    expect(lookups.sort()).toEqual(["found", "not_found"]);
  });

  it("reports a chain source that throws as an `error` lookup, and the job as retried", async () => {
    const engine = createEngine({
      store: createMemoryStore(),
      chainSource: { lookup: () => Promise.reject(new Error("node down")) },
      jobs: { backoffBaseMs: 60_000 },
    });
    const heard = listen(engine, ["job.settled", "chain.looked_up"]);
    await engine.forAccount("acme").registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.deposit,
      output_address: W.client,
    });
    await engine.drain();
    expect(
      heard.map(([n, i]) =>
        n === "chain.looked_up" ? (i as { outcome: string }).outcome : (i as { outcome: string }).outcome,
      ),
    ).toEqual(["error", "retried"]);
  });

  it("reports each delivery, and the failure that pauses the webhook", async () => {
    const statuses = [200, 500, 500];
    const engine = createEngine({
      store: createMemoryStore(),
      webhooks: {
        allowPrivateTargets: true,
        pauseAfterFailures: 2,
        backoffBaseMs: 60_000,
        sender: { post: async () => ({ kind: "answered", status: statuses.shift() ?? 500 }) },
      },
    });
    await loadWorld(engine);
    const heard = listen(engine, ["webhook.delivered"]);
    const kyt = engine.forAccount("acme");
    await kyt.webhooks.create({ url: "http://127.0.0.1:9/hook", events: ["manual_check.completed"] });
    for (let i = 0; i < 3; i += 1) {
      await kyt.checkAddress({ network: "ETH", address: W.mixer });
      await engine.drain();
    }
    expect(
      heard.map(([, i]) => {
        const { ok, paused } = i as { ok: boolean; paused: boolean };
        return { ok, paused };
      }),
    ).toEqual([
      { ok: true, paused: false },
      { ok: false, paused: false },
      { ok: false, paused: true },
    ]);
  });
});
