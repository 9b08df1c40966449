/**
 * Cross-process wake-ups on Postgres: a commit that enqueues jobs notifies the schema's channel
 * (migration 0100), a store's job watch reports it, and a started engine whose runner polls
 * once an hour still runs at once a job another store instance (another connection, as another
 * process) enqueued; after the watch's backend is killed, the watch reports the loss, connects
 * again and wake-ups resume.
 */
import { createEngine, type Engine, type Logger, type Store } from "@openkyt/core";
import { loadWorld, makeJob, TX, W } from "@openkyt/testkit";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { jobsChannel, withDefaultUser } from "../src/index.js";
import { withTestPostgres } from "./pg-test-suite.js";

/** A poll interval no test waits for: only wake-ups make the runner claim. */
const HOUR = 3_600_000;

/** Resolves once `ready()` holds, checking every 20 ms (at most 30 s: room for a busy machine). */
async function until(ready: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A logger that keeps the messages it is given. */
function keptLogger(): Logger & { readonly messages: string[] } {
  const messages: string[] = [];
  const keep = (_fields: unknown, message: string) => {
    messages.push(message);
  };
  return { messages, debug: keep, info: keep, warn: keep, error: keep };
}

await withTestPostgres("job wake-ups across processes on Postgres", ({ url, stores }) => {
  describe("the job watch", () => {
    let storeA: Store;
    let storeB: Store;
    let admin: pg.Client;
    let engine: Engine | null = null;
    beforeEach(async () => {
      storeA = await stores.createStore();
      storeB = await stores.openAgain(storeA);
      admin = new pg.Client({ connectionString: withDefaultUser(url) });
      await admin.connect();
    });
    afterEach(async () => {
      await engine?.stop();
      engine = null;
      await admin.end();
      await storeB.close();
      await stores.destroyStore(storeA);
    });

    /** The backends listening on the channel of storeA's schema. */
    const listeners = async (): Promise<number[]> => {
      const channel = jobsChannel(stores.schemaOf(storeA));
      const { rows } = await admin.query<{ pid: number }>(
        "select pid from pg_stat_activity where application_name = 'openkyt-job-watch' and query = $1",
        [`listen "${channel}"`],
      );
      return rows.map((row) => row.pid);
    };

    it("reports jobs enqueued through another store instance, and nothing after close()", async () => {
      let due = 0;
      const kinds: string[] = [];
      const watch = await storeA.watchJobs?.({
        due: (reported) => {
          due += 1;
          kinds.push(reported.join("+"));
        },
        lost: () => undefined,
        restored: () => undefined,
      });
      expect(watch).toBeDefined();
      await storeB.enqueueJob(makeJob({ id: "from-b" }));
      await until(() => due > 0, "the enqueue is reported");
      // One report per statement, with the kinds it inserted.
      await storeB.enqueueJobs([
        makeJob({ id: "check", kind: "transfer.check" }),
        makeJob({ id: "bind", kind: "transfer.bind" }),
        makeJob({ id: "check-2", kind: "transfer.check" }),
      ]);
      await until(() => due > 1, "the batch is reported");
      expect(kinds).toEqual(["transfer.bind", "transfer.bind+transfer.check"]);
      // A statement that inserts nothing (the id exists) reports nothing.
      await storeB.enqueueJob(makeJob({ id: "check" })).catch(() => undefined);
      // A rolled-back enqueue is never reported: NOTIFY is delivered at commit.
      const before = due;
      await storeB
        .transaction(async (tx) => {
          await tx.enqueueJob(makeJob({ id: "rolled-back" }));
          throw new Error("roll back");
        })
        .catch(() => undefined);
      await storeB.enqueueJob(makeJob({ id: "marker" }));
      await until(() => due > before, "the marker is reported");
      expect(due).toBe(before + 1);
      await watch?.close();
      expect(await listeners()).toEqual([]);
      await storeB.enqueueJob(makeJob({ id: "after-close" }));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(due).toBe(before + 1);
    }, 90_000);

    it("runs at once a transfer registered by another process, before and after its watch's backend is killed", async () => {
      const logger = keptLogger();
      engine = createEngine({ store: storeA, logger, jobs: { pollIntervalMs: HOUR } });
      await loadWorld(engine);
      engine.start();
      await until(async () => (await listeners()).length === 1, "the watch listens");
      const [first] = await listeners();
      const elsewhere = createEngine({ store: storeB, jobs: { runsElsewhere: true } }).forAccount("acme");
      const deposit = (tx_hash: string) =>
        elsewhere.registerTransfer({
          direction: "incoming",
          network: "ETH",
          tx_hash,
          output_address: W.client,
        });
      const checked = (id: string) => async () =>
        (await storeA.getTransfer(id))?.checks.exposure.state === "checked";

      const one = await deposit(TX.deposit);
      await until(checked(one.transfer.id), "the first transfer is checked");

      await admin.query("select pg_terminate_backend($1)", [first]);
      await until(async () => {
        const now = await listeners();
        return now.length === 1 && now[0] !== first;
      }, "the watch listens again");
      await until(() => logger.messages.includes("job watch restored"), "the watch says it is back");
      expect(logger.messages).toContain("job watch lost: polling for jobs until it is back");

      const two = await deposit(TX.mixerDeposit);
      await until(checked(two.transfer.id), "the second transfer is checked");
      expect(await storeA.listJobs()).toEqual([]);
    }, 90_000);

    it("a store's close() closes its watches", async () => {
      const other = await stores.openAgain(storeA);
      await other.watchJobs?.({ due: () => undefined, lost: () => undefined, restored: () => undefined });
      await until(async () => (await listeners()).length === 1, "the watch listens");
      await other.close();
      await until(async () => (await listeners()).length === 0, "the watch is closed");
    }, 90_000);
  });
});
