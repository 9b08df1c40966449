/**
 * A horizontal bar chart in plain SVG (no chart library: a few bars need none), stacked when a
 * bar has several parts; the figures are written beside each bar, so the chart reads without
 * colour, and a screen reader gets them as a list.
 */

/** One part of a bar. */
export interface BarPart {
  readonly label: string;
  readonly value: number;
  /** CSS class of its colour. */
  readonly tone: string;
}

/** One bar. */
export interface Bar {
  readonly label: string;
  readonly parts: ReadonlyArray<BarPart>;
  /** The text written after the bar; default the sum. */
  readonly caption?: string;
}

const ROW = 26;
const LABEL = 150;
const WIDTH = 520;
const CAPTION = 110;

/** A titled bar chart. */
export function BarChart({
  title,
  bars,
  legend,
}: {
  title: string;
  bars: ReadonlyArray<Bar>;
  legend?: ReadonlyArray<BarPart>;
}) {
  const max = Math.max(1e-9, ...bars.map((b) => b.parts.reduce((sum, p) => sum + p.value, 0)));
  const span = WIDTH - LABEL - CAPTION;
  const height = bars.length * ROW + 4;
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${height}`} width="100%" role="img" aria-label={title}>
        {bars.map((bar, i) => {
          let x = LABEL;
          const total = bar.parts.reduce((sum, p) => sum + p.value, 0);
          return (
            <g key={bar.label} transform={`translate(0 ${i * ROW + 2})`}>
              <text x={LABEL - 8} y={ROW / 2 + 4} text-anchor="end" class="chart-label">
                {bar.label}
              </text>
              {bar.parts.map((part) => {
                const w = (part.value / max) * span;
                const rect = (
                  <rect
                    key={part.label}
                    x={x}
                    y={4}
                    width={Math.max(0, w)}
                    height={ROW - 8}
                    class={part.tone}
                  />
                );
                x += w;
                return rect;
              })}
              <text x={x + 6} y={ROW / 2 + 4} class="chart-value">
                {bar.caption ?? String(total)}
              </text>
            </g>
          );
        })}
      </svg>
      {legend && legend.length > 1 ? (
        <ul class="legend">
          {legend.map((part) => (
            <li key={part.label}>
              <span class={`swatch ${part.tone}`} aria-hidden="true" /> {part.label}
            </li>
          ))}
        </ul>
      ) : null}
    </figure>
  );
}
