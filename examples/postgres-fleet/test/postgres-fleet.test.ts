import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createPostgresStore, dropSchema, openPostgresDatabase } from "@openkyt/store-postgres";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const EXAMPLE = fileURLToPath(new URL("..", import.meta.url));
const run = promisify(execFile);

describe("examples/postgres-fleet's start script", () => {
  it("runs main.ts and takes the -- that pnpm puts before forwarded arguments", async () => {
    const { scripts } = (await import("../package.json", { with: { type: "json" } })).default as {
      scripts: Record<string, string>;
    };
    expect(scripts.start).toMatch(/ src\/main\.ts$/);
    const refused = await run(
      process.execPath,
      ["--conditions=source", "--import", "tsx", "src/main.ts", "--", "--db", "nope"],
      {
        cwd: EXAMPLE,
      },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(refused).toMatchObject({ code: 2 });
    expect((refused as { stderr: string }).stderr).toContain("usage: --db postgres://");
  });
});

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
    try {
      // As the README runs it: the package's start script through pnpm, arguments after `--`.
      const { stdout, stderr } = await run(
        "npx",
        [
          "-y",
          "pnpm@10.34.8",
          "--filter",
          "@openkyt/example-postgres-fleet",
          "start",
          "--",
          "--db",
          url,
          "--workers",
          "2",
          "--transfers",
          "300",
          "--ledger",
          "3000",
        ],
        { cwd: ROOT, timeout: 170_000, maxBuffer: 16 * 1024 * 1024 },
      );
      // Every transfer registered through the server was screened by the workers.
      expect(stdout).toContain("fleet: 1 server (--no-workers), 2 workers, 300 transfers");
      expect(stdout).toMatch(/unscreened\s+0\n/);
      expect(stderr).toContain("--no-workers");
    } finally {
      const db = openPostgresDatabase({ connectionString: url, schema: SCHEMA });
      await dropSchema(db, SCHEMA);
      await db.destroy();
    }
  });
});
