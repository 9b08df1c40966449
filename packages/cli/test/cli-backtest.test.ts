import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type BacktestReportResponse,
  type ExposureResult,
  levelShiftSentence,
  type RiskModel,
  type RiskRule,
  type TransferRecord,
} from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compactText, pdfText, popplerMissing } from "../../pdf/test/poppler-tools.js";
import { type CliIo, COMMANDS, runCli } from "../src/index.js";

const T0 = Date.parse("2026-10-01T00:00:00Z");
const checked = { state: "checked", at: T0 } as const;

const rule = (
  ruleType: RiskRule["ruleType"],
  ruleSubType: RiskRule["ruleSubType"],
  entityCategory: string,
  riskLevel: RiskRule["riskLevel"],
  minValueShare: number | null,
): RiskRule => ({ ruleType, ruleSubType, entityCategory, riskLevel, minValueShare, minValueInFiat: null });

/** Version 1 flags mixers from half the funds; version 2 from a fifth, and gambling counterparties. */
const v1: RiskModel = {
  id: "lab",
  name: "lab",
  version: 1,
  rules: [
    rule("origin_of_funds", "all", "mixer", "high", 0.5),
    rule("destination_of_funds", "all", "sanctions", "high", 0.05),
  ],
};
const v2: RiskModel = {
  ...v1,
  version: 2,
  rules: [
    ...v1.rules.slice(1),
    rule("origin_of_funds", "all", "mixer", "high", 0.2),
    rule("entity", "direct", "gambling", "medium", null),
  ],
};

function exposure(category: string, share: number, value: number): ExposureResult {
  const shares = [
    {
      category,
      proximity: "indirect" as const,
      share,
      valueInFiat: share * value,
      entityNames: [],
      minHops: 2,
      path: [],
    },
    {
      category: "undefined",
      proximity: "indirect" as const,
      share: 1 - share,
      valueInFiat: (1 - share) * value,
      entityNames: [],
      minHops: 3,
      path: [],
    },
  ];
  return { direct: null, shares, truncated: false, edgesRead: 2, hops: 2 };
}

function transfer(id: string, overrides: Partial<TransferRecord>): TransferRecord {
  return {
    id,
    accountId: "lab",
    clientId: null,
    attemptId: null,
    registeredAt: T0,
    network: "ETH",
    tokenId: "native",
    tokenSymbol: "ETH",
    direction: "incoming",
    txStatus: "bound",
    txHash: `0x${id}`,
    occurredAt: T0,
    inputAddress: "0xa",
    outputAddress: "0xb",
    amount: 1,
    valueInFiat: 1_000,
    riskLevel: "none",
    riskScore: 0,
    riskModelId: "lab",
    riskModelVersion: "lab@1",
    checks: { exposure: checked, counterparty: checked, sanctions: checked },
    disableAutoCheck: false,
    exposure: null,
    counterparty: null,
    sanctions: null,
    counterpartyName: null,
    counterpartyCategory: null,
    lastError: null,
    updatedAt: T0,
    ...overrides,
  };
}

/**
 * Four screened transfers, their fate under version 2 worked out by hand from docs/risk-model.md:
 * 30% from a mixer goes none -> high; a gambling counterparty none -> medium; 10% to a sanctioned
 * address stays high; a transfer never checked is not evaluated.
 */
const HISTORY: TransferRecord[] = [
  transfer("t1", { exposure: exposure("mixer", 0.3, 1_000) }),
  transfer("t2", {
    registeredAt: T0 + 1,
    counterparty: { address: "0xa", entity: { name: "Casino", category: "gambling" }, exposure: null },
  }),
  transfer("t3", {
    registeredAt: T0 + 2,
    direction: "outgoing",
    riskLevel: "high",
    riskScore: 0.75,
    exposure: exposure("sanctions", 0.1, 1_000),
  }),
  transfer("t4", {
    registeredAt: T0 + 3,
    riskLevel: "undefined",
    riskScore: null,
    riskModelVersion: null,
    checks: {
      exposure: { state: "queued", at: T0 },
      counterparty: { state: "queued", at: T0 },
      sanctions: { state: "queued", at: T0 },
    },
  }),
];

