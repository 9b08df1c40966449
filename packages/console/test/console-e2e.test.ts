/**
 * The console end to end in a real browser (Debian's Chromium) against a real `openkyt serve` on
 * the demo's SQLite database: sign in, find a severe alert, move it open -> in progress -> done
 * with comments and read the history, see an illegal transition refused, edit a risk model into
 * version 2 (a bad value shown at its field first), run a manual address check and open its PDF,
 * sign out, and an analyst refused an admin page. axe-core runs on every screen (no serious or
 * critical violation); each screen is saved under test-output/console/.
 *
 * Without Chromium the tests are skipped with a message, except under CI (CI=true), where its
 * absence fails (.ci/run installs it).
 */
import { readFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath, launch, seriousViolations, shoot } from "./console-browser.js";
import { type ConsoleServer, startConsoleServer } from "./console-server.js";

const ADMIN = "admin@demo.openkyt.test";
const ANALYST = "analyst@demo.openkyt.test";
const PASSWORD = "demo-password-do-not-use";

const executable = chromiumPath();
if (!executable)
  console.log("console browser tests skipped: no Chromium (apt-get install chromium, or set CHROMIUM_PATH)");

if (!executable && process.env.CI === "true") {
  describe("Chromium under CI", () => {
    it("is installed: .ci/run installs it, so its absence fails rather than skips", () => {
      expect.fail("no Chromium at /usr/bin/chromium (set CHROMIUM_PATH)");
    });
  });
}

