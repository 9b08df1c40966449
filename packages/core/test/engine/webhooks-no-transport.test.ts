import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/engine/create-engine.js";
import { NO_WEBHOOK_TRANSPORT } from "../../src/engine/jobs/webhook-delivery.js";
import { isKytError } from "../../src/errors.js";
import { createMemoryStore } from "../../src/store/index.js";

describe("an engine without a webhook transport (the core has no network of its own)", () => {
  it("refuses to create a webhook, naming the missing transport, and stores nothing", async () => {
    const engine = createEngine({ store: createMemoryStore() });
    const api = engine.forAccount("acme");
    const error = await api.webhooks
      .create({ url: "https://hooks.example/x", events: ["alert.created"] })
      .catch((e) => e);
    expect(isKytError(error, "NOT_CONFIGURED")).toBe(true);
    expect(String(error.message)).toBe(NO_WEBHOOK_TRANSPORT);
    expect(await api.webhooks.list()).toEqual([]);
  });
});
