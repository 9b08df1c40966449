import { expect, it } from "vitest";
import { runCrash } from "../../../bench/src/crash/crash-driver.js";
import { dropSchema, openPostgresDatabase } from "../src/index.js";
import { withTestPostgres } from "./pg-test-suite.js";

// A smaller run of bench/src/crash/crash-run.ts: real worker processes (node + tsx, running
// bench/src/crash/crash-worker.ts) on one Postgres schema, SIGKILLed at random moments.
await withTestPostgres("crash test on Postgres", ({ url }) => {
  it("loses, duplicates and gets wrong nothing while workers are SIGKILLed and restarted", {
    timeout: 180_000,
  }, async () => {
    const schema = `kyt_crash_${process.pid}_${Date.now().toString(36)}`;
    try {
      const report = await runCrash({
        db: url,
        schema,
        transfers: 2_000,
        workers: 2,
        kills: 4,
        killDelayMs: { min: 300, max: 1_500 },
        timeoutMs: 150_000,
      });
      expect(report.settled, report.stderrTail.join("\n")).toBe(true);
      expect(report).toMatchObject({
        registered: 2_000,
        errored: 0,
        lost: 0,
        pending: 0,
        wrong: 0,
        duplicatedTransfers: 0,
        duplicatedAlerts: 0,
        duplicatedRisks: 0,
        jobsLeft: 0,
      });
      expect(report.bound + report.notFound).toBe(2_000);
      expect(report.notFound).toBe(100);
      // SIGTERM at the end: every worker finished its jobs in hand and exited 0.
      expect(report.stopCodes).toEqual([0, 0]);
    } finally {
      const admin = openPostgresDatabase({ connectionString: url, schema });
      await dropSchema(admin, schema);
      await admin.destroy();
    }
  });
});
