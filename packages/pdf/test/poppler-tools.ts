/**
 * Reading rendered PDFs back with poppler-utils (pdftotext, pdfinfo, pdffonts, pdftoppm), as a
 * person's viewer would. Without poppler the suites skip, saying why, except under CI, where
 * `.ci/run` installs it and its absence is a failure.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function hasPdftotext(): boolean {
  try {
    execFileSync("pdftotext", ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Why the poppler suites cannot run here, or null when they can. */
export function popplerMissing(): string | null {
  if (hasPdftotext()) return null;
  const reason = "pdftotext (poppler-utils) is not installed: apt-get install -y poppler-utils";
  if (process.env.CI) throw new Error(`the PDF text suites cannot run under CI: ${reason}`);
  console.warn(`skipping the PDF text suites: ${reason}`);
  return reason;
}

/** Runs a poppler tool on the bytes (written to a temporary file) and returns its stdout. */
function run(tool: string, args: string[], bytes: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), "openkyt-pdf-"));
  try {
    const file = join(dir, "report.pdf");
    writeFileSync(file, bytes);
    return execFileSync(tool, [...args, file, ...(tool === "pdftotext" ? ["-"] : [])], { encoding: "utf8" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of every page (or of pages `first` to `last`), whitespace runs collapsed to one space. */
export function pdfText(bytes: Uint8Array, pages?: { first: number; last: number }): string {
  const range = pages ? ["-f", String(pages.first), "-l", String(pages.last)] : [];
  return run("pdftotext", ["-layout", "-enc", "UTF-8", ...range], bytes)
    .replace(/\s+/g, " ")
    .trim();
}

/** The text with no whitespace at all: finds hashes and addresses even where they wrap. */
export function compactText(bytes: Uint8Array): string {
  return pdfText(bytes).replace(/\s+/g, "");
}

/** pdfinfo's fields (Title, Author, CreationDate, Pages, ...). */
export function pdfInfo(bytes: Uint8Array): Record<string, string> {
  const info: Record<string, string> = {};
  for (const line of run("pdfinfo", ["-isodates"], bytes).split("\n")) {
    const at = line.indexOf(":");
    if (at > 0) info[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return info;
}

/** The font table rows of pdffonts (name, type, encoding, emb, sub, uni, object). */
export function pdfFonts(bytes: Uint8Array): string[][] {
  return run("pdffonts", [], bytes)
    .split("\n")
    .slice(2)
    .filter((l) => l.trim() !== "")
    .map((l) => l.trim().split(/\s+/));
}

/** Words with their boxes, in points, from `pdftotext -bbox`. */
export function pdfWords(
  bytes: Uint8Array,
): Array<{ page: number; text: string; xMax: number; yMax: number }> {
  const html = run("pdftotext", ["-bbox"], bytes);
  const words: Array<{ page: number; text: string; xMax: number; yMax: number }> = [];
  let page = 0;
  for (const line of html.split("\n")) {
    if (line.includes("<page ")) page += 1;
    const m = /<word xMin="[\d.]+" yMin="[\d.]+" xMax="([\d.]+)" yMax="([\d.]+)">(.*)<\/word>/.exec(line);
    if (m) words.push({ page, xMax: Number(m[1]), yMax: Number(m[2]), text: m[3] ?? "" });
  }
  return words;
}

/** Renders every page to `<dir>/<name>-<page>.png` at the given resolution; returns the file names. */
export function pdfToPngs(bytes: Uint8Array, dir: string, name: string, dpi = 60): string[] {
  mkdirSync(dir, { recursive: true });
  const pdf = join(dir, `${name}.pdf`);
  writeFileSync(pdf, bytes);
  execFileSync("pdftoppm", ["-png", "-r", String(dpi), pdf, join(dir, name)]);
  const pages = Number(pdfInfo(bytes).Pages);
  const digits = String(pages).length;
  return Array.from({ length: pages }, (_, i) =>
    join(dir, `${name}-${String(i + 1).padStart(digits, "0")}.png`),
  );
}
