/**
 * Statements compiled once. The query builder builds an operation tree and compiles it to SQL
 * on every call, about a tenth of a screening's CPU; for the statements every transfer runs,
 * the SQL text is compiled the first time per dialect and shape (`key`) and later calls run
 * that text with their own parameters. `build` must give the statement with the parameters in
 * the order the caller passes them; a count that does not match is refused.
 */
import { type Compilable, CompiledQuery, type Kysely, type QueryResult } from "kysely";
import type { Database } from "./kysely-schema.js";

interface CompiledText {
  readonly sql: string;
  readonly count: number;
}

/** SQL texts per dialect adapter (one per database, shared by its transactions), then per key. */
const texts = new WeakMap<object, Map<string, CompiledText>>();

/** Runs the statement `key` with `parameters`, building and compiling it with `build` the first time. */
export function runPrecompiled<R>(
  db: Kysely<Database>,
  key: string,
  build: () => Compilable<R>,
  parameters: ReadonlyArray<unknown>,
): Promise<QueryResult<R>> {
  const adapter = db.getExecutor().adapter;
  let byKey = texts.get(adapter);
  if (!byKey) {
    byKey = new Map();
    texts.set(adapter, byKey);
  }
  let text = byKey.get(key);
  if (!text) {
    const compiled = build().compile();
    text = { sql: compiled.sql, count: compiled.parameters.length };
    byKey.set(key, text);
  }
  if (text.count !== parameters.length) {
    return Promise.reject(
      new Error(`statement ${key} takes ${text.count} parameters, got ${parameters.length}`),
    );
  }
  return db.executeQuery(CompiledQuery.raw(text.sql, [...parameters]) as CompiledQuery<R>);
}
