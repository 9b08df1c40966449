/**
 * A log-log CCDF plot as SVG text: panels side by side, decades on both axes, one line (or dots)
 * per series, a legend per panel. Small on purpose: the shape fit's one figure.
 */

/** One curve: (x, y) points with x >= 1 and 0 < y <= 1. */
export interface Series {
  readonly label: string;
  readonly points: ReadonlyArray<readonly [number, number]>;
  readonly color: string;
  /** Draw dots instead of a line. */
  readonly dots?: boolean;
}

const PANEL_W = 520;
const PANEL_H = 420;
const MARGIN = { left: 70, right: 20, top: 40, bottom: 55 };

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The SVG of `panels`, each a log-log CCDF of its series. */
export function svgCcdfPlot(panels: ReadonlyArray<{ title: string; series: ReadonlyArray<Series> }>): string {
  const width = PANEL_W * panels.length;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${PANEL_H}" font-family="DejaVu Sans" font-size="12">`,
    `<rect width="${width}" height="${PANEL_H}" fill="white"/>`,
  ];
  for (const [p, panel] of panels.entries()) {
    const all = panel.series.flatMap((s) => s.points);
    const xDecades = Math.max(1, Math.ceil(Math.log10(Math.max(...all.map(([x]) => x)))));
    const yDecades = Math.max(1, Math.ceil(-Math.log10(Math.min(...all.map(([, y]) => y)))));
    const x0 = p * PANEL_W + MARGIN.left;
    const plotW = PANEL_W - MARGIN.left - MARGIN.right;
    const plotH = PANEL_H - MARGIN.top - MARGIN.bottom;
    const sx = (x: number) => x0 + (Math.log10(x) / xDecades) * plotW;
    const sy = (y: number) => MARGIN.top + (-Math.log10(y) / yDecades) * plotH;
    parts.push(
      `<text x="${x0 + plotW / 2}" y="${MARGIN.top - 15}" text-anchor="middle" font-size="14">${escapeXml(panel.title)}</text>`,
      `<rect x="${x0}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#888"/>`,
    );
    for (let d = 0; d <= xDecades; d++) {
      const x = sx(10 ** d);
      parts.push(
        `<line x1="${x}" y1="${MARGIN.top}" x2="${x}" y2="${MARGIN.top + plotH}" stroke="#e4e4e4"/>`,
        `<text x="${x}" y="${MARGIN.top + plotH + 18}" text-anchor="middle">10^${d}</text>`,
      );
    }
    for (let d = 0; d <= yDecades; d++) {
      const y = sy(10 ** -d);
      parts.push(
        `<line x1="${x0}" y1="${y}" x2="${x0 + plotW}" y2="${y}" stroke="#e4e4e4"/>`,
        `<text x="${x0 - 8}" y="${y + 4}" text-anchor="end">10^-${d}</text>`,
      );
    }
    parts.push(
      `<text x="${x0 + plotW / 2}" y="${PANEL_H - 15}" text-anchor="middle">transfers k</text>`,
      `<text x="${x0 - 52}" y="${MARGIN.top + plotH / 2}" text-anchor="middle" transform="rotate(-90 ${x0 - 52} ${MARGIN.top + plotH / 2})">P(degree &gt;= k)</text>`,
    );
    for (const s of panel.series) {
      if (s.dots) {
        for (const [x, y] of s.points) {
          parts.push(`<circle cx="${sx(x).toFixed(1)}" cy="${sy(y).toFixed(1)}" r="2.5" fill="${s.color}"/>`);
        }
      } else {
        const d = s.points.map(
          ([x, y], i) => `${i === 0 ? "M" : "L"}${sx(x).toFixed(1)} ${sy(y).toFixed(1)}`,
        );
        parts.push(`<path d="${d.join(" ")}" fill="none" stroke="${s.color}" stroke-width="2"/>`);
      }
    }
    for (const [i, s] of panel.series.entries()) {
      const y = MARGIN.top + 18 + i * 18;
      const x = x0 + plotW - 250;
      parts.push(
        s.dots
          ? `<circle cx="${x + 10}" cy="${y - 4}" r="3" fill="${s.color}"/>`
          : `<line x1="${x}" y1="${y - 4}" x2="${x + 20}" y2="${y - 4}" stroke="${s.color}" stroke-width="2"/>`,
        `<text x="${x + 28}" y="${y}">${escapeXml(s.label)}</text>`,
      );
    }
  }
  parts.push("</svg>");
  return parts.join("\n");
}
