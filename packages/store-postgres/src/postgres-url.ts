/**
 * Postgres URLs: telling one from a SQLite file name, the store's `schema` parameter, and
 * naming the user libpq would.
 */
import { userInfo } from "node:os";

/** True when `value` is a postgres:// or postgresql:// URL (the CLI's `--db` takes either). */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value.trim());
}

/** The `schema` query parameter of a postgres:// URL (`postgres://host/db?schema=kyt`), if any. */
export function schemaOfUrl(connectionString: string): string | undefined {
  if (!URL.canParse(connectionString)) return undefined;
  return new URL(connectionString).searchParams.get("schema") ?? undefined;
}

/** `connectionString` without its `schema` parameter, which is the store's and not pg's. */
export function withoutSchemaParam(connectionString: string): string {
  if (!URL.canParse(connectionString)) return connectionString;
  const url = new URL(connectionString);
  if (!url.searchParams.has("schema")) return connectionString;
  url.searchParams.delete("schema");
  return url.toString();
}

/**
 * `connectionString` with the operating system's user name filled in when neither the URL nor
 * PGUSER or USER names a user, as libpq (psql) does; pg would otherwise send no user at all.
 * Any other string (no host, not a URL) comes back unchanged.
 */
export function withDefaultUser(
  connectionString: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  if (env.PGUSER || env.USER || !URL.canParse(connectionString)) return connectionString;
  const url = new URL(connectionString);
  if (url.username !== "" || url.hostname === "") return connectionString;
  url.username = encodeURIComponent(userInfo().username);
  return url.toString();
}
