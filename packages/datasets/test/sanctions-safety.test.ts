/**
 * A sanctions import must never lose a list silently: wrong files are refused, incomplete or
 * mass delistings are refused, a dry run writes nothing, a correct snapshot restores what a bad
 * run ended, and a failure mid-import leaves the list as it was. Each case compares the whole
 * stored list before and after, on a real SQLite store and the memory store.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type SanctionsListing, type Store, type StoreOps, sanctionsAsOf } from "@openkyt/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ImportOptions, importFile, quotedFirstLine, refusalOf } from "../src/index.js";
import { fixture, STORES } from "./import-fixtures.js";

const repoFile = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
/** 60 real addresses of the OFAC SDN list (the demo's extract), a complete snapshot of its list. */
const OFAC_EXTRACT = repoFile("packages/cli/demo-data/ofac-sdn-extract.csv");
const PNG = repoFile("docs/images/transfer-report-sample.png");
const README = repoFile("README.md");
const LIST = "OFAC SDN";
const LAZARUS = "0x098b716b8aaf21512996dc57eb0615e2383e2f96";
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

/** What an import throws, or null when it succeeds. */
async function failureOf(run: Promise<unknown>): Promise<unknown> {
  return run.then(
    () => null,
    (error: unknown) => error,
  );
}

/**
 * `store` whose transactions write half of each `putSanctions` call and then fail, as a store
 * that crashes mid-write would: what the transaction wrote must be rolled back.
 */
