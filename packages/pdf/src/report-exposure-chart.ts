/**
 * The horizontal bar chart of an exposure: one bar per category, drawn as vector rectangles in
 * the category's colour over a light track, with the category name and share beside it.
 */
import type { CanvasElement, Content, TableCell } from "pdfmake/interfaces";
import { unwrapped } from "./report-blocks.js";
import { categoryColor, categoryName, formatShare } from "./report-format.js";
import { COLORS, PLAIN_LAYOUT } from "./report-styles.js";

/** One bar. */
export interface ChartBar {
  readonly category: string;
  readonly share: number;
  /** Replaces the category name, e.g. "Unexplained remainder". */
  readonly label?: string;
}

/** Length of a 100% bar, in points. */
export const BAR_LENGTH = 250;
const BAR_HEIGHT = 8;
const LABEL_WIDTH = 150;

/** The rectangles of one bar: the track, then the share (at least a hairline when non-zero). */
export function barShapes(share: number, color: string, length = BAR_LENGTH): CanvasElement[] {
  const clamped = Math.min(1, Math.max(0, share));
  const w = clamped === 0 ? 0 : Math.max(0.8, clamped * length);
  const track: CanvasElement = { type: "rect", x: 0, y: 1, w: length, h: BAR_HEIGHT, color: COLORS.track };
  if (w === 0) return [track];
  return [track, { type: "rect", x: 0, y: 1, w, h: BAR_HEIGHT, color }];
}

/** The chart: bars in the order given. */
export function exposureChart(bars: ReadonlyArray<ChartBar>): Content {
  return {
    table: {
      widths: [LABEL_WIDTH, BAR_LENGTH, "*"],
      body: bars.map((b): TableCell[] => [
        unwrapped({ text: b.label ?? categoryName(b.category), fontSize: 8 }, LABEL_WIDTH + 4),
        { canvas: barShapes(b.share, categoryColor(b.category)) },
        { text: formatShare(b.share), fontSize: 8, bold: true, noWrap: true },
      ]),
    },
    layout: PLAIN_LAYOUT,
    margin: [0, 2, 0, 6],
    unbreakable: bars.length <= 20,
  };
}
