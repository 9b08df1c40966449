import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLab } from "../src/lab.js";

const data = join(dirname(fileURLToPath(import.meta.url)), "..", "data");

/**
 * The lab on its own data. What each deposit gets, worked out by hand from data/ and
 * docs/risk-model.md (§4 for the rules, §6 for the built-in model) and data/model-b.json:
 *
 * | deposit | funds                                   | built-in model                 | model B                   |
 * | ------- | --------------------------------------- | ------------------------------ | ------------------------- |
 * | d1      | from the exchange                       | none (exchange raises nothing) | none                      |
 * | d2      | hop1: half mixer, half exchange         | medium (mixer 0.5, >= 100 USD) | high (mixer >= 0.05)      |
 * | d3      | from the casino                         | medium (gambling, direct)      | low (gambling, direct)    |
 * | d4      | hop2: 5% mixer, 95% exchange            | low (its address exposure)     | high (mixer >= 0.05)      |
 * | d5      | from the scam                           | high (scam, direct)            | high                      |
 * | d6      | from the exchange                       | none                           | none                      |
 */
describe("examples/risk-lab", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "openkyt-risk-lab-test-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("screens the deposits with the built-in model and backtests model B against it", async () => {
    let out = "";
    const report = await runLab({
      ledger: join(data, "ledger.csv"),
      labels: join(data, "labels.csv"),
      deposits: join(data, "deposits.csv"),
      model: join(data, "model-b.json"),
      db: join(dir, "lab.db"),
      io: {
        stdout: (t) => {
          out += t;
        },
        stderr: () => {},
        env: {},
        untilSignal: () => new Promise(() => {}),
      },
    });
    expect(report).toMatchObject({
      evaluated: 6,
      unchecked: 0,
      actual_models: [{ version: "default@1", transfers: 6 }],
    });
    const levels = Object.fromEntries(report.levels.map((l) => [l.level, [l.actual, l.candidate]]));
    expect(levels).toEqual({
      undefined: [0, 0],
      none: [2, 2],
      low: [1, 1],
      medium: [2, 0],
      high: [1, 3],
      severe: [0, 0],
    });
    expect(report.shift).toMatchObject({ up: 2, down: 1, same: 3 });
    const moves = report.shift.moves.map((m) => `${m.from}->${m.to}:${m.count}`);
    expect(moves).toEqual(["none->none:2", "low->high:1", "medium->low:1", "medium->high:1", "high->high:1"]);
    const candidateAlerts = report.alerts
      .filter((a) => a.candidate > 0)
      .map((a) => `${a.risk_type}/${a.category}:${a.candidate}`);
    expect(candidateAlerts).toEqual([
      "origin_of_funds/mixer:2",
      "origin_of_funds/scam:1",
      "sender_entity/gambling:1",
      "sender_entity/scam:1",
    ]);
    // The table went to stdout.
    expect(out).toContain("level shift: 2 up, 1 down, 3 same");
  });
});
