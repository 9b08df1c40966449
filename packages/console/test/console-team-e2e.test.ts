/**
 * Team work in a real browser (Debian's Chromium) against a real `openkyt serve` on the demo
 * database, at desktop (1440x900) and phone (390x844) widths: an admin requires a second admin's
 * approval of risk model versions and sets the account's block explorer (a refused template
 * first); a model written then waits for approval, its author cannot approve it, a second admin
 * approves one version and rejects another with a reason; explorer links use the account's
 * template; an analyst shares a saved view, which a second admin sees under "Team views" and may
 * delete. axe runs on every screen (no serious or critical violation); screenshots go to
 * test-output/console/ (docs/images/console/ keeps the ones docs/console.md shows).
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath, launch, seriousViolations, shoot } from "./console-browser.js";
import { type ConsoleServer, startConsoleServer } from "./console-server.js";

const ADMIN = "admin@demo.openkyt.test";
const ANALYST = "analyst@demo.openkyt.test";
const SECOND = "second-admin@demo.openkyt.test";
const PASSWORD = "demo-password-do-not-use";
const EXPLORER = "https://eth.blockscout.com";
const executable = chromiumPath();

const WIDTHS = [
  { name: "desktop", viewport: { width: 1440, height: 900 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
] as const;

describe.skipIf(!executable)(
  "team settings, model approval and shared views in Chromium",
  { timeout: 900_000 },
  () => {
    let server: ConsoleServer;
    let browser: Browser;

    const screen = async (p: Page, name: string, fullPage = false) => {
      await p.waitForLoadState("networkidle");
      await shoot(p, name, fullPage);
      expect(await seriousViolations(p), `axe on ${name}`).toEqual([]);
    };

    beforeAll(async () => {
      server = await startConsoleServer();
      server.cli(
        [
          "users",
          "create",
          "--account",
          "demo",
          "--email",
          SECOND,
          "--role",
          "admin",
          "--password-stdin",
          "--db",
          server.db,
        ],
        `${PASSWORD}\n`,
      );
      browser = await launch(executable ?? "");
    }, 600_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    /** A signed-in page of its own context (its own session cookie). */
    async function signIn(
      email: string,
      viewport: { width: number; height: number },
    ): Promise<{ context: BrowserContext; page: Page }> {
      const context = await browser.newContext({ viewport, bypassCSP: true });
      context.setDefaultTimeout(30_000);
      const page = await context.newPage();
      await page.goto(`${server.url}/console/`);
      await page.getByLabel("E-mail").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Overview" }).waitFor();
      return { context, page };
    }

    for (const { name: width, viewport } of WIDTHS) {
      it(`${width}: approval required, explorers set, a version approved and one rejected, a view shared`, async () => {
        const { context, page } = await signIn(ADMIN, viewport);
        const second = await signIn(SECOND, viewport);
        const analyst = await signIn(ANALYST, viewport);
        try {
          // Team settings: require approval (once: the phone run finds it on) and set ETH's explorer.
          await page.goto(`${server.url}/console/#/settings`);
          await page.getByRole("heading", { name: "Team settings" }).waitFor();
          const turnOn = page.getByRole("button", { name: "Require a second admin's approval" });
          // Wait for the setting to be read (either button), then turn it on if it is off.
          await page
            .getByRole("button", { name: /Require a second admin's approval|Stop requiring approval/ })
            .waitFor();
          if (await turnOn.isVisible()) await turnOn.click();
          await page.getByRole("button", { name: "Stop requiring approval" }).waitFor();
          await page.getByLabel("ETH address URL template").fill("http://scan.example/address/{address}");
          await page.getByLabel("ETH transaction URL template").fill(`${EXPLORER}/tx/`);
          await page.getByRole("button", { name: "Save the explorers" }).click();
          await page
            .getByText(/Not saved: explorer settings: explorers\.ETH\.address: must be an https URL/)
            .waitFor();
          expect(await page.getByLabel("ETH address URL template").getAttribute("aria-invalid")).toBe("true");
          await page.getByText("must contain {tx}").waitFor();
          await screen(page, `40-${width}-explorer-errors`);
          await page.getByLabel("ETH address URL template").fill(`${EXPLORER}/address/{address}`);
          await page.getByLabel("ETH transaction URL template").fill(`${EXPLORER}/tx/{tx}`);
          await page.getByRole("button", { name: "Save the explorers" }).click();
          await page.getByText("Saved: links use them now.").waitFor();
          await screen(page, `41-${width}-team-settings`);

          // Explorer links now use the account's template.
          await page.goto(`${server.url}/console/#/transfers`);
          await page.locator('a[href^="#/transfers/"]').first().click();
          const link = page.locator("a.explorer").first();
          await link.waitFor();
          expect(await link.getAttribute("href")).toMatch(new RegExp(`^${EXPLORER}/(address|tx)/0x`));

          // A new model waits for approval; its author cannot approve it.
          await page.goto(`${server.url}/console/#/risk-models`);
          await page.getByRole("button", { name: "Copy the built-in model" }).click();
          await page.getByRole("heading", { name: "Version 1 waits for approval" }).waitFor();
          await page.getByText("You proposed it: another admin approves it.").waitFor();
          expect(await page.getByRole("button", { name: /^Approve version/ }).count()).toBe(0);
          const modelUrl = page.url();
          await screen(page, `42-${width}-approval-own`);

          // The second admin sees who proposed it and approves it.
          await second.page.goto(modelUrl);
          const banner = second.page.getByRole("region", { name: "Version 1 waits for approval" });
          await banner.getByText(`user:${ADMIN}`).waitFor();
          await screen(second.page, `43-${width}-approval-pending`);
          await second.page.getByRole("button", { name: "Approve version 1" }).click();
          await banner.waitFor({ state: "detached" });
          const history = second.page.getByRole("region", { name: "Version history" });
          await history.getByText(new RegExp(`approved by user:${SECOND}`)).waitFor();
          await history.scrollIntoViewIfNeeded();
          await screen(second.page, `44-${width}-approved-history`);

          // Another proposal (a copy of it), rejected with a reason: it never checks.
          await page.goto(`${server.url}/console/#/risk-models`);
          await page.getByRole("button", { name: "Copy the built-in model" }).click();
          await page.getByRole("heading", { name: "Version 1 waits for approval" }).waitFor();
          await second.page.goto(page.url());
          await second.page.getByRole("button", { name: "Reject version 1" }).click();
          // No reason: the browser's required field stops it; the server would refuse it too.
          expect(await second.page.getByRole("heading", { name: "Version 1 was rejected" }).count()).toBe(0);
          await second.page.getByLabel("Reason to reject").fill("Copies the built-in model unchanged");
          await second.page.getByRole("button", { name: "Reject version 1" }).click();
          await second.page.getByRole("heading", { name: "Version 1 was rejected" }).waitFor();
          await second.page
            .getByText(/Copies the built-in model unchanged/)
            .first()
            .waitFor();
          await screen(second.page, `45-${width}-rejected`);

          // The audit log records both decisions and the settings.
          await page.goto(`${server.url}/console/#/audit`);
          await page.getByText("risk_model.approved").first().waitFor();
          await page.getByText("risk_model.rejected").first().waitFor();
          await page.getByText("explorers.updated").first().waitFor();

          // An analyst shares a view; a second admin sees it under Team views and may delete it.
          const viewName = `Severe open (${width})`;
          await analyst.page.goto(`${server.url}/console/#/alerts?alert_status=open&risk_level=severe`);
          await analyst.page.getByLabel("Save these filters as").fill(viewName);
          await analyst.page.getByLabel("Share with the team").check();
          await analyst.page.getByRole("button", { name: "Save view" }).click();
          const mine = analyst.page.getByRole("navigation", { name: "Saved views" });
          await mine.getByRole("button", { name: `Stop sharing the view ${viewName}` }).waitFor();
          await screen(analyst.page, `46-${width}-view-shared`);
          await second.page.goto(`${server.url}/console/#/alerts`);
          const team = second.page.getByRole("navigation", { name: "Team views" });
          await team.getByRole("link", { name: viewName }).waitFor();
          await team.getByText(`by ${ANALYST}`).first().waitFor();
          // Read-only for others: no share toggle; an admin may delete it.
          expect(await team.getByRole("button", { name: `Stop sharing the view ${viewName}` }).count()).toBe(
            0,
          );
          await team.getByRole("button", { name: `Delete the view ${viewName}` }).waitFor();
          await screen(second.page, `47-${width}-team-views`);
          await team.getByRole("button", { name: `Delete the view ${viewName}` }).click();
          await team.getByRole("link", { name: viewName }).waitFor({ state: "detached" });
        } finally {
          await context.close();
          await second.context.close();
          await analyst.context.close();
        }
      });
    }
  },
);
