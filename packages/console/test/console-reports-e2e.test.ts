/**
 * The console's explained hits, address pages, reports and webhook deliveries, end to end in
 * Debian's Chromium against a real `openkyt serve` on the demo database (with a reports config:
 * an explorer override and a goAML profile; webhooks may target loopback), at desktop and phone
 * widths: an indirect sanctions alert shows the listing of the sanctioned address on its path
 * and the path drawn whole, addresses copy and link to the explorer and their address page, the
 * case file, goAML XML and CSV download, and a webhook's deliveries show the event with its
 * payload, redeliver, and take a test event. axe-core runs on every screen; screenshots go to
 * test-output/console/ (docs/images/console/ keeps the ones docs/console.md shows).
 */

import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath, launch, seriousViolations, shoot } from "./console-browser.js";
import { type ConsoleServer, startConsoleServer } from "./console-server.js";

const ADMIN = "admin@demo.openkyt.test";
const PASSWORD = "demo-password-do-not-use";

const REPORTS_CONFIG = {
  explorers: {
    ETH: { address: "https://etherscan.io/address/{address}", tx: "https://etherscan.io/tx/{tx}" },
  },
  goaml: {
    rentity_id: 1234,
    rentity_branch: "Head office",
    reporting_person: { first_name: "Ada", last_name: "Compliance" },
    location: { address: "1 Example Street", city: "Vaduz", country_code: "LI" },
    institution_name: "Demo Exchange",
    institution_code: "DEMO",
    transmode_code: "AA",
    funds_code: "K",
    country_code: "LI",
  },
};

const executable = chromiumPath();

