/**
 * What an address list must look like to be read as one. An address list has no header, so a
 * README, a PNG or a CSV of another kind would otherwise pass for one and, taken as a complete
 * list with no address in it, end every listing. The rule (docs/data.md, "Sanctions"):
 *
 * - a data line is a line that is neither blank nor a `#` comment;
 * - every data line of the file's head (its first 64 KiB) is one token: printable ASCII with no
 *   space, comma, semicolon or quote (a line cut by the end of the head is not judged);
 * - the first data line is shaped like an address: 25 to 110 letters and digits, optionally after
 *   a lower-case `prefix:` (`bitcoincash:q...`); and the head has at least one data line.
 *
 * While importing, a data line not shaped like an address is rejected (it counts against the
 * file being a complete snapshot); one shaped like an address of no supported network is skipped.
 */

/** An address of any network, by shape alone: 25-110 letters and digits, optionally `prefix:` first. */
const ADDRESS_SHAPE = /^(?:[a-z]{3,12}:)?[A-Za-z0-9]{25,110}$/;

/** One token of printable ASCII, without separators a CSV or prose would have. */
const ONE_TOKEN = /^[!#-&(-+\--:<-~]+$/;

/** True when `text` (trimmed) is shaped like an address of some network. */
export function isAddressShaped(text: string): boolean {
  return ADDRESS_SHAPE.test(text);
}

/** The data lines of `text`: trimmed, without blank and `#` comment lines. */
function dataLines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

/**
 * True when the head of a file looks like an address list (see the rule above). `cut` says the
 * head ends inside the file, so that its last line may be incomplete.
 */
export function looksLikeAddressList(head: string, cut: boolean): boolean {
  const complete = cut ? head.slice(0, Math.max(0, head.lastIndexOf("\n"))) : head;
  const lines = dataLines(complete);
  const [first] = lines;
  if (first === undefined || !isAddressShaped(first)) return false;
  return lines.every((line) => ONE_TOKEN.test(line));
}
