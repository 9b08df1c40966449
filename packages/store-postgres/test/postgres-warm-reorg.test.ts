/**
 * The warm-copy reorg scenario over Postgres: the follower writes through one store, the warm
 * engine reads through another over the same schema (two processes' view). Postgres keeps no
 * warm UTXO copy (it cannot list its UTXO ledger in stored order), so the BTC half checks the
 * engine's answers from the database.
 */
import { runWarmReorgScenario } from "@openkyt/testkit";
import { withTestPostgres } from "./pg-test-suite.js";

await withTestPostgres("warm copies after a reorg on Postgres", ({ stores }) => {
  runWarmReorgScenario("Postgres, two stores on one schema", async () => {
    const follower = await stores.createStore();
    const warm = await stores.openAgain(follower);
    return {
      follower,
      warm,
      async close() {
        await warm.close();
        await stores.destroyStore(follower);
      },
    };
  });
});
