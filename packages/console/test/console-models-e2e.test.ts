/**
 * The model editor and backtests in a real browser (Debian's Chromium) against a real `openkyt
 * serve` on the demo database, at desktop (1440x900) and phone (390x844) widths: search and group
 * the 189 rules, a refused save listing every error with the focus on the first, the change reason
 * and the diff before saving, the version history, and a backtest whose report names the model
 * and version, shows alerts by level, the moved transfers with hash and levels, the sanctions
 * warning and "never checked". axe runs on every screen (no serious or critical violation);
 * screenshots go to test-output/console/ (docs/images/console/ keeps the ones docs/console.md shows).
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath, launch, seriousViolations, shoot } from "./console-browser.js";
import { type ConsoleServer, startConsoleServer } from "./console-server.js";

const ADMIN = "admin@demo.openkyt.test";
const PASSWORD = "demo-password-do-not-use";
const executable = chromiumPath();

const WIDTHS = [
  { name: "desktop", viewport: { width: 1440, height: 900 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
] as const;

describe.skipIf(!executable)("the model editor and backtests in Chromium", { timeout: 300_000 }, () => {
  let server: ConsoleServer;
  let browser: Browser;

  const screen = async (p: Page, name: string, fullPage = false) => {
    await p.waitForLoadState("networkidle");
    await shoot(p, name, fullPage);
    expect(await seriousViolations(p), `axe on ${name}`).toEqual([]);
  };

  beforeAll(async () => {
    server = await startConsoleServer();
    browser = await launch(executable ?? "");
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const { name: width, viewport } of WIDTHS) {
    it(`${width}: searches and groups the rules, reports every error at once, saves with a reason and a diff, then backtests`, async () => {
      const context = await browser.newContext({ viewport, bypassCSP: true, acceptDownloads: true });
      context.setDefaultTimeout(25_000);
      const page = await context.newPage();
      try {
        await page.goto(`${server.url}/console/`);
        await page.getByLabel("E-mail").fill(ADMIN);
        await page.getByLabel("Password").fill(PASSWORD);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.getByRole("heading", { name: "Overview" }).waitFor();
        await page.goto(`${server.url}/console/#/risk-models`);
        await page.getByRole("button", { name: "Copy the built-in model" }).click();
        await page.getByRole("heading", { name: /version 1/ }).waitFor();
        const rows = page.locator("table.rules tbody tr:not(.group-row)");
        const total = await rows.count();
        expect(total).toBeGreaterThan(100);

        // Search: by category, then by rule number; grouping by level adds a header per level.
        const search = page.getByLabel("Search rules");
        await search.fill("sanctions");
        await expect.poll(() => rows.count()).toBeLessThan(total);
        const sanctions = await rows.count();
        expect(sanctions).toBeGreaterThan(0);
        await page.getByText(`Showing ${sanctions} of ${total} rules.`).waitFor();
        await page.getByLabel("Group by").selectOption("risk_level");
        expect(await page.locator("table.rules tr.group-row").count()).toBeGreaterThan(0);
        await screen(page, `15-${width}-rules-search`);
        await search.fill("12");
        await expect.poll(() => rows.count()).toBe(1);
        expect(await rows.first().locator("th").textContent()).toBe("12");
        await page.getByLabel("Group by").selectOption("none");

        // A refused save: a bad share on rule 12 (hidden once the search changes) and no reason.
        await page.getByLabel("Rule 12 min value share").fill("2");
        await search.fill("mixer");
        await page.getByRole("button", { name: "Save as a new version" }).click();
        const summary = page.getByRole("alert").filter({ hasText: "Not saved: 2 problems" });
        await summary.waitFor();
        await summary.getByRole("link", { name: /^Rule 12 min value share: must be/ }).waitFor();
        await summary.getByRole("link", { name: /^Change reason:/ }).waitFor();
        // The search was cleared so the first invalid field could take the focus.
        await expect.poll(() => page.evaluate("document.activeElement?.id")).toBe("rule-11-min_value_share");
        expect(await page.getByLabel("Rule 12 min value share").getAttribute("aria-invalid")).toBe("true");
        await screen(page, `16-${width}-rules-errors`);

        // Fixed, with a reason: the diff is shown before saving, then kept in the history.
        await page.getByLabel("Rule 12 min value share").fill("0.2");
        // Remove the sanctions rules, found by the search (from the last, so the others keep their numbers).
        await search.fill("sanctions");
        await expect.poll(() => rows.count()).toBe(sanctions);
        const removed = (await rows.locator("th").allTextContents()).filter((n) => /^\d+$/.test(n.trim()));
        expect(removed.length).toBeGreaterThan(0);
        for (const n of [...removed].reverse())
          await page.getByRole("button", { name: `Remove rule ${n}` }).click();
        await search.fill("");
        const pending = page.getByRole("region", { name: /^Unsaved changes:/ });
        await pending.getByText(`0 added, ${removed.length} removed, 1 changed`).waitFor();
        await pending.getByText(/Changed rule 12: min value share/).waitFor();
        await page
          .getByLabel("Change reason (required for a new version)")
          .fill("Sanctions alerts come from the list screening only");
        await page.locator("#pending-title").scrollIntoViewIfNeeded();
        await screen(page, `17-${width}-rules-diff`);
        await page.getByRole("button", { name: "Save as a new version" }).click();
        await page.getByText("Saved as version 2").waitFor();
        const history = page.getByRole("region", { name: "Version history" });
        await history.getByText("Sanctions alerts come from the list screening only").waitFor();
        await history
          .getByText(`Changes against version 1: 0 added, ${removed.length} removed, 1 changed`)
          .click();
        await history
          .getByText(/Removed rule \d+ of the previous version: entity/)
          .first()
          .waitFor();
        await history.scrollIntoViewIfNeeded();
        await screen(page, `18-${width}-version-history`);

        // The backtest: the candidate drops the sanctions findings, and says so.
        await page.getByText("Backtest: what would this model").click();
        await page.getByRole("button", { name: "Run the backtest" }).click();
        const report = page.getByRole("region", { name: /^Report:/ });
        await report.waitFor();
        expect(await report.getByRole("heading", { level: 3 }).textContent()).toMatch(
          /Report: .+ \(version 2\),/,
        );
        await report
          .getByRole("alert")
          .getByText(/Sanctions findings dropped/)
          .waitFor();
        await report.getByRole("heading", { name: "Alerts by level" }).waitFor();
        const moved = report.getByRole("region", { name: /^Transfers that change level/ });
        const movedRows = moved.locator("tbody tr");
        expect(await movedRows.count()).toBeGreaterThan(0);
        // Each moved transfer: a link, its network, its hash (or "not bound yet"), value and both levels.
        const cells = await movedRows.first().locator("td").allTextContents();
        expect(cells).toHaveLength(6);
        expect(cells[2]).toMatch(/^0x|not bound yet/);
        expect(cells[4]).not.toBe(cells[5]);
        await report.locator("#bt-report").scrollIntoViewIfNeeded();
        await screen(page, `19-${width}-backtest-report`);
        await moved.scrollIntoViewIfNeeded();
        await screen(page, `20-${width}-backtest-moved`);
      } finally {
        await context.close();
      }
    });
  }
});
