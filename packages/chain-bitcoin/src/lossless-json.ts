/**
 * JSON with every number kept as the text it was written as: Bitcoin Core writes amounts as
 * decimal BTC numbers (`0.00015000`), which `JSON.parse` would turn into binary floats. Every
 * number literal outside a string is quoted before parsing, so a caller reads amounts with
 * `satsFromCoinText` (exact) and counts with `Number` (exact for safe integers).
 */

function isNumberChar(c: number): boolean {
  // 0-9 . - + e E
  return (c >= 48 && c <= 57) || c === 46 || c === 45 || c === 43 || c === 101 || c === 69;
}

/** Parses `text` as JSON with every number as a string of its literal; bad JSON throws SyntaxError. */
export function parseJsonKeepingNumbers(text: string): unknown {
  let out = "";
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // a backslash escapes the next character
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) {
      inString = true;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      let j = i + 1;
      while (j < text.length && isNumberChar(text.charCodeAt(j))) j++;
      out += `${text.slice(from, i)}"${text.slice(i, j)}"`;
      from = j;
      i = j - 1;
    }
  }
  out += text.slice(from);
  return JSON.parse(out);
}
