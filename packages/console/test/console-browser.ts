/**
 * Debian's Chromium driven by playwright-core (no browser download), with axe-core run on each
 * screen and a screenshot of each saved under test-output/console/.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { ROOT } from "./console-server.js";

/** Where the screenshots go (looked at by a person: docs/console.md shows them). */
export const SHOTS = join(ROOT, "test-output", "console");

/** The Chromium to drive: $CHROMIUM_PATH, else Debian's. */
export function chromiumPath(): string | null {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  return candidates.find((p): p is string => typeof p === "string" && p !== "" && existsSync(p)) ?? null;
}

/** Launches Chromium headless (`--no-sandbox` when root, as in CI). */
export async function launch(executablePath: string): Promise<Browser> {
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  return chromium.launch({ executablePath, headless: true, args: root ? ["--no-sandbox"] : [] });
}

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** One axe violation, as reported. */
export interface Violation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: ReadonlyArray<string>;
}

/** The serious and critical axe violations of the page as it is now. */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  // Strings, not functions: they run in the page, whose DOM types this Node program does not have.
  if (!(await page.evaluate("typeof axe !== 'undefined'"))) await page.addScriptTag({ content: AXE });
  const found = (await page.evaluate("axe.run(document).then((result) => result.violations)")) as Array<{
    id: string;
    impact: string | null;
    help: string;
    nodes: Array<{ target: string[] }>;
  }>;
  return found
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(" ")),
    }));
}

/** Saves a screenshot named `name`.png: the whole page, or (`fullPage: false`) what the window shows. */
export async function shoot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
}