function failingMidWrite(store: Store): Store {
  const failing = (tx: StoreOps): StoreOps =>
    new Proxy(tx, {
      get(target, name) {
        if (name === "putSanctions") {
          return async (rows: ReadonlyArray<SanctionsListing>) => {
            await target.putSanctions(rows.slice(0, Math.ceil(rows.length / 2)));
            throw new Error("disk full (injected in the middle of the write)");
          };
        }
        const value = Reflect.get(target, name);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  return new Proxy(store, {
    get(target, name) {
      if (name === "transaction")
        return <T>(fn: (tx: StoreOps) => Promise<T>) => target.transaction((tx) => fn(failing(tx)));
      const value = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe.each(STORES)("sanctions imports that cannot lose a list, on the %s store", (_name, createStore) => {
  let store: Store;
  let dir: string;
  let original: ReadonlyArray<SanctionsListing>;
  const sanctions = (file: string, options: Partial<ImportOptions> = {}) =>
    importFile(store, { kind: "sanctions", file, ...options });
  /** Writes `text` to a file of the temporary folder. */
  const written = async (name: string, text: string | Buffer) => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };

  beforeEach(async () => {
    store = await createStore();
    dir = await mkdtemp(join(tmpdir(), "openkyt-sanctions-"));
    const first = await sanctions(OFAC_EXTRACT, { asOf: "2026-08-20" });
    expect(first).toMatchObject({ added: 60, unchanged: 0, rejected: 0, delisted: 0 });
    original = await store.listSanctionsOfList(LIST);
    expect(original).toHaveLength(60);
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ["a PNG", () => PNG, /first line is "\\x89PNG\\r"\./],
    ["README.md", () => README, /first line is "# OpenKYT/],
    ["an empty file", () => fixture("empty.csv"), /\(the file is empty\)/],
    ["a labels CSV", () => fixture("labels.csv"), /It looks like a labels file \(csv\)/],
    ["a token list CSV", () => fixture("ethereum-lists.csv"), /It looks like a tokens file/],
  ])(
    "refuses %s as an unknown format, quoting its first line, and changes nothing",
    async (_what, path, quoted) => {
      const failure = await failureOf(sanctions(path()));
      expect(refusalOf(failure)).toBe("UNKNOWN_FORMAT");
      expect((failure as Error).message).toMatch(quoted);
      expect((failure as Error).message).toContain("address-list (one address per line");
      expect(await store.listSanctionsOfList(LIST)).toEqual(original);
      // Named as an address list, it is refused all the same.
      const named = await failureOf(sanctions(path(), { format: "address-list" }));
      expect(refusalOf(named)).toBe("UNKNOWN_FORMAT");
      expect(await store.listSanctionsOfList(LIST)).toEqual(original);
    },
  );

  it("refuses prose after an address, and a file with a NUL byte, as address lists", async () => {
    const prose = await written("list.txt", `${LAZARUS}\nsee https://example.org for the rest\n`);
    expect(refusalOf(await failureOf(sanctions(prose)))).toBe("UNKNOWN_FORMAT");
    const binary = await written("list2.txt", Buffer.from(`${LAZARUS}\n\u0000\u0001\u0002\n`));
    expect(refusalOf(await failureOf(sanctions(binary)))).toBe("UNKNOWN_FORMAT");
    expect(await store.listSanctionsOfList(LIST)).toEqual(original);
  });

  it("refuses the real file cut in half, whether the cut leaves a broken line or not", async () => {
    const bytes = await readFile(OFAC_EXTRACT);
    const midLine = await written("cut.csv", bytes.subarray(0, Math.floor(bytes.length / 2)));
    // The last row, cut, may still read as a row (an entity name cut short): then only the
    // mass-delisting limit stops it.
    const failure = await failureOf(sanctions(midLine, { asOf: "2026-09-01" }));
    expect(["INCOMPLETE_SNAPSHOT", "MASS_DELIST"]).toContain(refusalOf(failure));
    const text = bytes.toString("utf8");
    const atLine = await written("cut-at-line.csv", text.slice(0, text.indexOf("\n", text.length / 2) + 1));
    const mass = await failureOf(sanctions(atLine, { asOf: "2026-09-01" }));
    expect(refusalOf(mass)).toBe("MASS_DELIST");
    expect((mass as Error).message).toMatch(/would delist \d+ of the 60 listings .*--allow-mass-delist/);
    expect(await store.listSanctionsOfList(LIST)).toEqual(original);
  });

  it("refuses garbage lines in the middle of a complete list: rejected rows make it incomplete", async () => {
    const lines = (await readFile(OFAC_EXTRACT, "utf8")).split("\n");
    lines.splice(20, 3, "@@@@ this is not a row @@@@", "<<<>>>", "zz");
    const damaged = await written("damaged.csv", lines.join("\n"));
    const failure = await failureOf(sanctions(damaged, { asOf: "2026-09-01" }));
    expect(refusalOf(failure)).toBe("INCOMPLETE_SNAPSHOT");
    expect((failure as Error).message).toMatch(/3 rows could not be read \(line 21: /);
    expect(await store.listSanctionsOfList(LIST)).toEqual(original);
    // Without delisting it adds and updates only, and the listings it lacks stay.
    const kept = await sanctions(damaged, { asOf: "2026-09-01", delist: false });
    expect(kept).toMatchObject({ delisted: 0, added: 0, rejected: 3 });
    expect(await store.listSanctionsOfList(LIST)).toEqual(original);
  });

  it("a truncated address list is refused too", async () => {
    const addresses = original.map((l) => l.address);
    const full = await written("full.txt", `# Last Updated: 2026-08-20\n${addresses.join("\n")}\n`);
    expect(await sanctions(full)).toMatchObject({ unchanged: 60, delisted: 0, rejected: 0 });
    const half = `# Last Updated: 2026-09-01\n${addresses.slice(0, 30).join("\n")}\n${addresses[30]?.slice(0, 17)}`;
    const cut = await written("half.txt", half);
    expect(refusalOf(await failureOf(sanctions(cut)))).toBe("INCOMPLETE_SNAPSHOT");
    expect(await store.listSanctionsOfList(LIST)).toEqual(original);
  });

  it("another list's snapshot leaves this list as it was; a per-asset list never delists", async () => {
    const other = await sanctions(fixture("ofac-sdn-2026-09-01.csv"), { listName: "EU (test)" });
    expect(other.delisted).toBe(0);
    expect(await store.listSanctionsOfList(LIST)).toEqual(original);
    const perAsset = fixture("lists-2024-09-27/sanctioned_addresses_ETH.txt");
    expect(await sanctions(perAsset)).toMatchObject({ delisted: 0 });
    const forced = await failureOf(sanctions(perAsset, { delist: true, allowMassDelist: true }));
    expect(refusalOf(forced)).toBe("PARTIAL_LIST_DELIST");
    const listed = new Set(original.map((l) => l.address));
    const after = (await store.listSanctionsOfList(LIST)).filter((l) => listed.has(l.address));
    expect(after).toEqual(original);
  });

  it("refuses a mass delisting without allowMassDelist, applies it with the flag", async () => {
    const one = await written("one.txt", `# Last Updated: 2026-10-01\n${LAZARUS}\n`);
    const failure = await failureOf(sanctions(one));
    expect(refusalOf(failure)).toBe("MASS_DELIST");
    expect((failure as Error).message).toContain("would delist 59 of the 60 listings");
    expect(await store.listSanctionsOfList(LIST)).toEqual(original);
    // Up to 3 (5% of 60, no floor: a floor of 10 let a list of 10 or fewer be emptied) pass
    // without the flag; 4 do not.
    const kept = (n: number) => original.slice(0, n).map((l) => l.address);
    const lessFour = await written("fifty-six.txt", `# Last Updated: 2026-09-15\n${kept(56).join("\n")}\n`);
    expect(refusalOf(await failureOf(sanctions(lessFour)))).toBe("MASS_DELIST");
    expect(await store.listSanctionsOfList(LIST)).toEqual(original);
    const lessThree = await written(
      "fifty-seven.txt",
      `# Last Updated: 2026-09-15\n${kept(57).join("\n")}\n`,
    );
    expect(await sanctions(lessThree)).toMatchObject({ delisted: 3, unchanged: 57 });
    const applied = await sanctions(one, { allowMassDelist: true });
    expect(applied).toMatchObject({ delisted: 56, unchanged: 1 });
    const open = (await store.listSanctionsOfList(LIST)).filter((l) => l.delistedAt === null);
    expect(open.map((l) => l.address)).toEqual([LAZARUS]);
  });

  it("a dry run writes nothing and previews what would be added, changed and delisted", async () => {
    const preview = await sanctions(fixture("ofac-sdn-2026-09-01.csv"), { dryRun: true });
    expect(preview).toMatchObject({ dryRun: true, added: 3, delisted: 55, refusal: { code: "MASS_DELIST" } });
    expect(preview.preview?.added).toHaveLength(3);
    const listed = original.map((l) => l.address);
    expect(preview.preview?.delisted).toEqual(listed.filter((a) => preview.preview?.delisted.includes(a)));
    expect(preview.preview?.delisted).toHaveLength(5);
    expect(await store.listSanctionsOfList(LIST)).toEqual(original);
    // 3 delistings: the most 5% of 60 allows (5 passed under the old floor of 10).
    const smaller = original.slice(0, 57).map((l) => l.address);
    const file = await written("smaller.txt", `# Last Updated: 2026-09-01\n${smaller.join("\n")}\n`);
    const dry = await sanctions(file, { dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, unchanged: 57, delisted: 3, refusal: null });
    expect(dry.preview?.delisted).toEqual(original.slice(57).map((l) => l.address));
    expect(await store.listSanctionsOfList(LIST)).toEqual(original);
  });

  /**
   * A bad run (forced) that ends every listing but Lazarus Group's, on 2026-10-01; answers
   * whether another address of the list screens as sanctioned on 2026-10-02 (false right after).
   */
  async function badRunLeavingOnlyLazarus(): Promise<() => Promise<boolean>> {
    const one = await written("one.txt", `# Last Updated: 2026-10-01\n${LAZARUS}\n`);
    await sanctions(one, { allowMassDelist: true });
    const other = original.find((l) => l.address !== LAZARUS)?.address ?? "";
    const screened = () =>
      store
        .getSanctions([other])
        .then((l) => sanctionsAsOf(l, other, { from: day("2026-10-02"), to: day("2026-10-03") }).hit);
    expect(await screened()).toBe(false);
    return screened;
  }

  it("re-importing the correct snapshot restores whatever a bad run ended", async () => {
    const screened = await badRunLeavingOnlyLazarus();
    const restored = await sanctions(OFAC_EXTRACT, { asOf: "2026-08-20" });
    expect(restored).toMatchObject({ added: 0, updated: 59, relisted: 59, unchanged: 1, delisted: 0 });
    expect(await store.listSanctionsOfList(LIST)).toEqual(original);
    expect(await screened()).toBe(true);
    const again = await sanctions(OFAC_EXTRACT, { asOf: "2026-08-20" });
    expect(again).toMatchObject({ unchanged: 60, updated: 0, relisted: 0 });
  });

  it("never delists from a file with no row, and a small list loses nothing unasked", async () => {
    const lines = (await readFile(OFAC_EXTRACT, "utf8")).split("\n");
    const headerOnly = await written("header-only.csv", `${lines[0]}\n`);
    const empty = await failureOf(sanctions(headerOnly, { asOf: "2026-09-01", allowMassDelist: true }));
    expect(refusalOf(empty)).toBe("INCOMPLETE_SNAPSHOT");
    expect((empty as Error).message).toMatch(/no row the import could take/);
    expect(await store.listSanctionsOfList(LIST)).toEqual(original);
    // A list of 8 (below the old floor of 10, which let any such list be emptied).
    const mini = await written("mini.csv", `${lines.slice(0, 9).join("\n")}\n`);
    expect(await sanctions(mini, { listName: "Mini", asOf: "2026-08-20" })).toMatchObject({ added: 8 });
    const small = await store.listSanctionsOfList("Mini");
    expect(refusalOf(await failureOf(sanctions(headerOnly, { listName: "Mini", asOf: "2026-09-01" })))).toBe(
      "INCOMPLETE_SNAPSHOT",
    );
    const lessOne = await written("mini-less-one.csv", `${lines.slice(0, 8).join("\n")}\n`);
    const one = await failureOf(sanctions(lessOne, { listName: "Mini", asOf: "2026-09-01" }));
    expect(refusalOf(one)).toBe("MASS_DELIST");
    expect((one as Error).message).toContain("would delist 1 of the 8 listings");
    expect(await store.listSanctionsOfList("Mini")).toEqual(small);
    expect(await store.listSanctionsOfList(LIST)).toEqual(original);
    const asked = await sanctions(lessOne, { listName: "Mini", asOf: "2026-09-01", allowMassDelist: true });
    expect(asked).toMatchObject({ delisted: 1, unchanged: 7 });
  });

  it("refuses to delist from a file cut mid-line or with an address cut short", async () => {
    // Ethereum addresses last: one cut short is shaped like an address of no supported network.
    const addresses = original
      .map((l) => l.address)
      .sort((a, b) => Number(a.startsWith("0x")) - Number(b.startsWith("0x")));
    const last = addresses.at(-1) ?? "";
    expect(last).toMatch(/^0x/);
    const head = `# Last Updated: 2026-09-01\n${addresses.slice(0, -1).join("\n")}\n${last.slice(0, 30)}`;
    const cut = await failureOf(sanctions(await written("cut.txt", head)));
    expect(refusalOf(cut)).toBe("INCOMPLETE_SNAPSHOT");
    expect((cut as Error).message).toMatch(/cut mid-line/);
    expect(await store.listSanctionsOfList(LIST)).toEqual(original);
    const ended = await failureOf(sanctions(await written("cut-nl.txt", `${head}\n`)));
    expect(refusalOf(ended)).toBe("INCOMPLETE_SNAPSHOT");
    expect((ended as Error).message).toContain(`is the start of "${last}"`);
    expect(await store.listSanctionsOfList(LIST)).toEqual(original);
    // The OFAC CSV cut in the last row's entity name: the row still reads, one listing would end.
    const text = await readFile(OFAC_EXTRACT, "utf8");
    const rows = text.trimEnd().split("\n");
    const lastTwo = rows.at(-2) ?? "";
    const midEntity = `${rows.slice(0, -2).join("\n")}\n${lastTwo.slice(0, lastTwo.lastIndexOf(",") - 3)}`;
    const csv = await failureOf(sanctions(await written("cut.csv", midEntity), { asOf: "2026-09-01" }));
    expect(refusalOf(csv)).toBe("INCOMPLETE_SNAPSHOT");
    expect(await store.listSanctionsOfList(LIST)).toEqual(original);
    // Without delisting, the file may still add and update.
    const kept = await sanctions(await written("cut2.txt", head), { delist: false });
    expect(kept).toMatchObject({ delisted: 0, skipped: 1 });
    expect(await store.listSanctionsOfList(LIST)).toEqual(original);
  });

  it("a correct snapshot dated after a bad run reopens what that run ended, not what older runs ended", async () => {
    const screened = await badRunLeavingOnlyLazarus();
    // Dated after the bad run (as a file without a date always is: it is dated now).
    const restored = await sanctions(OFAC_EXTRACT, { asOf: "2026-10-15" });
    expect(restored).toMatchObject({ added: 0, updated: 59, relisted: 59, unchanged: 1, delisted: 0 });
    expect(await store.listSanctionsOfList(LIST)).toEqual(original);
    expect(await screened()).toBe(true);
    const undated = await sanctions(OFAC_EXTRACT);
    expect(undated).toMatchObject({ unchanged: 60, relisted: 0 });
    // A delisting confirmed by a later run that delisted another stays: that address is listed anew.
    const [first, second] = original.slice(-2).map((l) => l.address);
    const without = (...gone: string[]) =>
      original
        .map((l) => l.address)
        .filter((a) => !gone.includes(a))
        .join("\n");
    await sanctions(await written("a.txt", `# Last Updated: 2026-11-01\n${without(first ?? "")}\n`));
    await sanctions(
      await written("b.txt", `# Last Updated: 2026-11-15\n${without(first ?? "", second ?? "")}\n`),
    );
    const back = await sanctions(OFAC_EXTRACT, { asOf: "2026-12-01" });
    expect(back).toMatchObject({ added: 1, relisted: 1, unchanged: 58 });
    expect(await store.getSanctions([second ?? ""])).toEqual(original.filter((l) => l.address === second));
    const firsts = await store.getSanctions([first ?? ""]);
    expect(firsts.map((l) => [l.listedAt, l.delistedAt])).toEqual([
      [day("2026-08-20"), day("2026-11-01")],
      [day("2026-12-01"), null],
    ]);
  });

  it("leaves nothing half-applied when the store fails in the middle of the write", async () => {
    const one = await written("one.txt", `# Last Updated: 2026-10-01\n${LAZARUS}\n`);
    const broken = failingMidWrite(store);
    const failure = await failureOf(
      importFile(broken, { kind: "sanctions", file: one, allowMassDelist: true, batchSize: 5 }),
    );
    expect((failure as Error).message).toContain("disk full");
    expect(await store.listSanctionsOfList(LIST)).toEqual(original);
    const newer = await failureOf(
      importFile(broken, { kind: "sanctions", file: fixture("ofac-sdn-2026-09-01.csv"), delist: false }),
    );
    expect((newer as Error).message).toContain("disk full");
    expect(await store.listSanctionsOfList(LIST)).toEqual(original);
  });
});

describe.each(STORES)("designation dates on the %s store", (_name, createStore) => {
  it("keeps a source's designation date, starts the listing there, and keeps it when a later file has none", async () => {
    const store = await createStore();
    const dir = await mkdtemp(join(tmpdir(), "openkyt-designated-"));
    try {
      const header = "address,address_lower,asset,sdn_entity,sdn_programs,designated_at";
      const row = `${LAZARUS},${LAZARUS},ETH,LAZARUS GROUP,DPRK3`;
      const dated = join(dir, "sdn-2026-08-20.csv");
      await writeFile(dated, `${header}\n${row},2022-04-14\n0x${"b".repeat(40)},,ETH,X,Y,\n`);
      const first = await importFile(store, { kind: "sanctions", file: dated });
      expect(first).toMatchObject({ added: 2, rejected: 0 });
      const [listing] = await store.getSanctions([LAZARUS]);
      expect(listing).toMatchObject({ designatedAt: day("2022-04-14"), listedAt: day("2022-04-14") });
      const [undated] = await store.getSanctions([`0x${"b".repeat(40)}`]);
      expect(undated).not.toHaveProperty("designatedAt");
      expect(undated?.listedAt).toBe(day("2026-08-20"));
      const plain = join(dir, "sdn-2026-09-01.csv");
      await writeFile(
        plain,
        `address,address_lower,asset,sdn_entity,sdn_programs\n${row}\n0x${"b".repeat(40)},,ETH,X,Y\n`,
      );
      expect(await importFile(store, { kind: "sanctions", file: plain })).toMatchObject({ unchanged: 2 });
      expect(await store.getSanctions([LAZARUS])).toEqual([listing]);
      const bad = join(dir, "sdn-bad.csv");
      await writeFile(bad, `${header}\n${row},14/04/2022\n`);
      const rejected = await importFile(store, { kind: "sanctions", file: bad, delist: false });
      expect(rejected.rejections[0]?.reason).toContain("designated_at");
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("quoting a first line", () => {
  it("shows bytes that are not printable text as escapes, and cuts long lines", () => {
    expect(quotedFirstLine(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a]))).toBe('"\\x89PNG\\r"');
    expect(quotedFirstLine(Buffer.from('\n\nnaïve "list"\tok\nnext'))).toBe('"naïve \\"list\\"\\tok"');
    expect(quotedFirstLine(Buffer.from(""))).toBe("(the file is empty)");
    expect(quotedFirstLine(Buffer.from("x".repeat(200)))).toBe(`"${"x".repeat(80)}..."`);
  });
});
