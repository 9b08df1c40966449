/**
 * The funds-flow graph as a file for a case file: the SVG as drawn (its colours and fonts are
 * attributes, so it stands alone), or a PNG drawn from that SVG onto a canvas in the browser at
 * twice its size. The SVG is loaded as a `data:` image, which the console's Content-Security-Policy
 * allows (`img-src 'self' data:`), so nothing leaves the browser.
 */

/** The standalone text of an SVG element: interactive attributes dropped, the XML declaration added. */
export function svgText(svg: SVGSVGElement): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  for (const el of copy.querySelectorAll("[tabindex]")) el.removeAttribute("tabindex");
  copy.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}`;
}

/** Offers `blob` as a download named `name`. */
function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads the graph as `name`.svg. */
export function downloadSvg(svg: SVGSVGElement, name: string): void {
  download(new Blob([svgText(svg)], { type: "image/svg+xml" }), `${name}.svg`);
}

/** Downloads the graph as `name`.png, drawn at `scale` times its size. */
export async function downloadPng(svg: SVGSVGElement, name: string, scale = 2): Promise<void> {
  const width = Number(svg.getAttribute("width"));
  const height = Number(svg.getAttribute("height"));
  const image = new Image(width, height);
  const loaded = new Promise<void>((resolve, reject) => {
    image.onload = () => resolve();
    image.onerror = () => reject(new Error("the browser could not draw the graph as an image"));
  });
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText(svg))}`;
  await loaded;
  const canvas = document.createElement("canvas");
  canvas.width = Math.ceil(width * scale);
  canvas.height = Math.ceil(height * scale);
  const context = canvas.getContext("2d");
  if (!context) throw new Error("the browser has no 2D canvas");
  context.scale(scale, scale);
  context.drawImage(image, 0, 0, width, height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
  if (!blob) throw new Error("the browser could not encode the PNG");
  download(blob, `${name}.png`);
}
