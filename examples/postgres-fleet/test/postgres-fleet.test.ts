import { createPostgresStore, dropSchema, openPostgresDatabase } from "@openkyt/store-postgres";
import { describe, expect, it } from "vitest";
import { fleetText, runFleet } from "../src/fleet.js";

const URL_BASE = process.env.OPENKYT_TEST_PG_URL ?? "postgres://127.0.0.1:5432/test";
const SCHEMA = `fleet_${process.pid}_${globalThis.crypto.randomUUID().replaceAll("-", "").slice(0, 8)}`;
const url = `${URL_BASE}${URL_BASE.includes("?") ? "&" : "?"}schema=${SCHEMA}`;

/** Why Postgres cannot be used here, or null when it answers. */
async function unavailable(): Promise<string | null> {
  try {
    const store = await createPostgresStore({ connectionString: url, migrate: true });
    await store.close();
    return null;
  } catch (error) {
    return `no Postgres at ${URL_BASE} (${error instanceof Error ? error.message : String(error)}); set OPENKYT_TEST_PG_URL`;
  }
}

const reason = await unavailable();
if (reason !== null && process.env.CI === "true")
  throw new Error(`examples/postgres-fleet needs Postgres under CI: ${reason}`);
if (reason !== null) console.warn(`skipping examples/postgres-fleet: ${reason}`);

describe.skipIf(reason !== null)("examples/postgres-fleet", () => {
  it("a server without workers and two workers on one Postgres screen a small load run", {
    timeout: 180_000,
  }, async () => {
    const lines: string[] = [];
    try {
      const figures = await runFleet({
        url,
        workers: 2,
        transfers: 300,
        ledger: 3_000,
        log: (l) => lines.push(l),
      });
      // Every transfer registered through the server was screened by the workers.
      expect(figures.transfers).toBe(300);
      expect(figures.unscreened).toBe(0);
      expect(Object.values(figures.levels).reduce((a, b) => a + b, 0)).toBe(300);
      expect(figures.screenedPerSecond).toBeGreaterThan(0);
      expect(fleetText(figures)).toContain("2 workers, 300 transfers");
      expect(lines.some((l) => l.includes("--no-workers"))).toBe(true);
    } finally {
      const db = openPostgresDatabase({ connectionString: url, schema: SCHEMA });
      await dropSchema(db, SCHEMA);
      await db.destroy();
    }
  });
});
