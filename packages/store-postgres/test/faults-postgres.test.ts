import { createHarness, type Harness, TX, W } from "@openkyt/testkit";
import pg from "pg";
import { expect, it } from "vitest";
import { withDefaultUser } from "../src/index.js";
import { withTestPostgres } from "./pg-test-suite.js";

// Connections of the engine's pool are killed with pg_terminate_backend: one inside the bind
// job's transaction (it waits on a row lock the test holds, so the kill lands mid-transaction),
// and every idle one between jobs. The job is retried, then ends in error with the reason; the
// engine (and this process) keeps serving.
await withTestPostgres("Postgres connection faults", ({ url, stores }) => {
  it("a connection killed mid-transaction: retried, then error with the reason; idle connections killed: still serving", {
    timeout: 180_000,
  }, async () => {
    const app = `openkyt-faults-${process.pid}`;
    const admin = new pg.Client({ connectionString: withDefaultUser(url) });
    await admin.connect();
    let h: Harness | null = null;
    try {
      h = await createHarness(
        {
          name: "postgres",
          createStore: () => stores.createStore({ max: 4, applicationName: app }),
          destroyStore: (store) => stores.destroyStore(store),
        },
        { jobs: { maxAttempts: 2, backoffBaseMs: 1_000, backoffMaxMs: 10_000 } },
      );
      const harness = h;
      const schema = stores.schemaOf(harness.store);
      const failures: Array<{ reason: string; final: boolean }> = [];
      harness.engine.events.on("job.failed", (f) => failures.push(f));

      /** Runs due jobs while a row lock makes the bind transaction wait, and kills its connection. */
      async function drainKillingTheBind(transferId: string): Promise<void> {
        await admin.query("begin");
        await admin.query(`select id from "${schema}".transfers where id = $1 for update`, [transferId]);
        const draining = harness.engine.drain();
        let killed = 0;
        for (let i = 0; i < 1_200 && killed === 0; i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          const result = await admin.query(
            `select pg_terminate_backend(pid) as done from pg_stat_activity
             where application_name = $1 and wait_event_type = 'Lock'`,
            [app],
          );
          killed = result.rows.filter((r: { done: boolean }) => r.done).length;
        }
        await admin.query("rollback");
        expect(killed, "a bind transaction waited on the lock and was killed").toBe(1);
        await draining;
        harness.clock.advance(10_000);
      }

      const register = async (txHash: string) =>
        (
          await harness.acme.registerTransfer({
            direction: "incoming",
            network: "ETH",
            tx_hash: txHash,
            output_address: W.client,
          })
        ).transfer.id;

      // Killed on both attempts: error with the reason, nothing of the chain written.
      const doomed = await register(TX.deposit);
      await drainKillingTheBind(doomed);
      await drainKillingTheBind(doomed);
      expect(failures.map((f) => f.final)).toEqual([false, true]);
      expect(failures[0]?.reason).toMatch(/terminat/i);
      const stored = await harness.store.getTransfer(doomed);
      expect(stored).toMatchObject({ txStatus: "error", occurredAt: null, amount: null });
      expect(stored?.lastError).toMatch(/terminat/i);

      // Killed once: the retry binds it.
      const retried = await register(TX.mixerDeposit);
      await drainKillingTheBind(retried);
      await harness.engine.drain();
      expect(await harness.acme.getTransfer(retried)).toMatchObject({ tx_status: "bound", amount: 1 });

      // Every idle connection of the pool killed at once: the pool replaces them.
      const idle = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1",
        [app],
      );
      expect(idle.rowCount).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const after = await register(TX.exchangeDeposit);
      await harness.engine.drain();
      expect(await harness.acme.getTransfer(after)).toMatchObject({ tx_status: "bound", amount: 2 });
      expect(await harness.store.listJobs()).toEqual([]);
    } finally {
      await h?.close();
      await admin.end();
    }
  });
});
