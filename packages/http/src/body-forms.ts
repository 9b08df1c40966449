/**
 * The forms of a JSON body a client may have signed. Clients differ: some send exactly the
 * compact text they signed; others sign compact JSON but send their library's own rendering
 * (spaces after separators, `\u` escapes, `1.0`). The server therefore checks the raw bytes,
 * the raw text without insignificant whitespace, the compact re-serialisation of the parsed
 * body (key order kept), that re-serialisation with non-ASCII escaped as `\uXXXX`, and no body
 * line at all when the payload is empty (`{}`, `[]`, `null`: "when there is no payload").
 */

/** A parsed request body. */
export type ParsedBody =
  | { readonly kind: "empty" }
  | { readonly kind: "json"; readonly value: unknown }
  | { readonly kind: "malformed"; readonly problem: string };

const utf8 = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

/**
 * Deepest nesting of arrays and objects a body may have. Deeper bodies are refused before they
 * are parsed: re-serialising them (for the signature forms) or validating them would recurse
 * past the stack, and no request of the interface nests more than a few levels.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The index of the quote that closes the JSON string opened by the quote at `open` (escapes
 * skipped), or `text.length` when the string is not closed. The one scanner of strings that
 * the body checks below share.
 */
function stringEnd(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    if (ch === 0x5c) i += 1;
    else if (ch === 0x22) return i;
  }
  return text.length;
}

/** True when the JSON text `text` nests arrays or objects deeper than `max` (strings skipped). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22) {
      i = stringEnd(text, i);
    } else if (ch === 0x5b || ch === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (ch === 0x5d || ch === 0x7d) {
      depth -= 1;
    }
  }
  return false;
}

/** Parses raw body bytes as JSON; empty (or only whitespace) is `empty`. */
export function parseBody(raw: Uint8Array): ParsedBody {
  if (raw.length === 0) return { kind: "empty" };
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    return { kind: "malformed", problem: "the request body is not valid UTF-8" };
  }
  if (text.trim() === "") return { kind: "empty" };
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    return { kind: "malformed", problem: `the request body nests deeper than ${MAX_JSON_DEPTH} levels` };
  }
  try {
    return { kind: "json", value: JSON.parse(text) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { kind: "malformed", problem: `the request body is not valid JSON: ${reason}` };
  }
}

/** JSON text without whitespace outside strings; tokens (numbers, escapes) kept as written. */
export function stripJsonWhitespace(text: string): string {
  // Copies runs between whitespace as slices: a character at a time is slow on large bodies.
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22) {
      i = stringEnd(text, i);
    } else if (ch === 0x20 || ch === 0x09 || ch === 0x0a || ch === 0x0d) {
      if (i > from) parts.push(text.slice(from, i));
      from = i + 1;
    }
  }
  if (from === 0) return text;
  parts.push(text.slice(from));
  return parts.join("");
}

const HEX_DIGITS = Buffer.from("0123456789abcdef", "latin1");

/** Escapes every non-ASCII UTF-16 unit as `\uXXXX` (Python's `ensure_ascii`). */
export function escapeNonAscii(json: string): string {
  // Written as bytes (the result is ASCII), not a replace callback per character: a body of
  // 15,000 non-ASCII characters took milliseconds that way, on every refused request.
  let extra = 0;
  for (let i = 0; i < json.length; i += 1) if (json.charCodeAt(i) >= 0x80) extra += 5;
  if (extra === 0) return json;
  const out = Buffer.allocUnsafe(json.length + extra);
  let o = 0;
  for (let i = 0; i < json.length; i += 1) {
    const code = json.charCodeAt(i);
    if (code < 0x80) {
      out[o++] = code;
      continue;
    }
    out[o++] = 0x5c;
    out[o++] = 0x75;
    out[o++] = HEX_DIGITS[code >> 12] as number;
    out[o++] = HEX_DIGITS[(code >> 8) & 15] as number;
    out[o++] = HEX_DIGITS[(code >> 4) & 15] as number;
    out[o++] = HEX_DIGITS[code & 15] as number;
  }
  return out.toString("latin1");
}

function isEmptyPayload(value: unknown): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && Object.keys(value as object).length === 0;
}

/** The body forms to check a signature against, most likely first; null is "no body line". */
export function signedBodyForms(raw: Uint8Array, parsed: ParsedBody): Array<Uint8Array | null> {
  if (parsed.kind === "empty") return raw.length === 0 ? [null] : [raw, null];
  const forms: Array<Uint8Array | null> = [raw];
  if (parsed.kind !== "json") return forms;
  const rawText = new TextDecoder().decode(raw);
  const compact = JSON.stringify(parsed.value);
  const texts = new Set([stripJsonWhitespace(rawText), compact, escapeNonAscii(compact)]);
  texts.delete(rawText);
  for (const text of texts) forms.push(encoder.encode(text));
  if (isEmptyPayload(parsed.value)) forms.push(null);
  return forms;
}
