/**
 * A Bitcoin deposit's strongest path in the console, in Debian's Chromium against a real
 * `openkyt serve` on the demo database: the demo's BTC deposit funded by ransomware payments is
 * drawn coin by coin, from the customer's own output (hop 0), each coin with its `txid:vout`
 * shortened (whole on copy) and its value in BTC with 8 decimals, under a note naming the taint
 * rule. axe-core runs on the screen; the screenshots go to test-output/console/.
 */
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath, launch, SHOTS, seriousViolations, shoot } from "./console-browser.js";
import { type ConsoleServer, startConsoleServer } from "./console-server.js";

const ADMIN = "admin@demo.openkyt.test";
const PASSWORD = "demo-password-do-not-use";
const executable = chromiumPath();

describe.skipIf(!executable)("a BTC deposit's path in Chromium", { timeout: 90_000 }, () => {
  let server: ConsoleServer;
  let browser: Browser;
  let page: Page;
  let transferId = "";

  beforeAll(async () => {
    server = await startConsoleServer();
    browser = await launch(executable ?? "");
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    await page.goto(`${server.url}/console/`);
    await page.getByLabel("E-mail").fill(ADMIN);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Overview" }).waitFor();
    // The demo's BTC deposit whose funds trace to ransomware payments.
    transferId = (await page.evaluate(`fetch("/v1/alerts/?page_size=100")
      .then((r) => r.json())
      .then((p) => p.items.find((a) => a.transfer.network === "BTC" && a.entity_interaction
        && a.entity_interaction.entity_category === "ransomware"))
      .then((a) => (a ? a.transfer.id : ""))`)) as string;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("draws the path coin by coin: the customer's output first, each coin's txid:vout and value, the rule named", async () => {
    expect(transferId).not.toBe("");
    await page.goto(`${server.url}/console/#/transfers/${transferId}`);
    const path = page.getByRole("list", { name: "Path to ransomware" });
    await path.waitFor();
    const steps = path.locator(":scope > li");
    expect(await steps.first().textContent()).toContain("Your customer (recipient): this transfer's output");
    expect(await steps.nth(1).textContent()).toContain("Counterparty (sender, hop 1)");
    for (let n = 0; n < (await steps.count()); n++) {
      expect(await steps.nth(n).textContent()).toMatch(/its coin .*\d\.\d{8} BTC/);
    }
    expect(await page.getByText(/Traced coin by coin by the haircut rule/).count()).toBe(1);
    // The coin's txid:vout is shortened on screen and whole on the clipboard.
    await steps
      .first()
      .getByRole("button", { name: /^Copy transaction/ })
      .click();
    const copied = (await page.evaluate("navigator.clipboard.readText()")) as string;
    expect(copied).toMatch(/^[0-9a-f]{64}:\d+$/);
    await page.waitForLoadState("networkidle");
    await shoot(page, "btc-deposit-path");
    // The paths alone (docs/images/console/btc-deposit-path.png keeps this one).
    await page
      .getByRole("heading", { name: "Strongest paths" })
      .locator("xpath=..")
      .screenshot({ path: join(SHOTS, "btc-deposit-path-detail.png") });
    expect(await seriousViolations(page)).toEqual([]);
  });
});
