/**
 * The first line of a file, quoted so that an error message can show it whatever the file holds:
 * printable, shortened, with every byte that is not printable text written as an escape
 * (`\x89PNG\r` for a PNG).
 */

/** Characters of the first line shown before it is cut with "...". */
const SHOWN = 80;

/** The length of the UTF-8 sequence starting at `at`, or 0 when it is not a valid one. */
function utf8Length(bytes: Uint8Array, at: number): number {
  const lead = bytes[at] ?? 0;
  const length = lead >= 0xf0 && lead <= 0xf4 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 && lead < 0xe0 ? 2 : 0;
  if (length === 0 || at + length > bytes.length) return 0;
  for (let i = 1; i < length; i++) if (((bytes[at + i] ?? 0) & 0xc0) !== 0x80) return 0;
  const char = new TextDecoder().decode(bytes.subarray(at, at + length));
  // Replacement characters and C1 controls (U+0080-U+009F) are shown as bytes.
  return char.includes("\uFFFD") || char.charCodeAt(0) < 0xa0 ? 0 : length;
}

const ESCAPES: Readonly<Record<number, string>> = { 9: "\\t", 13: "\\r", 34: '\\"', 92: "\\\\" };

/**
 * The first line of `bytes` (a UTF-8 BOM and leading blank lines dropped) in double quotes,
 * escaped and cut to about 80 characters; `(the file is empty)` when it has no line.
 */
export function quotedFirstLine(bytes: Uint8Array): string {
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (at < bytes.length && (bytes[at] === 10 || bytes[at] === 13 || bytes[at] === 32)) at++;
  if (at >= bytes.length) return "(the file is empty)";
  let shown = "";
  let count = 0;
  while (at < bytes.length && bytes[at] !== 10) {
    if (count >= SHOWN) return `"${shown}..."`;
    const byte = bytes[at] ?? 0;
    const escaped = ESCAPES[byte];
    const length = byte >= 0x80 ? utf8Length(bytes, at) : 1;
    if (escaped !== undefined) shown += escaped;
    else if (byte >= 0x20 && byte < 0x7f) shown += String.fromCharCode(byte);
    else if (length > 1) shown += new TextDecoder().decode(bytes.subarray(at, at + length));
    else shown += `\\x${byte.toString(16).padStart(2, "0")}`;
    at += Math.max(1, length);
    count++;
  }
  return `"${shown}"`;
}