/** A webhook receiver on 127.0.0.1 that answers 200 to everything. */
async function receiver() {
  let count = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      count += 1;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.skipIf(!executable)(
  "explained hits, address pages, reports and webhooks in Chromium",
  { timeout: 90_000 },
  () => {
    let server: ConsoleServer;
    let hook: Awaited<ReturnType<typeof receiver>>;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let alertId = "";

    const screen = async (p: Page, name: string, fullPage = true) => {
      await p.waitForLoadState("networkidle");
      await shoot(p, name, fullPage);
      expect(await seriousViolations(p), `axe on ${name}`).toEqual([]);
    };

    const signIn = async (p: Page) => {
      await p.goto(`${server.url}/console/`);
      await p.getByLabel("E-mail").fill(ADMIN);
      await p.getByLabel("Password").fill(PASSWORD);
      await p.getByRole("button", { name: "Sign in" }).click();
      await p.getByRole("heading", { name: "Overview" }).waitFor();
    };

    beforeAll(async () => {
      hook = await receiver();
      server = await startConsoleServer({
        files: { "reports.json": JSON.stringify(REPORTS_CONFIG) },
        serveArgs: ["--reports-config", "reports.json"],
        env: { OPENKYT_WEBHOOKS_ALLOW_PRIVATE: "1" },
      });
      browser = await launch(executable ?? "");
      context = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        bypassCSP: true,
        acceptDownloads: true,
      });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
      context.setDefaultTimeout(20_000);
      page = await context.newPage();
      await signIn(page);
      // The demo's ETH deposit whose funds came two hops from a sanctioned address.
      alertId = (await page.evaluate(`fetch("/v1/alerts/?risk_type=origin_of_funds&page_size=100")
      .then((r) => r.json())
      .then((p) => p.items.find((a) => a.transfer.network === "ETH" && a.entity_interaction
        && a.entity_interaction.entity_category === "sanctions" && a.entity_interaction.proximity === "indirect"))
      .then((a) => (a ? a.id : ""))`)) as string;
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      await hook?.close();
    });

    it("explains an indirect sanctions hit: the listing on the path, and the path whole from the customer", async () => {
      expect(alertId).not.toBe("");
      await page.goto(`${server.url}/console/#/alerts/${alertId}`);
      const sanctions = page.getByRole("region", { name: "Sanctions" });
      await sanctions.getByRole("heading", { name: "Indirect: listed addresses on the paths" }).waitFor();
      expect(await sanctions.textContent()).toContain("is on no sanctions list");
      expect(await sanctions.textContent()).toContain("is listed at the transfer's time");
      await sanctions.getByRole("cell", { name: "OFAC SDN" }).first().waitFor();
      const path = page.getByRole("list", { name: "Path to sanctions" });
      const steps = path.locator(":scope > li");
      expect(await steps.count()).toBeGreaterThanOrEqual(3);
      expect(await steps.first().textContent()).toContain("Your customer (recipient)");
      expect(await steps.nth(1).textContent()).toContain("Counterparty (sender, hop 1)");
      expect(await steps.last().textContent()).toContain("OFAC SDN");
      // Explorer links follow the server's template; copy puts the whole value on the clipboard.
      const explorer = steps
        .last()
        .getByRole("link", { name: /in the ETH explorer/ })
        .first();
      expect(await explorer.getAttribute("href")).toMatch(
        /^https:\/\/etherscan\.io\/address\/0x[0-9a-f]{40}$/,
      );
      expect(await explorer.getAttribute("rel")).toContain("noopener");
      const copy = steps
        .last()
        .getByRole("button", { name: /^Copy address/ })
        .first();
      await copy.click();
      await steps.last().getByText("Copied").first().waitFor();
      const copied = (await page.evaluate("navigator.clipboard.readText()")) as string;
      expect(copied).toMatch(/^0x[0-9a-f]{40}$/);
      await page.locator("#sanctions-title").evaluate((title) => title.scrollIntoView());
      await screen(page, "15-alert-path-sanctions");
    });

    it("downloads the case file (PDF), the goAML report (XML) and the CSV of alerts and decisions", async () => {
      const reports = page.getByRole("navigation", { name: "Reports of this case" });
      // The server answers the case file (its first render starts the renderer's threads).
      const answered = await page.evaluate(
        `fetch("/v1/alerts/${alertId}/case-file/").then((r) => r.status + " " + r.headers.get("content-type"))`,
      );
      expect(answered).toBe("200 application/pdf");
      const get = async (name: string) => {
        const [download] = await Promise.all([
          page.waitForEvent("download", { timeout: 60_000 }),
          reports.getByRole("link", { name }).click(),
        ]);
        return { name: download.suggestedFilename(), bytes: readFileSync((await download.path()) ?? "") };
      };
      const pdf = await get("Case file (PDF)");
      expect(pdf.name).toBe(`openkyt-case-${alertId}.pdf`);
      expect(pdf.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      const xml = await get("goAML report (XML)");
      expect(xml.bytes.toString("utf8")).toContain("<rentity_id>1234</rentity_id>");
      const csv = await get("All alerts and decisions (CSV)");
      expect(csv.bytes.toString("utf8").split("\r\n")[0]).toMatch(/^alert_id,created_at,/);
      expect(csv.bytes.toString("utf8")).toContain(alertId);
    });

    it("opens the sanctioned address's page: its label, listing and the transfers that touch it", async () => {
      const path = page.getByRole("list", { name: "Path to sanctions" });
      await path.locator(":scope > li").last().locator("a.address-link").click();
      await page.getByRole("heading", { name: /^Address on ETH/ }).waitFor();
      await page.getByRole("heading", { name: "Sanctions listings" }).waitFor();
      expect(await page.getByRole("list", { name: /^Sanctions listings of/ }).textContent()).toContain(
        "OFAC SDN",
      );
      await page.getByRole("heading", { name: /^Transfers/ }).waitFor();
      await screen(page, "16-address-page");
      // The customer's address has the deposit and its alerts.
      await page.goto(`${server.url}/console/#/alerts/${alertId}`);
      await page
        .getByRole("list", { name: "Path to sanctions" })
        .locator(":scope > li")
        .first()
        .locator("a.address-link")
        .click();
      await page.getByRole("heading", { name: "Alerts on these transfers" }).waitFor();
      await page
        .getByRole("link", { name: /origin of funds: sanctions \(indirect\)/ })
        .first()
        .waitFor();
    });

    it("shows a webhook's deliveries with event type, id and payload, redelivers one and sends a test event", async () => {
      await page.getByRole("link", { name: "Webhooks" }).click();
      await page.getByLabel("URL").fill(hook.url);
      await page.getByRole("button", { name: "Subscribe" }).click();
      await page.getByText("Signing secret (shown once)").waitFor();
      await page.getByRole("button", { name: "Deliveries" }).first().click();
      await page.getByRole("button", { name: "Send a test event" }).click();
      await page.getByText(/Test event: webhook\.test .* queued/).waitFor();
      const rows = page.locator(".deliveries tbody tr");
      await expect.poll(() => rows.count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
      expect(await rows.first().textContent()).toContain("webhook.test");
      expect(await rows.first().textContent()).toContain("delivered");
      await rows.first().getByText("Payload").click();
      expect(await rows.first().locator("pre").textContent()).toContain('"webhook_id"');
      await rows.first().getByRole("button", { name: "Redeliver" }).click();
      await page.getByText(/Redelivery: webhook\.test .* queued/).waitFor();
      await expect.poll(() => rows.count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
      expect(hook.received()).toBeGreaterThanOrEqual(2);
      await screen(page, "17-webhook-deliveries");
    });

    it("fits a phone: the explained hit, the address page and the deliveries", async () => {
      const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
      const p = await phone.newPage();
      try {
        await signIn(p);
        await p.goto(`${server.url}/console/#/alerts/${alertId}`);
        await p.getByRole("list", { name: "Path to sanctions" }).waitFor();
        const overflow = (await p.evaluate(
          "document.documentElement.scrollWidth - window.innerWidth",
        )) as number;
        expect(overflow).toBeLessThanOrEqual(1);
        await p.locator("#sanctions-title").evaluate((title) => title.scrollIntoView());
        await screen(p, "18-phone-alert-path", false);
        await p
          .getByRole("list", { name: "Path to sanctions" })
          .locator(":scope > li")
          .last()
          .locator("a.address-link")
          .click();
        await p.getByRole("heading", { name: /^Address on ETH/ }).waitFor();
        await screen(p, "19-phone-address-page");
        await p.goto(`${server.url}/console/#/webhooks`);
        await p.getByRole("button", { name: "Deliveries" }).first().click();
        await p.locator(".deliveries tbody tr").first().waitFor();
        await screen(p, "20-phone-webhooks");
      } finally {
        await phone.close();
      }
    });
  },
);
