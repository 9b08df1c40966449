import { describe, expect, it } from "vitest";
import { ENTITY_CATEGORIES } from "../../src/domain/entity-categories.js";
import { NETWORKS } from "../../src/domain/networks.js";
import {
  entityCategoryId,
  entityCategoryInfoResponseSchema,
  entityCategoryPageSchema,
  errorBodySchema,
  networkInfoResponseSchema,
  presentEntityCategory,
  presentNetwork,
  presentPage,
  presentToken,
  tokenInfoResponseSchema,
  uuidV5,
} from "../../src/schemas/index.js";

describe("presentNetwork and presentToken", () => {
  it("presents every network", () => {
    for (const n of NETWORKS) networkInfoResponseSchema.parse(presentNetwork(n));
    expect(presentNetwork(NETWORKS.find((n) => n.code === "TRX") ?? NETWORKS[0]!)).toEqual({
      code: "TRX",
      name: "Tron",
      address_family: "tron",
      native_symbol: "TRX",
      native_decimals: 6,
    });
  });

  it("presents a token with full check levels", () => {
    const token = {
      network: "TRX",
      tokenId: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
      symbol: "USDT",
      decimals: 6,
      name: "Tether USD",
    };
    expect(tokenInfoResponseSchema.parse(presentToken(token))).toEqual({
      network: "TRX",
      token_id: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
      symbol: "USDT",
      name: "Tether USD",
      decimals: 6,
      check_levels: { transfer_exposure: "full", transfer_counterparty: "full", address_exposure: "full" },
    });
  });
});

describe("presentEntityCategory", () => {
  it("uuidV5 matches the RFC example (python.org in the DNS namespace)", () => {
    expect(uuidV5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "python.org")).toBe(
      "886313e1-3b8a-5372-9b90-0c9aee199e5d",
    );
  });

  it("gives every built-in category a distinct, stable v5 UUID", () => {
    const ids = ENTITY_CATEGORIES.map((c) => entityCategoryId(c.code));
    expect(new Set(ids).size).toBe(ENTITY_CATEGORIES.length);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(entityCategoryId("sanctions")).toBe(entityCategoryId("sanctions"));
  });

  it("presents the table, and custom categories with their own id and time", () => {
    const page = presentPage(ENTITY_CATEGORIES.map(presentEntityCategory), ENTITY_CATEGORIES.length, {
      page: 1,
      pageSize: 100,
    });
    expect(entityCategoryPageSchema.parse(page).total_items).toBe(43);
    const cam = presentEntityCategory(ENTITY_CATEGORIES.find((c) => c.code === "child_abuse_material")!);
    expect(cam).toMatchObject({
      color: "#880E4F",
      is_custom: false,
      created_at: "2024-01-01T00:00:00.000000+00:00",
    });
    const custom = entityCategoryInfoResponseSchema.parse(
      presentEntityCategory({
        code: "vip",
        name: "VIP",
        description: "Our VIP clients.",
        color: "#123456",
        isCustom: true,
        id: "c0ffee00-0000-4000-8000-000000000000",
        createdAt: Date.UTC(2025, 0, 2),
      }),
    );
    expect(custom).toMatchObject({
      id: "c0ffee00-0000-4000-8000-000000000000",
      is_custom: true,
      created_at: "2025-01-02T00:00:00.000000+00:00",
    });
  });
});

describe("errorBodySchema", () => {
  it("describes the error body", () => {
    expect(
      errorBodySchema.parse({
        detail: "invalid body: amount: x",
        code: "VALIDATION_ERROR",
        errors: { amount: ["x"] },
      }),
    ).toBeTruthy();
    expect(() => errorBodySchema.parse({ detail: "x", code: "X" })).toThrow();
  });
});
