/**
 * Text chunks to numbered lines, one batch per chunk: constant memory whatever the file size
 * (a chunk plus the unfinished line it ends with). `\n` and `\r\n` both end a line.
 */

/** One line of a file, without its line ending. */
export interface TextLine {
  /** 1 = the first line of the file. */
  readonly line: number;
  readonly text: string;
}

/** The lines of `chunks`, batched by chunk; the last line needs no line ending. */
export async function* lineBatches(chunks: AsyncIterable<string>): AsyncGenerator<TextLine[]> {
  let carry = "";
  let line = 0;
  for await (const chunk of chunks) {
    const text = carry + chunk;
    const batch: TextLine[] = [];
    let start = 0;
    let end = text.indexOf("\n", start);
    while (end !== -1) {
      line++;
      const stop = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
      batch.push({ line, text: text.slice(start, stop) });
      start = end + 1;
      end = text.indexOf("\n", start);
    }
    carry = text.slice(start);
    if (batch.length > 0) yield batch;
  }
  if (carry.length > 0) {
    line++;
    yield [{ line, text: carry.endsWith("\r") ? carry.slice(0, -1) : carry }];
  }
}
