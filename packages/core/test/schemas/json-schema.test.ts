import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as schemas from "../../src/schemas/index.js";

const requests = {
  register: schemas.registerTransferSchema,
  registerAttempt: schemas.registerAttemptSchema,
  bind: schemas.bindTransactionSchema,
  checkTransfer: schemas.checkTransferSchema,
  checkAddress: schemas.checkAddressSchema,
  transfers: schemas.transferListQuerySchema,
  alerts: schemas.alertListQuerySchema,
  tokens: schemas.tokenListQuerySchema,
  pages: schemas.pageQuerySchema,
};
const responses = {
  transfer: schemas.transferResponseSchema,
  transfers: schemas.transferPageSchema,
  manualCheck: schemas.manualCheckResponseSchema,
  alert: schemas.alertResponseSchema,
  alertDetail: schemas.alertDetailResponseSchema,
  risk: schemas.riskResponseSchema,
  transferExposure: schemas.transferExposureResponseSchema,
  addressExposure: schemas.addressExposureResponseSchema,
  network: schemas.networkInfoResponseSchema,
  token: schemas.tokenInfoResponseSchema,
  category: schemas.entityCategoryInfoResponseSchema,
  error: schemas.errorBodySchema,
};

describe("JSON Schema generation (for the OpenAPI document)", () => {
  it("every request schema converts on its input side, with wire field names", () => {
    for (const [name, schema] of Object.entries(requests)) {
      const json = z.toJSONSchema(schema, { io: "input" }) as {
        properties?: Record<string, unknown>;
        additionalProperties?: unknown;
      };
      expect(json.properties, name).toBeDefined();
      expect(json.additionalProperties, name).toBe(false);
      for (const key of Object.keys(json.properties ?? {})) expect(key, name).toMatch(/^[a-z_]+$/);
    }
  });

  it("every response schema converts with descriptions", () => {
    for (const [name, schema] of Object.entries(responses)) {
      const json = z.toJSONSchema(schema, { io: "output" }) as { description?: string; properties?: object };
      expect(json.description, name).toBeTruthy();
      expect(json.properties, name).toBeDefined();
    }
    const transfer = z.toJSONSchema(schemas.transferResponseSchema) as { required: string[] };
    expect(transfer.required).toContain("check_state");
  });
});
