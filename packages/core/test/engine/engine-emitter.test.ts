import { describe, expect, it } from "vitest";
import { createEngineEmitter } from "../../src/engine/engine-emitter.js";

const info = (jobs: number) => ({ lane: "checks" as const, jobs, startedAt: 0, ms: 1 });

describe("the engine's event emitter", () => {
  it("calls listeners in order, once ones once, and off removes by the listener given", () => {
    const e = createEngineEmitter();
    const seen: string[] = [];
    const a = (i: { jobs: number }) => seen.push(`a${i.jobs}`);
    const b = (i: { jobs: number }) => seen.push(`b${i.jobs}`);
    e.on("jobs.batch_finished", a).once("jobs.batch_finished", b);
    expect(e.listenerCount("jobs.batch_finished")).toBe(2);
    expect(e.emit("jobs.batch_finished", info(1))).toBe(true);
    expect(e.emit("jobs.batch_finished", info(2))).toBe(true);
    expect(seen).toEqual(["a1", "b1", "a2"]);
    e.once("jobs.batch_finished", b).off("jobs.batch_finished", b);
    e.off("jobs.batch_finished", a);
    expect(e.emit("jobs.batch_finished", info(3))).toBe(false);
    expect(e.listenerCount("jobs.batch_finished")).toBe(0);
  });

  it("an emit keeps the listeners it started with; a throwing listener throws out of emit", () => {
    const e = createEngineEmitter();
    const seen: number[] = [];
    const late = () => seen.push(2);
    e.on("jobs.batch_finished", () => {
      seen.push(1);
      e.on("jobs.batch_finished", late);
      e.off("jobs.batch_finished", second);
    });
    const second = () => seen.push(3);
    e.on("jobs.batch_finished", second);
    e.emit("jobs.batch_finished", info(1));
    expect(seen).toEqual([1, 3]);
    e.removeAllListeners();
    e.on("alert.created", () => {
      throw new Error("listener failed");
    });
    expect(() => e.emit("alert.created", {} as never)).toThrow("listener failed");
    e.removeAllListeners("alert.created");
    expect(e.emit("alert.created", {} as never)).toBe(false);
  });
});
