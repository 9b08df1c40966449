/**
 * The one rule for text that crosses the wire: a string must be something every store can hold
 * and well-formed Unicode. NUL (U+0000) is refused (Postgres `text` cannot hold it, and C
 * strings end at it); so is an unpaired UTF-16 surrogate (U+D800-U+DFFF on its own, which a JSON
 * `\uD800` escape can produce): it is no character, has no UTF-8 form, and a driver would
 * silently store U+FFFD instead. Every string of a request body or query is declared with
 * {@link wireString}, and path ids are checked with {@link isStorableText}.
 */
import { z } from "zod";
import { notFound } from "../errors.js";

/** NUL, or a surrogate code unit that is not half of a pair (with `u`, a pair is one code point). */
const UNSTORABLE = /[\0\p{Cs}]/u;

/** Why `text` cannot be stored as text, or null when it can. */
export function textProblem(text: string): string | null {
  const found = UNSTORABLE.exec(text);
  if (found === null) return null;
  return found[0] === "\0"
    ? "must not contain NUL (U+0000)"
    : "must not contain an unpaired UTF-16 surrogate (not well-formed Unicode)";
}

/**
 * Longest free text an import accepts in a row (an entity name, a source, a sanctions entity or
 * program, a token name), in UTF-16 code units. Such text ends up in answers and PDF reports,
 * where one entity name may be shown many times: bounding it at the import bounds them.
 */
export const MAX_FREE_TEXT_CHARS = 512;

/** True when `text` holds no NUL and no unpaired surrogate (see {@link textProblem}). */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/**
 * `id` when a store can hold it; otherwise NOT_FOUND for `kind`, like any unknown id: an id with
 * a NUL or an unpaired surrogate names nothing, so the store is not asked (Postgres would fail).
 */
export function lookupId(kind: string, id: string): string {
  if (!isStorableText(id)) throw notFound(kind, JSON.stringify(id));
  return id;
}

/**
 * A string of a request body or query: any string {@link textProblem} accepts; the issue names
 * the field like every other validation problem. Chain the usual methods (`.max()`, `.trim()`).
 */
export function wireString() {
  return z.string().check((ctx) => {
    const problem = textProblem(ctx.value);
    if (problem !== null) ctx.issues.push({ code: "custom", input: ctx.value, message: problem });
  });
}
