import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as schemas from "../../src/schemas/index.js";
import { isStorableText, parseInput, textProblem } from "../../src/schemas/index.js";
import { placed, stringLeaves } from "./schema-strings.js";
import { validationErrorOf } from "./validation-expect.js";

const NUL_MESSAGE = "must not contain NUL (U+0000)";
const SURROGATE_MESSAGE = "must not contain an unpaired UTF-16 surrogate (not well-formed Unicode)";

/** The request and query schemas: every exported `*Schema` that is not a response or a part of one. */
const INPUT_SCHEMAS = Object.entries(schemas).filter(
  ([name, value]) =>
    name.endsWith("Schema") &&
    value instanceof z.ZodType &&
    !/Response|Report|Page|Interaction|alertTransfer|alertHistoryEntry|errorBody|manualCheck(Address|Transfer)Schema|riskRuleBody|queueItem|queueSummarySchema|bulkChangeItem|riskModelDiff/.test(
      name,
    ),
) as [string, z.ZodType][];

describe("textProblem: the one rule for wire strings", () => {
  it("refuses NUL anywhere and unpaired surrogates, accepts everything else", () => {
    expect(textProblem("a\0b")).toBe(NUL_MESSAGE);
    expect(textProblem("\0")).toBe(NUL_MESSAGE);
    expect(textProblem("\uD800")).toBe(SURROGATE_MESSAGE);
    expect(textProblem("x\uDFFF")).toBe(SURROGATE_MESSAGE);
    expect(textProblem("\uDE00\uD83D")).toBe(SURROGATE_MESSAGE); // a pair the wrong way round
    for (const ok of ["", "plain", "\u{1F600}", "\uFFFD", "\uFFFF", "\u0001\u001f\u007f", "é中文"]) {
      expect(textProblem(ok), JSON.stringify(ok)).toBeNull();
      expect(isStorableText(ok)).toBe(true);
    }
  });

  it("agrees with String.prototype.isWellFormed and a NUL search on any string", () => {
    const wellFormed = (s: string) =>
      (s as unknown as { isWellFormed(): boolean }).isWellFormed() && !s.includes("\0");
    fc.assert(
      fc.property(
        fc.string({ unit: "binary" }),
        fc.string({ unit: fc.constantFrom("\0", "\uD800", "\uDC00", "a") }),
        (a, b) => {
          expect(isStorableText(a + b)).toBe(wellFormed(a + b));
          expect(textProblem(a + b) === null).toBe(wellFormed(a + b));
        },
      ),
    );
  });

  it("stores round-trip: accepted text encodes to UTF-8 and back unchanged", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        if (!isStorableText(s)) return;
        expect(new TextDecoder().decode(new TextEncoder().encode(s))).toBe(s);
      }),
    );
  });
});

describe("every string of every request and query schema refuses NUL and lone surrogates", () => {
  it("covers the request and query schemas", () => {
    expect(INPUT_SCHEMAS.map(([name]) => name).sort()).toEqual(
      [
        "addressProfileQuerySchema",
        "alertBulkChangeSchema",
        "alertBulkUpdateSchema",
        "alertListQuerySchema",
        "alertUpdateSchema",
        "auditQuerySchema",
        "backtestBodySchema",
        "backtestRunSchema",
        "bindTransactionSchema",
        "caseDecisionSchema",
        "explorerSettingsSchema",
        "modelApprovalSettingSchema",
        "modelApproveSchema",
        "modelRejectSchema",
        "checkAddressSchema",
        "checkTransferSchema",
        "manualCheckListQuerySchema",
        "pageQuerySchema",
        "queueOnlySchema",
        "queueQuerySchema",
        "queueSummaryQuerySchema",
        "registerAttemptSchema",
        "registerTransferSchema",
        "riskModelBodySchema",
        "riskModelReplaceSchema",
        "slaPolicySchema",
        "tokenListQuerySchema",
        "transferListQuerySchema",
        "webhookCreateSchema",
        "webhookRedeliverSchema",
      ].sort(),
    );
  });

  for (const [name, schema] of INPUT_SCHEMAS) {
    const leaves = stringLeaves(schema);
    if (leaves.length === 0) continue;
    for (const leaf of leaves) {
      const field = leaf.path.join(".");
      for (const [label, value, message] of [
        ["NUL", "ok\0", NUL_MESSAGE],
        ["a lone high surrogate", "ok\uD800", SURROGATE_MESSAGE],
        ["a lone low surrogate", "\uDC00ok", SURROGATE_MESSAGE],
      ] as const) {
        it(`${name} ${field}: ${label} is a VALIDATION_ERROR naming ${field}`, () => {
          const error = validationErrorOf(() => parseInput(schema, placed(leaf.path, value), name));
          const messages = error.errors[field];
          expect(messages, JSON.stringify(error.errors)).toBeDefined();
          // A field of listed values names them instead: the value is refused either way.
          if (!leaf.enumerated) expect(messages).toContain(message);
        });
      }
    }
  }

  it("a NUL at any position of any field of a valid register body names that field", () => {
    const valid = {
      client_id: "client-1",
      direction: "incoming",
      network: "ETH",
      tx_hash: `0x${"ab".repeat(32)}`,
      token_id: "native",
      output_address: `0x${"cd".repeat(20)}`,
      risk_model: "default",
    };
    const keys = Object.keys(valid) as (keyof typeof valid)[];
    fc.assert(
      fc.property(
        fc.constantFrom(...keys),
        fc.nat(),
        fc.constantFrom("\0", "\uD83D", "\uDE00"),
        (key, at, bad) => {
          const text = valid[key];
          const i = at % (text.length + 1);
          const body = { ...valid, [key]: `${text.slice(0, i)}${bad}${text.slice(i)}` };
          const error = validationErrorOf(() => parseInput(schemas.registerTransferSchema, body, "register"));
          expect(Object.keys(error.errors)).toEqual([key]);
        },
      ),
    );
  });

  it("a surrogate pair (an emoji) is text like any other", () => {
    const body = { name: "strict \u{1F6A8}", copy_from: "default" };
    expect(parseInput(schemas.riskModelBodySchema, body, "risk model").name).toBe("strict \u{1F6A8}");
  });
});

describe("a backtest's model, an id or a body, refuses NUL at the field it is in", () => {
  const window = { from: "2024-01-01", to: "2024-01-02" };
  it("names model for an id and model.name for a body", () => {
    const byId = validationErrorOf(() =>
      parseInput(schemas.backtestRunSchema, { ...window, model: "a\0" }, "b"),
    );
    expect(byId.errors.model).toContain(NUL_MESSAGE);
    const byBody = validationErrorOf(() =>
      parseInput(schemas.backtestRunSchema, { ...window, model: { name: "x\uD800", rules: [] } }, "b"),
    );
    expect(byBody.errors["model.name"]).toContain(SURROGATE_MESSAGE);
  });
});
