/**
 * SQL literals for ClickHouse. The Debian server (18.16) has no query parameters, so every value
 * a query carries is written into its text here, from validated values only: strings quoted with
 * every byte that could end or bend the literal escaped, integers checked to be safe integers,
 * identifiers checked against a plain-name pattern. The same text parses on current releases.
 */
import { KytError } from "@openkyt/core";

/**
 * A string literal: `'...'` with backslash, quote and every control or non-ASCII-printable
 * character escaped (`\\`, `\'`, `\n`, `\xHH` for each UTF-8 byte), so the literal is plain
 * ASCII and reads back as exactly `value`'s UTF-8 bytes. Lone surrogates cannot be written as
 * UTF-8: they are refused.
 */
export function sqlString(value: string): string {
  if (typeof value !== "string") throw invalid("string literal", value);
  let out = "'";
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) {
      throw new KytError(
        "VALIDATION_ERROR",
        "a ClickHouse string literal cannot hold a lone UTF-16 surrogate",
      );
    }
    if (char === "\\") out += "\\\\";
    else if (char === "'") out += "\\'";
    else if (char === "\n") out += "\\n";
    else if (char === "\t") out += "\\t";
    else if (code >= 0x20 && code < 0x7f) out += char;
    else for (const byte of Buffer.from(char, "utf8")) out += `\\x${byte.toString(16).padStart(2, "0")}`;
  }
  return `${out}'`;
}

/** An integer literal; refuses anything but a safe integer (times, log indexes, limits). */
export function sqlInt(value: number): string {
  if (!Number.isSafeInteger(value)) throw invalid("integer literal", value);
  return String(value);
}

/** A plain identifier (database, table, cluster names): letters, digits, `_`, not starting with a digit. */
export function sqlIdentifier(value: string): string {
  if (typeof value !== "string" || !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(value)) {
    throw invalid("identifier", value);
  }
  return value;
}

/** A comma-separated list of string literals, for `IN (...)`. */
export function sqlStringList(values: ReadonlyArray<string>): string {
  if (values.length === 0) throw new KytError("VALIDATION_ERROR", "an IN list needs at least one value");
  return values.map(sqlString).join(", ");
}

function invalid(what: string, value: unknown): KytError {
  const shown = typeof value === "string" ? JSON.stringify(value.slice(0, 80)) : String(value);
  return new KytError("VALIDATION_ERROR", `not a valid ClickHouse ${what}: ${shown}`);
}
