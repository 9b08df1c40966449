/** Running SQL scripts through psql, for the Postgres checks of bench/ (bench has no driver of its own). */
import { spawnSync } from "node:child_process";
import { withDefaultUser, withoutSchemaParam } from "@openkyt/store-postgres";

/** Runs `script` with psql against `url`, search_path at `schema`; returns stdout, throws with stderr on failure. */
export function runPsql(url: string, schema: string, script: string): string {
  const result = spawnSync(
    "psql",
    [withDefaultUser(withoutSchemaParam(url)), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"],
    { input: `set search_path to "${schema}";\n${script}`, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.error) throw new Error(`psql could not run: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`psql failed: ${result.stderr}`);
  return result.stdout;
}

/** A value as an SQL literal (strings quoted, null as NULL). */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  return `'${String(value).replaceAll("'", "''")}'`;
}