// Room for a loaded CI machine (the whole suite runs beside it); the run itself takes 15-40 s.
describe.skipIf(!executable)("the console in Chromium", { timeout: 60_000 }, () => {
  let server: ConsoleServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  /** Checks the screen with axe and saves it. */
  const screen = async (p: Page, name: string, fullPage = true) => {
    await p.waitForLoadState("networkidle");
    await shoot(p, name, fullPage);
    expect(await seriousViolations(p), `axe on ${name}`).toEqual([]);
  };

  const signIn = async (p: Page, email: string) => {
    await p.goto(`${server.url}/console/`);
    await p.getByLabel("E-mail").fill(email);
    await p.getByLabel("Password").fill(PASSWORD);
    await p.getByRole("button", { name: "Sign in" }).click();
    await p.getByRole("heading", { name: "Overview" }).waitFor();
  };

  beforeAll(async () => {
    server = await startConsoleServer();
    browser = await launch(executable ?? "");
    // axe-core is injected as an inline script, which the console's Content-Security-Policy forbids.
    context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      bypassCSP: true,
      acceptDownloads: true,
    });
    // A step that cannot happen fails within 20 s, naming its locator, before the test's own limit.
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("signs in (a wrong password is refused in words) and shows the overview", async () => {
    await page.goto(`${server.url}/console/`);
    await screen(page, "01-sign-in");
    await page.getByLabel("E-mail").fill(ADMIN);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("wrong e-mail or password");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Overview" }).waitFor();
    await page.getByRole("heading", { name: "My queue" }).waitFor();
    await screen(page, "02-overview");
    // The operations figures have their own page.
    await page.getByRole("link", { name: "Operations" }).click();
    await page.getByText("Open alerts by risk level").waitFor();
    await page.getByText("Slowest checks of the last 100 transfers").waitFor();
    await screen(page, "02b-operations");
  });

  it("finds a severe alert and works it open -> in progress -> done, with the history naming the user", async () => {
    await page.getByRole("link", { name: "Alerts", exact: true }).click();
    await page.getByLabel("Risk level").selectOption("severe");
    await page.getByLabel("Status").selectOption("open");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect.poll(() => page.url()).toContain("risk_level=severe");
    const rows = page.locator("table.queue tbody tr");
    // Every row shown is severe (polled: the previous page stays on screen until the new one comes).
    await expect
      .poll(async () => {
        const shown = await rows.count();
        return shown > 0 && (await rows.locator(".risk-severe").count()) === shown;
      })
      .toBe(true);
    await screen(page, "03-alert-queue");

    await rows.first().getByRole("link").click();
    await page.getByRole("heading", { name: "History" }).waitFor();
    const status = page.getByLabel("New status");
    // Only the next states the alert machine allows are offered.
    expect(await status.locator("option").allTextContents()).toEqual(["keep open", "in progress"]);
    // The assignee is one of the account's users, chosen from a list.
    await page.getByLabel("Assignee").selectOption(ANALYST);
    await page.getByText(`assigned to ${ANALYST}`).first().waitFor();
    await status.selectOption("in_progress");
    await page.getByLabel("Comment").fill("Looking into the sanctions exposure");
    await page.getByRole("button", { name: "Save" }).click();
    const timeline = page.getByRole("list", { name: "History" });
    await timeline.getByText("Looking into the sanctions exposure").waitFor();
    expect(await timeline.textContent()).toContain(`user:${ADMIN}`);
    await page.getByText(`assigned to ${ANALYST}`).first().waitFor();
    expect(await status.locator("option").allTextContents()).toEqual([
      "keep in progress",
      "awaiting response",
      "done",
    ]);
    await status.selectOption("done");
    // Closing is a decision: it needs an outcome and a comment.
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("alert").getByText("closing needs an outcome and a comment").waitFor();
    await page.getByLabel("Outcome").selectOption("reported_to_fiu");
    await page.getByLabel("Comment").fill("Reported; customer offboarded");
    await page.getByRole("button", { name: "Save" }).click();
    await timeline.getByText("Reported; customer offboarded").waitFor();
    const entries = await timeline.locator("li").allTextContents();
    expect(entries).toHaveLength(4);
    expect(entries[1]).toContain(`assigned to ${ANALYST}`);
    expect(entries[2]).toContain("open → in progress");
    expect(entries[3]).toContain("in progress → done");
    expect(entries[3]).toContain("Decision: reported to the FIU.");
    await screen(page, "04-alert-page");
  });

  it("refuses an illegal transition made from a stale page, saying which states are allowed", async () => {
    await page.goto(`${server.url}/console/#/alerts?risk_level=severe&alert_status=open`);
    const first = page.locator("table.queue tbody tr").first();
    await first.getByRole("link").click();
    await page.getByLabel("New status").selectOption("in_progress");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("list", { name: "History" }).locator("li").nth(1).waitFor();
    // A second tab still shows the alert in progress while the first moves it to done.
    const stale = await context.newPage();
    await stale.goto(page.url());
    await stale.getByLabel("New status").selectOption("awaiting_response");
    await page.getByLabel("New status").selectOption("done");
    await page.getByLabel("Outcome").selectOption("false_positive");
    await page.getByLabel("Comment").fill("Known counterparty");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("list", { name: "History" }).locator("li").nth(2).waitFor();
    await stale.getByRole("button", { name: "Save" }).click();
    const refusal = stale.getByRole("alert");
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/Not saved: .*done.*ILLEGAL_TRANSITION/);
    // The refused page now shows the alert as it is, offering only what the machine allows from done.
    await expect
      .poll(() => stale.getByLabel("New status").locator("option").allTextContents())
      .toEqual(["keep done", "open"]);
    await shoot(stale, "05-illegal-transition");
    await stale.close();
  });

  it("selects alerts with the keyboard and moves them together with one comment", async () => {
    await page.goto(`${server.url}/console/#/alerts?alert_status=open&risk_level=medium`);
    const rows = page.locator("table.queue tbody tr");
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
    await rows.first().focus();
    await page.keyboard.press("x");
    await page.keyboard.press("j");
    await page.keyboard.press("x");
    await page.getByText("2 selected").waitFor();
    await page.getByLabel("Move to").selectOption("in_progress");
    await page.getByLabel("Comment", { exact: true }).fill("Bulk triage: mixer deposits");
    await page.getByRole("button", { name: "Apply to selected" }).click();
    await page.getByText("2 alert(s) changed.").waitFor();
    await page.getByLabel("Status").selectOption("in_progress");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect
      .poll(async () => {
        const shown = await rows.count();
        return shown === 2 && (await rows.locator(".status-in_progress").count()) === shown;
      })
      .toBe(true);
    await rows.first().focus();
    await page.keyboard.press("Enter");
    await page.getByRole("list", { name: "History" }).getByText("Bulk triage: mixer deposits").waitFor();
  });

  it("shows the sanctions listing behind a sanctioned sender's alert, and the model version that judged it", async () => {
    // The demo's ETH deposit from an OFAC-listed address raises the one severe sender_entity
    // alert on ETH (its BTC deposit from a sanctioned wallet's cluster raises another, on BTC).
    await page.goto(`${server.url}/console/#/alerts?risk_type=sender_entity&risk_level=severe&network=ETH`);
    const rows = page.locator("table.queue tbody tr");
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().getByRole("link").click();
    const sanctions = page.getByRole("region", { name: "Sanctions" });
    const listing = sanctions.locator("tbody tr");
    await listing.first().waitFor();
    const cells = await listing.first().locator("td").allTextContents();
    expect(cells[0]).toBe("OFAC SDN");
    expect(cells[1]).not.toBe("–");
    expect(cells.slice(3, 5)).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\d$|^since the list began$/),
      "still listed",
    ]);
    expect(await sanctions.textContent()).toContain("is listed at the transfer's time");
    await page.getByText("Judged by risk model built-in version 1").waitFor();
    await page.locator("#sanctions-title").evaluate((title) => title.scrollIntoView());
    await screen(page, "04b-alert-sanctions", false);
    await page.getByRole("link", { name: /^Transfer page/ }).click();
    await page.getByRole("heading", { name: "Checks" }).waitFor();
    await page.getByRole("region", { name: "Sanctions" }).getByRole("cell", { name: "OFAC SDN" }).waitFor();
    await page.getByText("Judged by risk model built-in version 1").waitFor();
  });

  it("edits a copy of the built-in risk model: a bad value is shown at its field, then version 2", async () => {
    await page.getByRole("link", { name: "Risk models" }).click();
    await screen(page, "06-risk-models");
    await page.getByRole("button", { name: "Copy the built-in model" }).click();
    await page.getByText("version 1").waitFor();
    const share = page.getByLabel("Rule 1 min value share");
    await share.fill("1.5");
    await page.getByRole("button", { name: "Save as a new version" }).click();
    const fieldError = page.locator("#rule-0-min_value_share-error");
    await fieldError.waitFor();
    expect(await fieldError.textContent()).toContain("[0, 1]");
    expect(await share.getAttribute("aria-invalid")).toBe("true");
    // Every error at once (the share and the missing reason), the focus on the first field.
    const summary = page.getByRole("alert").filter({ hasText: "Not saved: 2 problems" });
    await summary.getByRole("link", { name: /Rule 1 min value share/ }).waitFor();
    await summary.getByRole("link", { name: /Change reason/ }).waitFor();
    expect(await page.evaluate("document.activeElement.id")).toBe("rule-0-min_value_share");
    await shoot(page, "07-risk-model-error", false);
    await share.fill("0.5");
    const reason = page.getByLabel("Change reason (required for a new version)");
    await reason.fill("Exchanges from half the value");
    await page.getByRole("button", { name: "Save as a new version" }).click();
    await page.getByText("Saved as version 2").waitFor();
    await page.getByRole("heading", { name: /version 2/ }).waitFor();
    await reason.fill("Make it the default");
    await page.getByRole("button", { name: "Save and make default" }).click();
    await page.getByText("Saved as version 3, the account's default").waitFor();
    await page.evaluate("window.scrollTo(0, 0)");
    await screen(page, "08-risk-model-v2", false);
  });

  it("backtests a candidate on the last 30 days from its page: progress, the report, a moved transfer, the PDF", async () => {
    // The candidate: a copy of the built-in model whose sanctions rules raise only a low risk.
    await page.getByRole("link", { name: "Risk models", exact: true }).click();
    await page.getByRole("button", { name: "Copy the built-in model" }).click();
    await page.getByRole("heading", { name: /version 1/ }).waitFor();
    const ruleCount = await page.locator("table.rules tbody tr").count();
    let lowered = 0;
    for (let i = 0; i < ruleCount; i++) {
      if ((await page.locator(`#rule-${i}-entity_category`).inputValue()) !== "sanctions") continue;
      await page.locator(`#rule-${i}-risk_level`).selectOption("low");
      lowered++;
    }
    expect(lowered).toBeGreaterThan(0);
    await page.getByLabel("Change reason (required for a new version)").fill("Sanctions hits raise low only");
    await page.getByRole("button", { name: "Save as a new version" }).click();
    await page.getByText("Saved as version 2").waitFor();
    // The window defaults to the last 30 days, which holds the demo's transfers.
    await page.getByText("Backtest: what would this model").click();
    await page.getByLabel("To", { exact: true }).fill("2000-01-01");
    await page.getByRole("button", { name: "Run the backtest" }).click();
    await page.locator("#bt-to-error").waitFor();
    expect(await page.locator("#bt-to-error").textContent()).toContain("from must not be after to");
    await page.getByLabel("To", { exact: true }).fill(new Date().toISOString().slice(0, 10));
    await page.getByRole("button", { name: "Run the backtest" }).click();
    const report = page.getByRole("region", { name: /^Report:/ });
    await report.waitFor();
    const evaluated = Number(
      /(\d+) transfers evaluated/.exec((await report.locator(".summary").textContent()) ?? "")?.[1],
    );
    expect(evaluated).toBeGreaterThan(0);
    // Each level row's counts sum to what was evaluated, on both sides.
    const counts: number[][] = [];
    for (const row of await report.locator("table").first().locator("tbody tr").all())
      counts.push((await row.locator("td").allTextContents()).map(Number));
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.reduce((sum, [actual = 0]) => sum + actual, 0)).toBe(evaluated);
    expect(counts.reduce((sum, [, candidate = 0]) => sum + candidate, 0)).toBe(evaluated);
    await report.getByRole("heading", { name: "Alerts by risk type and category" }).waitFor();
    await report.getByRole("heading", { name: "Alerts by level" }).waitFor();
    // The demo's severe sanctions transfers go down; each is listed with its hash and levels.
    const down = report.getByRole("region", { name: /^Transfers that change level/ });
    expect(await down.getByRole("row").filter({ hasText: "severe" }).count()).toBeGreaterThan(0);
    await page.locator("#bt-title").evaluate((title) => title.scrollIntoView());
    await screen(page, "08b-backtest", false);
    await down.evaluate((section) => section.scrollIntoView({ block: "end" }));
    await shoot(page, "08c-backtest-shift", false);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      report.getByRole("link", { name: "PDF report" }).click(),
    ]);
    const pdf = readFileSync((await download.path()) ?? "");
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    // The moved transfer keeps the version that checked it: the backtest wrote nothing.
    await down.getByRole("link").first().click();
    await page.getByRole("heading", { name: "Checks" }).waitFor();
    await page.getByText("Judged by risk model built-in version 1").waitFor();
  });

  it("runs a manual address check, shows its result and opens its PDF report", async () => {
    await page.getByRole("link", { name: "Manual checks" }).click();
    await page.getByLabel("Address", { exact: true }).fill(server.sanctionedAddress);
    await page.getByRole("button", { name: "Run the check" }).click();
    await page.getByRole("heading", { name: /Result: severe/ }).waitFor();
    await screen(page, "09-manual-check");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "PDF report" }).click(),
    ]);
    const pdf = readFileSync((await download.path()) ?? "");
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });

  it("runs a manual transaction check: a bad address is named at its field, then the result", async () => {
    await page.getByRole("radio", { name: "a transaction" }).check();
    await page.getByLabel("Transaction hash").fill(server.deposit.txHash);
    await page.getByLabel("Client-side address").fill("0xnot-an-address");
    await page.getByRole("button", { name: "Run the check" }).click();
    const fieldError = page.locator("#mc-output_address-error");
    await fieldError.waitFor();
    expect(await page.getByLabel("Client-side address").getAttribute("aria-invalid")).toBe("true");
    await page.getByLabel("Client-side address").fill(server.deposit.outputAddress);
    await page.getByRole("button", { name: "Run the check" }).click();
    await page.getByRole("heading", { name: /Result: severe/ }).waitFor();
    await page.getByText(`transaction ${server.deposit.txHash}`).waitFor();
  });

  it("shows transfers, a transfer's checks and webhooks to an admin", async () => {
    await page.getByRole("link", { name: "Transfers" }).click();
    await page.locator("table tbody tr").first().waitFor();
    await screen(page, "10-transfers");
    await page.locator("table tbody tr").first().getByRole("link").click();
    await page.getByRole("heading", { name: "Checks" }).waitFor();
    await screen(page, "11-transfer-page");
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("button", { name: "Subscribe" }).waitFor();
    // A target on this machine is refused (no request leaves it): the reason shows at the URL field.
    await page.getByLabel("URL").fill("http://127.0.0.1:9/hook");
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.locator("#hook-url-error").waitFor();
    expect(await page.getByLabel("URL").getAttribute("aria-invalid")).toBe("true");
    await screen(page, "12-webhooks");
  });

  it("lets an admin create an API key, shown once, and revoke it", async () => {
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByText("demo-key-0001").waitFor();
    await page.getByLabel("Name").fill("payments service");
    await page.getByRole("button", { name: "Create a key" }).click();
    const created = page.locator(".card[role=status]");
    await created.getByText("not shown again").waitFor();
    const id = (await created.locator("code").first().textContent()) ?? "";
    expect(id).not.toBe("");
    await created.getByRole("button", { name: "Copy the secret" }).waitFor();
    await screen(page, "12b-api-keys");
    // Revoking asks first; cancelling keeps the key.
    await page.getByRole("button", { name: "Revoke payments service" }).click();
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("button", { name: "Revoke payments service" }).click();
    await screen(page, "12c-api-key-revoke-confirm");
    await page.getByRole("button", { name: "Yes, revoke now" }).click();
    await page.getByRole("row", { name: new RegExp(`payments service.*${id}.*revoked`) }).waitFor();
  });

  describe("casework at 1440x900", () => {
    let desk: BrowserContext;
    let d: Page;
    beforeAll(async () => {
      desk = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        bypassCSP: true,
        acceptDownloads: true,
      });
      desk.setDefaultTimeout(20_000);
      d = await desk.newPage();
      await signIn(d, ADMIN);
    }, 60_000);
    afterAll(async () => {
      await desk?.close();
    });

    it("decides a case: the transfer's alerts side by side, one outcome and a required comment for all", async () => {
      await d.goto(`${server.url}/console/#/alerts?alert_status=open&sort=level`);
      const rows = d.locator("table.queue tbody tr");
      await rows.first().waitFor();
      await rows.first().getByRole("link").click();
      await d.getByRole("link", { name: /^Case: every alert of this transfer/ }).click();
      const panel = d.getByRole("region", { name: "Case: the alerts of this transfer" });
      await panel.locator("tbody tr").first().waitFor();
      const alerts = await panel.locator("tbody tr").count();
      expect(alerts).toBeGreaterThan(0);
      await panel.getByRole("button", { name: "Close the case's open alerts" }).click();
      await panel.getByRole("alert").getByText("a decision needs an outcome and a comment").waitFor();
      await panel.getByLabel("Outcome").selectOption("true_positive");
      await panel
        .getByLabel("Reason (required)")
        .fill("Funds traced to a sanctioned mixer; escalated to the MLRO");
      await panel.getByRole("button", { name: "Close the case's open alerts" }).click();
      const decisions = panel.getByRole("list", { name: "Decisions" });
      await decisions.getByText("true positive").waitFor();
      expect(await decisions.textContent()).toContain(`user:${ADMIN}`);
      expect(await panel.locator(".status-done").count()).toBe(alerts);
      await screen(d, "20-case-decided");
    });

    it("assigns an alert to me, and triages the queue: mine, search, sort, category, saved view", async () => {
      await d.goto(`${server.url}/console/#/alerts?alert_status=open&sort=level`);
      const rows = d.locator("table.queue tbody tr");
      await rows.first().waitFor();
      await rows.first().getByRole("link").click();
      await d.getByRole("button", { name: "Assign to me" }).click();
      await d.getByText(`assigned to ${ADMIN}`).first().waitFor();
      await d.goto(`${server.url}/console/#/alerts`);
      await d.getByRole("navigation", { name: "Queues" }).getByRole("link", { name: "Mine" }).click();
      await expect.poll(() => d.url()).toContain("mine=true");
      await expect
        .poll(
          async () =>
            (await rows.count()) > 0 && (await rows.getByText(ADMIN).count()) === (await rows.count()),
        )
        .toBe(true);
      await screen(d, "21-queue-mine");
      // A part of a hash finds its transfer's alerts.
      await d.goto(`${server.url}/console/#/alerts`);
      await rows.first().waitFor();
      const shown = (await rows.first().locator("td.mono").textContent()) ?? "";
      const tail = /…([0-9a-f]+)\s*$/i.exec(shown)?.[1] ?? "";
      expect(tail.length).toBeGreaterThanOrEqual(3);
      await d.getByLabel("Search", { exact: true }).fill(tail.toUpperCase());
      await d.getByRole("button", { name: "Search", exact: true }).click();
      await expect.poll(() => d.url()).toContain("q=");
      await expect.poll(() => rows.count()).toBeGreaterThan(0);
      // Sorting and the category as a choice; the view is saved for this user.
      await d.goto(`${server.url}/console/#/alerts`);
      await d.getByLabel("Entity category").selectOption("sanctions");
      await d.getByLabel("Sort by").selectOption("value");
      await d.getByRole("button", { name: "Filter" }).click();
      await expect.poll(() => d.url()).toContain("sort=value");
      expect(d.url()).toContain("entity_category=sanctions");
      await d.getByLabel("Save these filters as").fill("Sanctions by value");
      await d.getByRole("button", { name: "Save view" }).click();
      const saved = d
        .getByRole("navigation", { name: "Saved views" })
        .getByRole("link", { name: "Sanctions by value" });
      await saved.waitFor();
      await screen(d, "21b-queue-triage");
      await d.goto(`${server.url}/console/#/alerts`);
      await saved.click();
      await expect.poll(() => d.url()).toContain("entity_category=sanctions");
    });

    it("reports a bulk change alert by alert: a done alert is refused, an open one moves", async () => {
      const rows = d.locator("table.queue tbody tr");
      await d.goto(`${server.url}/console/#/alerts?alert_status=done`);
      await rows.first().locator("input[type=checkbox]").check();
      // The selection stays while the filters change.
      await d.goto(`${server.url}/console/#/alerts?alert_status=open&sort=oldest`);
      await expect
        .poll(
          async () =>
            (await rows.count()) > 0 && (await rows.locator(".status-open").count()) === (await rows.count()),
        )
        .toBe(true);
      await rows.first().locator("input[type=checkbox]").check();
      await d.getByText("2 selected").waitFor();
      await d.getByLabel("Move to").selectOption("in_progress");
      await d.getByLabel("Assign to").selectOption(ANALYST);
      await d.getByRole("button", { name: "Apply to selected" }).click();
      const report = d.locator(".bulk-report");
      await report.getByText("1 alert(s) changed, 1 refused").waitFor();
      expect(await report.textContent()).toContain("cannot go from done to in_progress");
      await screen(d, "21c-bulk-report");
    });

    it("sets the SLA per level, shows breaches on the overview built around my work", async () => {
      await d.getByRole("link", { name: "Operations" }).click();
      await d.getByLabel("Severe (hours)").fill("0.01");
      await d.getByLabel("High (hours)").fill("0.01");
      await d.getByRole("button", { name: "Save the SLA" }).click();
      await d.getByText("Saved.").waitFor();
      await screen(d, "22b-operations-sla");
      await d.getByRole("link", { name: "Overview" }).click();
      const cards = d.getByRole("list", { name: "My work" });
      await cards.getByText("SLA breaches").waitFor();
      const breaches = d.getByRole("table", { name: "Oldest breaches" });
      // 0.01 hours is 36 s: alerts the demo raised less than that ago breach once it has passed
      // (on a quick machine the tests before this one take less), so read the overview again until then.
      await expect
        .poll(
          async () => {
            await d.reload();
            await cards.getByText("SLA breaches").waitFor();
            return breaches.getByText("SLA breached").count();
          },
          { timeout: 60_000, interval: 2_000 },
        )
        .toBeGreaterThan(0);
      await screen(d, "22-overview");
      await cards.getByRole("link", { name: /SLA breaches/ }).click();
      await expect.poll(() => d.url()).toContain("breached=true");
      await d.locator("table.queue .badge.breached").first().waitFor();
    }, 120_000);

    it("lets an admin manage users and read, filter and export the audit log", async () => {
      await d.getByRole("link", { name: "Users" }).click();
      await d.getByLabel("E-mail").fill("new.analyst@demo.openkyt.test");
      await d.getByLabel("Initial password").fill("a long enough passphrase 42");
      await d.getByRole("button", { name: "Create the user" }).click();
      await d.getByText("new.analyst@demo.openkyt.test can now sign in.").waitFor();
      await d.getByLabel("Role of new.analyst@demo.openkyt.test").selectOption("admin");
      await d.getByText("new.analyst@demo.openkyt.test is now admin.").waitFor();
      const row = d.getByRole("row", { name: /new\.analyst@demo\.openkyt\.test/ });
      await row.getByRole("button", { name: "Disable" }).click();
      await screen(d, "24-users");
      await row.getByRole("button", { name: "Yes, disable new.analyst@demo.openkyt.test" }).click();
      await row.getByText(/disabled/).waitFor();
      await d.getByRole("link", { name: "Audit log" }).click();
      const table = d.locator("table tbody tr");
      await table.first().waitFor();
      await d.getByLabel("Action").selectOption("case.decided");
      await d.getByRole("button", { name: "Search", exact: true }).click();
      await expect
        .poll(async () => (await table.allTextContents()).every((t) => t.includes("case.decided")))
        .toBe(true);
      await screen(d, "23-audit-log");
      const [download] = await Promise.all([
        d.waitForEvent("download"),
        d.getByRole("link", { name: "Export CSV" }).click(),
      ]);
      const csv = readFileSync((await download.path()) ?? "", "utf8");
      expect(csv.split("\r\n")[0]).toBe("at,actor,action,subject,details,id");
      expect(csv).toContain(`user:${ADMIN},case.decided`);
    });
  });

  it("shows the casework screens on a phone, each without a serious axe violation", async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    phone.setDefaultTimeout(20_000);
    const p = await phone.newPage();
    try {
      await signIn(p, ADMIN);
      await p.getByRole("heading", { name: "My queue" }).waitFor();
      await screen(p, "30-phone-overview");
      await p.goto(`${server.url}/console/#/alerts?sort=level`);
      await p.locator("table.queue tbody tr").first().waitFor();
      await screen(p, "31-phone-queue");
      await p.locator("table.queue tbody tr").first().getByRole("link").click();
      await p.getByRole("link", { name: /^Case: every alert of this transfer/ }).click();
      await p
        .getByRole("region", { name: "Case: the alerts of this transfer" })
        .locator("tbody tr")
        .first()
        .waitFor();
      await screen(p, "32-phone-case");
      await p.goto(`${server.url}/console/#/audit`);
      await p.locator("table tbody tr").first().waitFor();
      await screen(p, "33-phone-audit-log");
      await p.goto(`${server.url}/console/#/users`);
      await p.getByRole("button", { name: "Create the user" }).waitFor();
      await screen(p, "34-phone-users");
      await p.goto(`${server.url}/console/#/api-keys`);
      await p.getByText("demo-key-0001").waitFor();
      await screen(p, "35-phone-api-keys");
      await p.goto(`${server.url}/console/#/operations`);
      await p.getByRole("heading", { name: /SLA/ }).waitFor();
      await screen(p, "36-phone-operations");
    } finally {
      await phone.close();
    }
  });

  it("signs out: the session ends on the server too", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    const after = await page.evaluate(async () => (await fetch("/v1/session")).status);
    expect(after).toBe(401);
  });

  it("refuses an analyst the admin pages, and fits a narrow screen", async () => {
    const analyst = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    const p = await analyst.newPage();
    try {
      await signIn(p, ANALYST);
      expect(await p.getByRole("link", { name: "Webhooks" }).count()).toBe(0);
      await p.goto(`${server.url}/console/#/webhooks`);
      const refusal = p.getByRole("alert");
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain(`this needs the admin role; ${ANALYST} is analyst`);
      await screen(p, "13-analyst-refused");
      await p.goto(`${server.url}/console/#/alerts`);
      await p.locator("table.queue tbody tr").first().waitFor();
      await screen(p, "14-narrow-alert-queue");
    } finally {
      await analyst.close();
    }
  });
});
