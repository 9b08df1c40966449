/**
 * `openkyt import sanctions` as a user meets it: a wrong file is refused with exit 2 and its first
 * line quoted (the real binary, as a process), a mass delisting needs --allow-mass-delist, a dry
 * run prints what it would do and writes nothing, and the summary says why rows were skipped.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exited, runInProcess, start } from "./cli-process.js";

const repoFile = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const PNG = repoFile("docs/images/transfer-report-sample.png");
const EXTRACT = repoFile("packages/cli/demo-data/ofac-sdn-extract.csv");
const LAZARUS = "0x098b716b8aaf21512996dc57eb0615e2383e2f96";

/** Runs `openkyt ...argv` in this process. */
async function openkyt(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  return runInProcess(argv);
}

let dir = "";
let db = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "openkyt-import-"));
  db = join(dir, "kyt.db");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The whole OFAC SDN list as stored. */
async function storedList() {
  const store = await createSqliteStore({ filename: db });
  try {
    return await store.listSanctionsOfList("OFAC SDN");
  } finally {
    await store.close();
  }
}

describe("openkyt import sanctions", () => {
  it("the real binary refuses a PNG with exit 2, quoting its first line, and leaves the list as it was", async () => {
    expect((await openkyt("import", "sanctions", EXTRACT, "--as-of", "2026-08-20", "--db", db)).code).toBe(0);
    const before = await storedList();
    const child = start(["import", "sanctions", PNG, "--db", db]);
    let err = "";
    let out = "";
    child.stderr?.on("data", (d) => {
      err += d;
    });
    child.stdout?.on("data", (d) => {
      out += d;
    });
    expect(await exited(child)).toBe(2);
    expect(out).toBe("");
    expect(err).toContain('its first line is "\\x89PNG\\r"');
    expect(err).toContain("transfer-report-sample.png: not a sanctions file of a known format");
    expect(await storedList()).toEqual(before);
  }, 60_000);

  it("refuses a mass delisting (2) unless --allow-mass-delist; a dry run prints it and writes nothing", async () => {
    const first = await openkyt("import", "sanctions", EXTRACT, "--as-of", "2026-08-20", "--db", db);
    expect(first.code).toBe(0);
    expect(first.out).toContain("60 rows read, 60 added in");
    expect(first.out).not.toContain("unchanged");
    const before = await storedList();
    const one = join(dir, "one.txt");
    await writeFile(one, `# Last Updated: 2026-10-01\n${LAZARUS}\n`);

    const dry = await openkyt("import", "sanctions", one, "--dry-run", "--db", db);
    expect(dry.code).toBe(2);
    expect(dry.out).toContain("dry run, nothing written: sanctions");
    expect(dry.out).toContain("1 unchanged, 59 would be delisted");
    expect(dry.out).toMatch(/ {2}would delist: 0x\w+, .* and 54 more\n/);
    expect(dry.out).toContain("a real run would be refused (MASS_DELIST)");
    expect(await storedList()).toEqual(before);

    const refused = await openkyt("import", "sanctions", one, "--db", db);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain("would delist 59 of the 60 listings");
    expect(refused.err).toContain("--allow-mass-delist");
    expect(await storedList()).toEqual(before);

    const forced = await openkyt("import", "sanctions", one, "--allow-mass-delist", "--db", db);
    expect(forced.code).toBe(0);
    expect(forced.out).toContain("59 delisted");
    // The correct file without --as-of is dated now, after the bad run: it still reopens the
    // listings that run ended, with no gap in which transfers screen clean.
    const restored = await openkyt("import", "sanctions", EXTRACT, "--db", db);
    expect(restored.out).toContain("59 updated (59 relisted), 1 unchanged");
    expect(await storedList()).toEqual(before);

    // A header-only file has no row, so it may not delist, flag or not.
    const header = join(dir, "header.csv");
    await writeFile(header, "address,address_lower,asset,sdn_entity,sdn_programs\n");
    const empty = await openkyt("import", "sanctions", header, "--allow-mass-delist", "--db", db);
    expect(empty.code).toBe(2);
    expect(empty.err).toContain("no row the import could take");
    expect(await storedList()).toEqual(before);
  });

  it("prints skip reasons by count, and refuses sanctions-only flags for other kinds", async () => {
    const fixture = repoFile("packages/datasets/test/fixtures/ofac-sdn-2026-08-20.csv");
    const run = await openkyt("import", "sanctions", fixture, "--db", db);
    expect(run.code).toBe(0);
    expect(run.out).toContain("  2 skipped: 1 asset BCH, 1 asset XMR\n");
    expect(run.out).toMatch(/rejected .*ofac-sdn-2026-08-20\.csv:15: /);
    const fresh = join(dir, "fresh.db");
    const readme = await openkyt("import", "sanctions", repoFile("README.md"), "--db", fresh);
    expect(readme.code).toBe(2);
    expect(readme.err).toContain('its first line is "# OpenKYT');
    expect(existsSync(fresh)).toBe(false); // refused before the database was created
    const labels = await openkyt("import", "labels", fixture, "--dry-run", "--db", db);
    expect(labels.code).toBe(2);
    expect(labels.err).toContain("--dry-run is for sanctions imports only");
  });
});
