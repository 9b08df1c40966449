/**
 * Building blocks the sections share: headings, key/value lists, boxed notices and tables with
 * a repeated header row. Each returns plain pdfmake content.
 */
import type { Content, TableCell } from "pdfmake/interfaces";
import { boxLayout, COLORS, PLAIN_LAYOUT, RULED_LAYOUT } from "./report-styles.js";

/** One line of a key/value list; `token` marks hashes and addresses (wrapped anywhere). */
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

/** A sub-heading inside a section. */
export function subheading(text: string): Content {
  return { text, style: "h3" };
}

/** A text that is a hash or an address: breaks anywhere when it does not fit its line. */
export function tokenText(text: string, fontSize?: number): Content {
  return { text, style: "token", wordBreak: "break-all", ...(fontSize ? { fontSize } : {}) } as Content;
}

/** A paragraph. */
export function paragraph(text: string | Content[]): Content {
  return { text, style: "paragraph" } as Content;
}

/** A two-column list of labels and values. */
export function facts(rows: ReadonlyArray<Fact>, labelWidth = 120): Content {
  return {
    table: {
      widths: [labelWidth, "*"],
      body: rows.map((r): TableCell[] => [
        { text: r.label, style: "label" },
        typeof r.value === "string" && r.token ? tokenText(r.value) : r.value,
      ]),
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
    table: { widths: ["*"], body: [[{ text, fillColor: fill } as TableCell]] },
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
    (c): TableCell => ({ text: c.title, style: "th", ...(c.right ? { alignment: "right" } : {}) }),
  );
  return {
    table: {
      widths: columns.map((c) => c.width),
      headerRows: 1,
      dontBreakRows: true,
      keepWithHeaderRows: 1,
      body: [header, ...rows],
    },
    layout: RULED_LAYOUT,
    style: "td",
  };
}
