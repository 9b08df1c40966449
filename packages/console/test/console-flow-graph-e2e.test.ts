/**
 * The funds-flow graph end to end in Debian's Chromium against a real `openkyt serve` on the demo
 * database, at desktop (1440x900) and phone (390x844) widths: the demo's ETH deposit whose funds
 * came from a sanctioned address two hops away is drawn with its customer and counterparty first,
 * expands hop by hop (click, then Enter on the keyboard) to exactly the addresses of the exposure
 * answer's strongest paths, collapses, and downloads as SVG and PNG (also under the server's own
 * Content-Security-Policy); the address page draws the trace with the address marked. axe-core
 * runs on every screen; screenshots go to test-output/console/.
 */

import { readFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath, launch, seriousViolations, shoot } from "./console-browser.js";
import { type ConsoleServer, startConsoleServer } from "./console-server.js";

const ADMIN = "admin@demo.openkyt.test";
const PASSWORD = "demo-password-do-not-use";

const executable = chromiumPath();

interface Seeded {
  readonly transferId: string;
  readonly customer: string;
  readonly counterparty: string;
  /** Every address of the strongest paths of the named categories (not `undefined`). */
  readonly pathAddresses: ReadonlyArray<string>;
  readonly listed: string;
}

describe.skipIf(!executable)("the funds-flow graph in Chromium", { timeout: 120_000 }, () => {
  let server: ConsoleServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let seeded: Seeded;

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

  const shownAddresses = (p: Page) =>
    p
      .locator(".flow-canvas g[data-address]")
      .evaluateAll((gs) => gs.map((g) => g.getAttribute("data-address")));

  beforeAll(async () => {
    server = await startConsoleServer();
    browser = await launch(executable ?? "");
    context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      bypassCSP: true,
      acceptDownloads: true,
    });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    await signIn(page);
    // The demo's ETH deposit whose funds came two hops from a sanctioned address, and its exposure.
    seeded = (await page.evaluate(`(async () => {
      const alerts = await (await fetch("/v1/alerts/?risk_type=origin_of_funds&page_size=100")).json();
      const a = alerts.items.find((a) => a.transfer.network === "ETH" && a.entity_interaction
        && a.entity_interaction.entity_category === "sanctions" && a.entity_interaction.proximity === "indirect");
      const t = a.transfer;
      const e = await (await fetch("/v1/transfers/" + t.id + "/exposure/")).json();
      const paths = (e.indirect_interaction || []).filter((i) => i.entity_category !== "undefined" && i.strongest_path);
      const sanctions = paths.find((i) => i.entity_category === "sanctions").strongest_path.addresses;
      return {
        transferId: t.id,
        customer: t.output_address,
        counterparty: t.input_address,
        pathAddresses: [...new Set(paths.flatMap((i) => i.strongest_path.addresses))],
        listed: sanctions[sanctions.length - 1],
      };
    })()`)) as Seeded;
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("draws the seeded trace from hop 1, expands it hop by hop by click and keyboard, and collapses it", async () => {
    expect(seeded.pathAddresses.length).toBeGreaterThanOrEqual(3);
    await page.goto(`${server.url}/console/#/transfers/${seeded.transferId}`);
    const flow = page.getByRole("region", { name: "Funds flow" });
    const graph = flow.getByRole("group", { name: /^Funds-flow graph/ });
    await graph.waitFor();
    // First: your customer and the counterparty, nothing beyond.
    expect((await shownAddresses(page)).sort()).toEqual([seeded.counterparty, seeded.customer].sort());
    await flow.getByRole("link", { name: /^Your customer \(recipient\)/ }).waitFor();
    // One hop more, by a click on the counterparty's +.
    await graph.getByRole("button", { name: /^Expand .*beyond hop 1$/ }).click();
    await expect.poll(async () => (await shownAddresses(page)).length).toBeGreaterThan(2);
    expect(await flow.getByRole("status").textContent()).toMatch(/^\d+ of \d+ addresses shown$/);
    // And on, by the keyboard, until nothing is left to expand.
    for (let n = 0; n < 10; n++) {
      const more = graph.getByRole("button", { name: /^Expand / });
      if ((await more.count()) === 0) break;
      await more.first().focus();
      // The focus is on the button itself (an SVG element is focusable only with a lowercase tabindex).
      expect(await page.evaluate("document.activeElement.getAttribute('role')")).toBe("button");
      await page.keyboard.press("Enter");
    }
    expect((await shownAddresses(page)).sort()).toEqual(
      [...new Set([seeded.customer, ...seeded.pathAddresses])].sort(),
    );
    // The sanctioned end carries its badge and category; its node links its address page.
    const listed = page.locator(`.flow-canvas g[data-address="${seeded.listed}"]`);
    expect(await listed.textContent()).toContain("SANCTIONED");
    expect(await listed.getByRole("link").textContent()).toContain("SANCTIONED");
    expect(await listed.locator("a").getAttribute("href")).toBe(
      `#/addresses/ETH/${encodeURIComponent(seeded.listed)}`,
    );
    // The edges are the transactions, shortened, and the table has them whole with copy buttons.
    expect(await graph.locator("g[data-tx]").count()).toBeGreaterThanOrEqual(seeded.pathAddresses.length);
    const table = flow.getByRole("table", { name: /paths as a table/ });
    expect(await table.getByRole("button", { name: /^Copy transaction/ }).count()).toBeGreaterThanOrEqual(2);
    await flow.locator("#tf-flow").evaluate((h) => h.scrollIntoView());
    await screen(page, "50-flow-graph-transfer", false);
    // Collapsing the counterparty hides everything beyond it.
    await graph.getByRole("button", { name: /^Collapse what lies beyond .*\(hop 1\)$/ }).press(" ");
    expect((await shownAddresses(page)).sort()).toEqual([seeded.counterparty, seeded.customer].sort());
  });

  it("downloads the graph as SVG and as PNG", async () => {
    const flow = page.getByRole("region", { name: "Funds flow" });
    await flow.getByRole("button", { name: "Expand all" }).click();
    const get = async (name: string) => {
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        flow.getByRole("button", { name }).click(),
      ]);
      return { name: download.suggestedFilename(), bytes: readFileSync((await download.path()) ?? "") };
    };
    const svg = await get("Download SVG");
    expect(svg.name).toMatch(/^openkyt-flow-ETH-.*\.svg$/);
    const text = svg.bytes.toString("utf8");
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg')).toBe(true);
    for (const address of seeded.pathAddresses) expect(text).toContain(address);
    expect(text).toContain("SANCTIONED");
    const png = await get("Download PNG");
    expect(png.name).toMatch(/\.png$/);
    expect(png.bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // Drawn at twice the SVG's size.
    const width = Number(/<svg[^>]* width="(\d+)"/.exec(text)?.[1]);
    expect(png.bytes.readUInt32BE(16)).toBe(width * 2);
  });

  it("exports under the server's Content-Security-Policy too (no bypass)", async () => {
    const strict = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      acceptDownloads: true,
    });
    const p = await strict.newPage();
    try {
      const refused: string[] = [];
      p.on("console", (m) => {
        if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
      });
      await signIn(p);
      await p.goto(`${server.url}/console/#/transfers/${seeded.transferId}`);
      const flow = p.getByRole("region", { name: "Funds flow" });
      await flow.getByRole("group", { name: /^Funds-flow graph/ }).waitFor();
      const [download] = await Promise.all([
        p.waitForEvent("download"),
        flow.getByRole("button", { name: "Download PNG" }).click(),
      ]);
      const bytes = readFileSync((await download.path()) ?? "");
      expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
      expect(refused).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  it("draws an address page's trace with the address marked", async () => {
    await page.goto(`${server.url}/console/#/addresses/ETH/${encodeURIComponent(seeded.customer)}`);
    const flow = page.getByRole("region", { name: "Funds flow" });
    await flow.getByRole("group", { name: /^Funds-flow graph/ }).waitFor();
    await flow.getByRole("link", { name: /^Your customer \(\w+\) .*this address/ }).waitFor();
    expect(await shownAddresses(page)).toContain(seeded.customer);
    // The seeded deposit's trace, picked among the transfers that touch the address.
    await flow.getByLabel("Trace of the transfer").selectOption(seeded.transferId);
    await flow.getByRole("button", { name: "Expand all" }).click();
    await expect
      .poll(async () => (await shownAddresses(page)).sort())
      .toEqual([...new Set([seeded.customer, ...seeded.pathAddresses])].sort());
    await flow.locator("#addr-flow").evaluate((h) => h.scrollIntoView());
    await screen(page, "51-flow-graph-address", false);
  });

  it("fits a phone: the graph top to bottom in its own scrolling box, expanded, axe clean", async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    const p = await phone.newPage();
    try {
      await signIn(p);
      await p.goto(`${server.url}/console/#/transfers/${seeded.transferId}`);
      const flow = p.getByRole("region", { name: "Funds flow" });
      const graph = flow.getByRole("group", { name: /^Funds-flow graph/ });
      await graph.waitFor();
      await graph.getByRole("button", { name: /^Expand .*beyond hop 1$/ }).click();
      await expect.poll(async () => (await shownAddresses(p)).length).toBeGreaterThan(2);
      // Top to bottom: the counterparty sits below your customer's address.
      const y = (address: string) =>
        p.locator(`.flow-canvas g[data-address="${address}"] rect`).first().getAttribute("y");
      expect(Number(await y(seeded.counterparty))).toBeLessThan(Number(await y(seeded.customer)));
      const overflow = (await p.evaluate(
        "document.documentElement.scrollWidth - window.innerWidth",
      )) as number;
      expect(overflow).toBeLessThanOrEqual(1);
      await p.locator("#tf-flow").evaluate((h) => h.scrollIntoView());
      await screen(p, "52-phone-flow-graph", false);
    } finally {
      await phone.close();
    }
  });
});
