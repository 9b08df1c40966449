import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCrash } from "../../../bench/src/crash/crash-driver.js";

// The crash test on a SQLite file: one worker process at a time (SIGKILLed and restarted),
// while this process registers transfers into the same file. Transactions begin IMMEDIATE, so
// the two processes wait for each other's writes instead of failing.
it("a SQLite file loses, duplicates and gets wrong nothing while its worker is SIGKILLed", {
  timeout: 180_000,
}, async () => {
  const directory = await mkdtemp(join(tmpdir(), "openkyt-crash-"));
  try {
    const report = await runCrash({
      db: join(directory, "crash.db"),
      transfers: 1_000,
      workers: 1,
      kills: 3,
      killDelayMs: { min: 300, max: 1_500 },
      timeoutMs: 150_000,
    });
    expect(report.settled, report.stderrTail.join("\n")).toBe(true);
    expect(report).toMatchObject({
      registered: 1_000,
      errored: 0,
      lost: 0,
      pending: 0,
      wrong: 0,
      duplicatedTransfers: 0,
      duplicatedAlerts: 0,
      duplicatedRisks: 0,
      jobsLeft: 0,
    });
    expect(report.notFound).toBe(50);
    expect(report.stopCodes).toEqual([0]);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
});
