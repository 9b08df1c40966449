/**
 * Text chunks to numbered lines, one batch per chunk: constant memory whatever the file size
 * (a chunk plus the unfinished line it ends with, itself at most {@link MAX_LINE_CHARS}), and
 * linear time however long a line is (a line spanning many chunks is kept as its pieces and
 * joined once). `\n` and `\r\n` both end a line. A line longer than the limit is not kept: it
 * comes out empty with its `problem`, which the import rejects as that row's reason.
 */

/** Longest line kept, in UTF-16 code units (1 Mi): far above any row of the supported formats. */
export const MAX_LINE_CHARS = 1024 * 1024;

/** One line of a file, without its line ending. */
export interface TextLine {
  /** 1 = the first line of the file. */
  readonly line: number;
  readonly text: string;
  /** Set (and `text` empty) when the line is longer than the limit. */
  readonly problem?: string;
}

/** The problem of a line of `chars` characters, longer than `max`. */
export function lineTooLong(chars: number, max: number): string {
  return `the line is ${chars} characters long, longer than the ${max} a row may have`;
}

/**
 * The lines of `chunks`, batched by chunk; the last line needs no line ending. Lines longer
 * than `maxLineChars` come out empty with a problem.
 */
export async function* lineBatches(
  chunks: AsyncIterable<string>,
  maxLineChars = MAX_LINE_CHARS,
): AsyncGenerator<TextLine[]> {
  // The unfinished line: its pieces (each searched for a line end once), and its length.
  let pieces: string[] = [];
  let chars = 0;
  let line = 0;
  const finish = (tail: string): TextLine => {
    line++;
    const length = chars + tail.length;
    const whole = length > maxLineChars + 1 ? null : pieces.length === 0 ? tail : pieces.join("") + tail;
    pieces = [];
    chars = 0;
    const text = whole?.endsWith("\r") ? whole.slice(0, -1) : whole;
    if (text === null || text === undefined || text.length > maxLineChars) {
      return { line, text: "", problem: lineTooLong(text?.length ?? length, maxLineChars) };
    }
    return { line, text };
  };
  for await (const chunk of chunks) {
    const batch: TextLine[] = [];
    let start = 0;
    let end = chunk.indexOf("\n");
    while (end !== -1) {
      batch.push(finish(chunk.slice(start, end)));
      start = end + 1;
      end = chunk.indexOf("\n", start);
    }
    const rest = chunk.length - start;
    if (rest > 0) {
      // Past the limit the line's text is dropped; only its length is counted.
      if (chars + rest <= maxLineChars + 1) pieces.push(start === 0 ? chunk : chunk.slice(start));
      else pieces = [];
      chars += rest;
    }
    if (batch.length > 0) yield batch;
  }
  if (chars > 0) yield [finish("")];
}
