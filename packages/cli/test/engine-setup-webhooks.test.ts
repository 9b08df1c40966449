import { createMemoryStore, isKytError } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { allowPrivateWebhooks, createCliEngine } from "../src/engine-setup.js";

const noRenderer = { render: async () => new Uint8Array() };

describe("OPENKYT_WEBHOOKS_ALLOW_PRIVATE", () => {
  it("1 or true allows a 127.0.0.1 webhook; unset, empty, 0 or false refuses it; anything else is an error", async () => {
    const create = (env: Record<string, string>) =>
      createCliEngine(createMemoryStore(), env, undefined, {}, noRenderer)
        .forAccount("acme")
        .webhooks.create({ url: "http://127.0.0.1:8787/hook", events: ["alert.created"] });
    for (const value of ["1", "true", "TRUE"]) {
      expect((await create({ OPENKYT_WEBHOOKS_ALLOW_PRIVATE: value })).url, value).toBe(
        "http://127.0.0.1:8787/hook",
      );
    }
    const refusing: Array<Record<string, string>> = [
      {},
      { OPENKYT_WEBHOOKS_ALLOW_PRIVATE: "" },
      { OPENKYT_WEBHOOKS_ALLOW_PRIVATE: "0" },
    ];
    for (const env of refusing) {
      const error = await create(env).catch((e: unknown) => e);
      expect(isKytError(error, "VALIDATION_ERROR") && Object.keys(error.errors)).toEqual(["url"]);
    }
    expect(allowPrivateWebhooks({ OPENKYT_WEBHOOKS_ALLOW_PRIVATE: "false" })).toBe(false);
    expect(() => allowPrivateWebhooks({ OPENKYT_WEBHOOKS_ALLOW_PRIVATE: "yes" })).toThrow(
      /OPENKYT_WEBHOOKS_ALLOW_PRIVATE must be 1 or 0/,
    );
  });
});