function capture(): CliIo & { out: string; err: string } {
  const io = {
    out: "",
    err: "",
    env: {},
    stdout: (t: string) => {
      io.out += t;
    },
    stderr: (t: string) => {
      io.err += t;
    },
    untilSignal: () => Promise.resolve("SIGTERM"),
  };
  return io;
}

describe("openkyt backtest", () => {
  let dir: string;
  let db: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "openkyt-backtest-cli-"));
    db = join(dir, "kyt.db");
    const store = await createSqliteStore({ filename: db });
    await store.putRiskModel("lab", v1, T0);
    await store.putRiskModel("lab", v2, T0);
    for (const t of HISTORY) await store.insertTransfer(t);
    await store.close();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const window = ["--from", "2000-01-01", "--to", "2100-01-01"];

  it("prints the report as JSON with --json, with the documented counts", async () => {
    const io = capture();
    const status = await runCli(
      ["backtest", "--db", db, "--account", "lab", "--model", "lab", ...window, "--json"],
      io,
      COMMANDS,
    );
    expect(io.err).toContain("backtest: 4 of 4 transfers");
    expect(status).toBe(0);
    const report = JSON.parse(io.out);
    expect(report).toMatchObject({ candidate: "lab@2", evaluated: 3, unchecked: 1, actual_model_missing: 0 });
    expect(report.levels).toEqual([
      { level: "undefined", actual: 0, candidate: 0 },
      { level: "none", actual: 2, candidate: 0 },
      { level: "low", actual: 0, candidate: 0 },
      { level: "medium", actual: 0, candidate: 1 },
      { level: "high", actual: 1, candidate: 2 },
      { level: "severe", actual: 0, candidate: 0 },
    ]);
    expect(report.alerts).toEqual([
      { risk_type: "destination_of_funds", category: "sanctions", actual: 1, candidate: 1 },
      { risk_type: "origin_of_funds", category: "mixer", actual: 0, candidate: 1 },
      { risk_type: "sender_entity", category: "gambling", actual: 0, candidate: 1 },
    ]);
    expect(report.shift).toMatchObject({ up: 2, down: 0, same: 1, up_ids: ["t1", "t2"], down_ids: [] });
  });

  it("prints a table; a model file works as well as an id", async () => {
    const file = join(dir, "model.json");
    await writeFile(file, JSON.stringify({ name: "From a file", copy_from: "lab" }));
    const byFile = capture();
    expect(
      await runCli(
        ["backtest", "--db", db, "--account", "lab", "--model", file, ...window],
        byFile,
        COMMANDS,
      ),
    ).toBe(0);
    const byId = capture();
    expect(
      await runCli(["backtest", "--db", db, "--account", "lab", "--model", "lab", ...window], byId, COMMANDS),
    ).toBe(0);
    expect(byFile.out).toContain("Backtest of From a file (version 1), inline:From a file");
    expect(byId.out).toMatch(/^Backtest of .+ \(version 2\), lab@2,/);
    const body = (text: string) =>
      text
        .split("\n")
        .slice(3)
        .join("\n")
        .replace(/\d[\d,]* transfers\/s/, "");
    expect(body(byFile.out)).toEqual(body(byId.out));
    expect(byId.out).toMatch(/^level\s+actual\s+candidate\s+change$/m);
    expect(byId.out).toMatch(/^level shift: \d+ up, \d+ down, \d+ same$/m);
  });

  it("--html writes a page with the level-shift chart; the model's name is escaped", async () => {
    const file = join(dir, "hostile.json");
    await writeFile(file, JSON.stringify({ name: "<script>alert(1)</script>", copy_from: "lab" }));
    const page = join(dir, "report.html");
    const io = capture();
    expect(
      await runCli(
        ["backtest", "--db", db, "--account", "lab", "--model", file, ...window, "--html", page],
        io,
        COMMANDS,
      ),
    ).toBe(0);
    const html = await readFile(page, "utf8");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&#60;script&#62;alert(1)&#60;/script&#62;");
    // One bar per level and side, its height proportional to its count (the largest: 180 px).
    const bars = [
      ...html.matchAll(
        /<rect class="(\w+)" data-level="(\w+)" data-count="(\d+)" x="\d+" y="\d+" width="30" height="(\d+)"/g,
      ),
    ];
    expect(bars).toHaveLength(12);
    const bar = (side: string, level: string) => bars.find((b) => b[1] === side && b[2] === level);
    expect(bar("candidate", "high")?.slice(3)).toEqual(["2", "180"]);
    expect(bar("actual", "high")?.slice(3)).toEqual(["1", "90"]);
    expect(bar("candidate", "medium")?.slice(3)).toEqual(["1", "90"]);
    expect(bar("actual", "severe")?.slice(3)).toEqual(["0", "0"]);
    expect(html).toContain("Level shift: 2 up, 0 down, 1 same");
  });

  it.skipIf(popplerMissing() !== null)(
    "--pdf writes the report as a PDF (real renderer): the candidate, the shift and the transfers that move",
    async () => {
      const file = join(dir, "report.pdf");
      const io = capture();
      expect(
        await runCli(
          ["backtest", "--db", db, "--account", "lab", "--model", "lab", ...window, "--pdf", file, "--json"],
          io,
          COMMANDS,
        ),
      ).toBe(0);
      const report = JSON.parse(io.out) as BacktestReportResponse;
      expect(io.err).toContain(`PDF report written to ${file}`);
      const bytes = new Uint8Array(await readFile(file));
      expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
      const text = pdfText(bytes);
      expect(text).toContain("Backtest report");
      expect(text).toMatch(/Candidate model\s+.+ \(version 2\), lab@2/);
      expect(text).toContain("2000-01-01 .. 2100-01-01");
      expect(text).toContain(levelShiftSentence(report.shift));
      for (const id of [...report.shift.up_ids, ...report.shift.down_ids])
        expect(compactText(bytes)).toContain(id);
      // Transfers by level: each level's two counts and the change, as the report says.
      for (const l of report.levels.filter((x) => x.actual + x.candidate > 0)) {
        const change = l.candidate - l.actual;
        const signed = change > 0 ? `+${change}` : String(change);
        const name = l.level === "undefined" ? "Not computed" : l.level[0]?.toUpperCase() + l.level.slice(1);
        expect(text).toMatch(
          new RegExp(`${name}\\s+${l.actual}\\s+${l.candidate}\\s+${signed.replace("+", "\\+")}`),
        );
      }
      expect(text).toContain("Origin of funds");
    },
  );

  it("says what is wrong: usage (2), an unknown model or a bad date (1)", async () => {
    const noAccount = capture();
    expect(await runCli(["backtest", "--db", db, "--model", "lab", ...window], noAccount, COMMANDS)).toBe(2);
    expect(noAccount.err).toContain("--account NAME is required");
    const unknown = capture();
    expect(
      await runCli(
        ["backtest", "--db", db, "--account", "lab", "--model", "nope", ...window],
        unknown,
        COMMANDS,
      ),
    ).toBe(1);
    expect(unknown.err).toContain("risk model nope not found");
    const badDate = capture();
    expect(
      await runCli(
        ["backtest", "--db", db, "--account", "lab", "--model", "lab", "--from", "May", "--to", "2026-01-01"],
        badDate,
        COMMANDS,
      ),
    ).toBe(1);
    expect(badDate.err).toContain("from:");
    const missingFile = capture();
    expect(
      await runCli(
        ["backtest", "--db", db, "--account", "lab", "--model", "nowhere.json", ...window],
        missingFile,
        COMMANDS,
      ),
    ).toBe(2);
    expect(missingFile.err).toContain("no such file");
  });
});
