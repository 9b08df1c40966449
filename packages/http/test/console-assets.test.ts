/**
 * The console's files at /console/: served from the folder given, index.html for the app's own
 * paths, a 404 for a missing asset, nothing outside the folder, and the security headers.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Served, serve } from "./http-harness.js";

describe("the console's files", () => {
  let base: string;
  let dir: string;
  let s: Served;
  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), "openkyt-console-assets-"));
    dir = join(base, "console");
    mkdirSync(join(dir, "assets"), { recursive: true });
    writeFileSync(join(dir, "index.html"), "<!doctype html><title>console</title>");
    writeFileSync(join(dir, "assets", "app-1234.js"), "console.log('app')");
    writeFileSync(join(base, "outside.txt"), "not for the web");
    s = await serve({ http: { console: { assetsDir: dir } } });
  });
  afterAll(async () => {
    await s.close();
    rmSync(base, { recursive: true, force: true });
  });

  const get = (path: string) => fetch(`${s.server.url}${path}`, { redirect: "manual" });

  it("serves index.html at /console/ (never cached) and a hashed asset for a year", async () => {
    const index = await get("/console/");
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(index.headers.get("cache-control")).toBe("no-cache");
    expect(index.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(index.headers.get("x-frame-options")).toBe("DENY");
    expect(await index.text()).toContain("<title>console</title>");
    const script = await get("/console/assets/app-1234.js");
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("cache-control")).toContain("immutable");
    expect(await script.text()).toBe("console.log('app')");
  });

  it("redirects /console to /console/ and answers the app's own paths with index.html", async () => {
    const bare = await get("/console");
    expect(bare.status).toBe(302);
    expect(bare.headers.get("location")).toBe("/console/");
    expect(await (await get("/console/alerts/some-id")).text()).toContain("<title>console</title>");
  });

  it("answers 404 for a missing asset and never a file outside the folder", async () => {
    expect((await get("/console/assets/missing.js")).status).toBe(404);
    for (const path of [
      "/console/../outside.txt",
      "/console/%2e%2e/outside.txt",
      "/console/assets/%2e%2e/%2e%2e/outside.txt",
    ]) {
      const answer = await get(path);
      expect(await answer.text()).not.toContain("not for the web");
    }
  });
});
