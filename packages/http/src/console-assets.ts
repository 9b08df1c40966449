/**
 * Serving the built console (a single-page app) at `/console/`: the files of its folder are
 * listed once at start and served from memory; a path that is not a file gets `index.html` (the
 * app's own routes), so nothing outside the folder can ever be named. Hashed assets are cached
 * for a year, `index.html` never.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { Hono } from "hono";
import type { AppEnv } from "./app-env.js";

/** Where the console is served. */
export const CONSOLE_PATH = "/console";

const TYPES: Readonly<Record<string, string>> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  json: "application/json",
  woff2: "font/woff2",
  txt: "text/plain; charset=utf-8",
};

interface Asset {
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly type: string;
  readonly immutable: boolean;
}

/** Every file under `root`, by its URL path relative to it ("index.html", "assets/x.js"). */
function listAssets(root: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const rel = relative(root, path).split(sep).join("/");
        const ext = rel.slice(rel.lastIndexOf(".") + 1).toLowerCase();
        assets.set(rel, {
          bytes: new Uint8Array(readFileSync(path)),
          type: TYPES[ext] ?? "application/octet-stream",
          immutable: rel.startsWith("assets/"),
        });
      }
    }
  };
  walk(root);
  return assets;
}

/** Security headers of every console response: no framing, no sniffing, scripts only from here. */
const HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Content-Security-Policy":
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
};

/** Serves the console built into `root` (a folder with index.html) under /console/. */
export function consoleAssets(app: Hono<AppEnv>, root: string): void {
  const assets = listAssets(root);
  const index = assets.get("index.html");
  if (!index) throw new Error(`the console folder ${root} has no index.html: build @openkyt/console first`);
  // The app routes with `strict: false`, so this one route also sees `/console` (sent on to `/console/`).
  app.get(`${CONSOLE_PATH}/*`, (c) => {
    if (new URL(c.req.url).pathname === CONSOLE_PATH) return c.redirect(`${CONSOLE_PATH}/`, 302);
    let path: string;
    try {
      path = decodeURIComponent(new URL(c.req.url).pathname.slice(CONSOLE_PATH.length + 1));
    } catch {
      path = "assets/?";
    }
    const asset = assets.get(path) ?? (path.startsWith("assets/") ? undefined : index);
    if (!asset)
      return c.json({ detail: `no such console file: ${path}`, code: "NOT_FOUND", errors: {} }, 404);
    return c.body(asset.bytes, 200, {
      ...HEADERS,
      "Content-Type": asset.type,
      "Cache-Control": asset.immutable ? "public, max-age=31536000, immutable" : "no-cache",
    });
  });
}
