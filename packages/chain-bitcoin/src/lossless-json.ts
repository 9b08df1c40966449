/**
 * JSON with every number kept as the text it was written as: Bitcoin Core writes amounts as
 * decimal BTC numbers (`0.00015000`), which `JSON.parse` would turn into binary floats. Every
 * number literal outside a string is quoted before parsing, so a caller reads amounts with
 * `satsFromCoinText` (exact) and counts with `Number` (exact for safe integers).
 *
 * Most of a node's answer is inside strings (txids, scripts, addresses): the scan jumps over
 * each string with the native `indexOf` to its closing quote instead of stepping through it a
 * character at a time, and the text is copied once, in two slices a number joined at the end
 * (a string grown by `+=` is a rope of thousands of pieces that `JSON.parse` flattens again).
 */

function isNumberChar(c: number): boolean {
  // 0-9 . - + e E
  return (c >= 48 && c <= 57) || c === 46 || c === 45 || c === 43 || c === 101 || c === 69;
}

/**
 * The index of the quote that closes the string opened at `open`, or -1 when none does: the
 * first `"` after it that an even number of backslashes precedes (an odd number escapes it).
 */
function closingQuote(text: string, open: number): number {
  let at = text.indexOf('"', open + 1);
  while (at !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  return -1;
}

/** Parses `text` as JSON with every number as a string of its literal; bad JSON throws SyntaxError. */
export function parseJsonKeepingNumbers(text: string): unknown {
  const parts: string[] = [];
  let from = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const close = closingQuote(text, i);
      // An unterminated string: left as it is, for JSON.parse to refuse.
      if (close === -1) break;
      i = close;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      let j = i + 1;
      while (j < n && isNumberChar(text.charCodeAt(j))) j++;
      parts.push(text.slice(from, i), `"${text.slice(i, j)}"`);
      from = j;
      i = j - 1;
    }
  }
  if (parts.length === 0) return JSON.parse(text);
  parts.push(text.slice(from));
  return JSON.parse(parts.join(""));
}
