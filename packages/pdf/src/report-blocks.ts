/**
 * Building blocks the sections share: headings, key/value lists, boxed notices and tables with
 * a repeated header row. Each returns plain pdfmake content.
 */
import type { Content, TableCell } from "pdfmake/interfaces";
import {
  boxLayout,
  COLORS,
  CONTENT_WIDTH,
  DEFAULT_STYLE,
  PLAIN_LAYOUT,
  RULED_LAYOUT,
  STYLES,
} from "./report-styles.js";

/** Left plus right padding of a table cell. */
const CELL_PADDING = 8;

/** An upper bound of a character's advance in the report font (Roboto, bold included), in ems. */
function ems(ch: string): number {
  if (/[mwMW@%]/.test(ch)) return 0.92;
  if (/[A-Z]/.test(ch)) return 0.74;
  if (/[0-9a-z]/.test(ch)) return 0.6;
  if (/[ .,:;'/()!|-]/.test(ch)) return 0.45;
  return ch.charCodeAt(0) < 128 ? 0.7 : 1;
}

/** An upper bound of a text's width at a font size, in points. */
export function widthBound(text: string, fontSize: number): number {
  let total = 0;
  for (const ch of text) total += ems(ch);
  return total * fontSize;
}

/**
 * An upper bound of the width of a text on one line, in points: a string or runs of strings (with
 * their own font size, style and character spacing). Null when it has a line break or a run this
 * cannot read.
 */
function runsBound(text: unknown, fontSize: number, spacing: number): number | null {
  if (typeof text === "string") {
    return text.includes("\n") ? null : widthBound(text, fontSize) + spacing * text.length;
  }
  if (Array.isArray(text)) {
    let total = 0;
    for (const run of text) {
      const width = runsBound(run, fontSize, spacing);
      if (width === null) return null;
      total += width;
    }
    return total;
  }
  if (typeof text !== "object" || text === null || !("text" in text)) return null;
  const run = text as { text: unknown; fontSize?: unknown; style?: unknown; characterSpacing?: unknown };
  const style = typeof run.style === "string" ? STYLES[run.style] : undefined;
  const size = typeof run.fontSize === "number" ? run.fontSize : (style?.fontSize ?? fontSize);
  const ownSpacing =
    typeof run.characterSpacing === "number" ? run.characterSpacing : style?.characterSpacing;
  return runsBound(run.text, size, ownSpacing ?? spacing);
}

/** True when `text` (a string or runs) surely fits `width` points on one line at `fontSize`. */
export function fitsOneLine(text: unknown, width: number, fontSize: number): boolean {
  const bound = runsBound(text, fontSize, 0);
  return bound !== null && bound <= width;
}

/**
 * Marks a text cell (or each text of a stacked cell) that surely fits `width` as not wrapping.
 * pdfmake lays out and draws a wrapping text word by word; a text that cannot need a second line
 * is one run, which makes a report several times cheaper to render. Cells that might not fit are
 * left to wrap.
 */
export function unwrapped<T>(cell: T, width: number | "*", fontSize = 7.5): T {
  if (typeof width !== "number" || typeof cell !== "object" || cell === null) return cell;
  const c = cell as { text?: unknown; stack?: unknown; fontSize?: unknown; noWrap?: unknown };
  const size = typeof c.fontSize === "number" ? c.fontSize : fontSize;
  if (Array.isArray(c.stack)) return { ...cell, stack: c.stack.map((item) => unwrapped(item, width, size)) };
  if (c.text === undefined || c.noWrap !== undefined) return cell;
  return fitsOneLine(c, width - CELL_PADDING, size) ? { ...cell, noWrap: true } : cell;
}

/** One line of a key/value list; `token` marks hashes and addresses (kept whole, or broken anywhere when too long). */
export interface Fact {
  readonly label: string;
  readonly value: string | Content;
  readonly token?: boolean;
}

/** A column of a ruled table. */
export interface Column {
  readonly title: string;
  readonly width: number | "*";
  /** Right-aligned header (for numbers). */
  readonly right?: boolean;
}

/** A section heading. */
export function heading(text: string): Content {
  return { text, style: "h2" };
}

/**
 * A section's heading kept on one page with its first lines, so a heading never ends a page.
 * `lead` must stay small (a line or two, a short list).
 */
export function section(title: string, lead: Content[]): Content {
  return { stack: [heading(title), ...lead], unbreakable: true };
}

/** Size of the token style. */
const TOKEN_SIZE = 8.5;

/**
 * A hash or an address in `width` points: one run when it fits, else broken anywhere (pdfmake
 * would otherwise widen the column past the page to fit the unbreakable word).
 */
export function tokenText(text: string, width: number, fontSize = TOKEN_SIZE): Content {
  const fits = widthBound(text, fontSize) <= width - CELL_PADDING;
  return {
    text,
    style: "token",
    fontSize,
    ...(fits ? { noWrap: true } : { wordBreak: "break-all" }),
  } as Content;
}

/** Text runs of addresses joined by `separator`, each broken anywhere only when too long for `width`. */
export function tokenRuns(
  tokens: ReadonlyArray<string>,
  separator: string,
  width: number,
  fontSize: number,
): Content[] {
  return tokens.flatMap((t, i): Content[] => {
    const fits = widthBound(t, fontSize) <= width - CELL_PADDING;
    // wordBreak is pdfmake's, missing from its type declarations.
    const run = { text: t, ...(fits ? {} : { wordBreak: "break-all" }) } as Content;
    return i === 0 ? [run] : [{ text: separator }, run];
  });
}

/** A paragraph across the page's width; one that surely fits one line is laid out as one run. */
export function paragraph(text: string | Content[]): Content {
  const fits = fitsOneLine(text, CONTENT_WIDTH, DEFAULT_STYLE.fontSize ?? 9);
  return { text, style: "paragraph", ...(fits ? { noWrap: true } : {}) } as Content;
}

/** A two-column list of labels and values. */
export function facts(rows: ReadonlyArray<Fact>, labelWidth = 120): Content {
  return {
    table: {
      widths: [labelWidth, "*"],
      body: rows.map((r): TableCell[] => {
        const value =
          typeof r.value === "string"
            ? r.token
              ? tokenText(r.value, CONTENT_WIDTH - labelWidth)
              : { text: r.value }
            : r.value;
        const size = r.token ? 8.5 : (DEFAULT_STYLE.fontSize ?? 9);
        return [
          unwrapped({ text: r.label, style: "label" }, labelWidth, DEFAULT_STYLE.fontSize),
          unwrapped(value, CONTENT_WIDTH - labelWidth, size),
        ];
      }),
    },
    layout: PLAIN_LAYOUT,
  };
}

/** A boxed note (pending work, omitted parts) in the given fill and border colours. */
export function notice(
  text: string | Content[],
  fill: string = COLORS.notice,
  border: string = COLORS.noticeBorder,
): Content {
  return {
    // The box's padding (8 on each side) and borders leave the text the width less 18.
    table: {
      widths: ["*"],
      body: [[unwrapped({ text, fillColor: fill } as TableCell, CONTENT_WIDTH - 10, 9)]],
    },
    layout: boxLayout(border),
    margin: [0, 4, 0, 6],
    unbreakable: true,
  };
}

/**
 * A ruled table whose header row repeats on every page it spans; a row never splits across
 * pages.
 */
export function ruledTable(columns: ReadonlyArray<Column>, rows: TableCell[][]): Content {
  const header = columns.map(
    (c): TableCell =>
      unwrapped({ text: c.title, style: "th", ...(c.right ? { alignment: "right" } : {}) }, c.width),
  );
  return {
    table: {
      widths: columns.map((c) => c.width),
      headerRows: 1,
      dontBreakRows: true,
      keepWithHeaderRows: 1,
      body: [header, ...rows.map((row) => row.map((cell, i) => unwrapped(cell, columns[i]?.width ?? "*")))],
    },
    layout: RULED_LAYOUT,
    style: "td",
  };
}
