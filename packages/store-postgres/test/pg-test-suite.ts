/** Registering a Postgres test file's suites: with a server and per-test schemas, or skipped with the reason. */
import { afterAll, describe, it } from "vitest";
import { type SchemaStores, schemaStores } from "./pg-test-schemas.js";
import { findTestPostgres } from "./pg-test-server.js";

/** What a Postgres suite gets. */
export interface PostgresSuite {
  /** URL of the server. */
  readonly url: string;
  /** Stores in throwaway schemas of it. */
  readonly stores: SchemaStores;
}

/**
 * Finds a server (see `findTestPostgres`) and registers `body` with it; without one, registers
 * a skipped block named after the reason and prints the reason. Under `CI=true` a missing
 * server fails the file instead.
 */
export async function withTestPostgres(title: string, body: (suite: PostgresSuite) => void): Promise<void> {
  const server = await findTestPostgres();
  if ("skip" in server) {
    console.warn(`skipping ${title}: ${server.skip}`);
    describe.skip(`${title} (skipped: ${server.skip})`, () => {
      it("needs a Postgres server", () => undefined);
    });
    return;
  }
  if (server.origin !== server.url) console.info(`${title}: running on ${server.origin}`);
  const stores = schemaStores(server.url);
  afterAll(async () => {
    await stores.close();
    await server.stop();
  });
  body({ url: server.url, stores });
}
