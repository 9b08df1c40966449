/**
 * The engine's in-process API (no HTTP in front) on Postgres, which cannot hold a NUL in text:
 * an id with a NUL or an unpaired surrogate is NOT_FOUND like any unknown id, before the store
 * is asked; bodies and queries go through the same schemas as over HTTP (VALIDATION_ERROR naming
 * the field); an account id with a NUL is refused. Never a driver error.
 */
import { type AccountApi, isKytError } from "@openkyt/core";
import { createHarness, type Harness, TX, W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withTestPostgres } from "./pg-test-suite.js";

const BAD_IDS = ["\0", "a\0b", "\uD800", "x\uDFFF"];

/** Resolves to the KytError code `promise` fails with (or "resolved", or the foreign error's text). */
async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return "resolved";
  } catch (error) {
    return isKytError(error) ? error.code : `not a KytError: ${String(error)}`;
  }
}

/** Every operation of the account API that takes an id. */
function idOperations(api: AccountApi): Record<string, (id: string) => Promise<unknown>> {
  return {
    getTransfer: (id) => api.getTransfer(id),
    bindTransaction: (id) => api.bindTransaction(id, { tx_hash: TX.deposit }),
    recheckCounterparty: (id) => api.recheckCounterparty(id),
    recheckExposure: (id) => api.recheckExposure(id),
    getTransferExposure: (id) => api.getTransferExposure(id),
    getTransferCounterparty: (id) => api.getTransferCounterparty(id),
    getTransferRisks: (id) => api.getTransferRisks(id),
    transferReport: (id) => api.transferReport(id),
    getManualCheck: (id) => api.getManualCheck(id),
    getManualCheckRisks: (id) => api.getManualCheckRisks(id),
    getManualCheckTransferExposure: (id) => api.getManualCheckTransferExposure(id),
    getManualCheckAddressExposure: (id) => api.getManualCheckAddressExposure(id),
    manualCheckReport: (id) => api.manualCheckReport(id),
    getAlert: (id) => api.getAlert(id),
    updateAlert: (id) => api.updateAlert(id, { alert_status: "done" }),
    getAlertHistory: (id) => api.getAlertHistory(id),
    "riskModels.get": (id) => api.riskModels.get(id),
    "riskModels.replace": (id) =>
      api.riskModels.replace(id, { name: "x", copy_from: "default", change_reason: "x" }),
    "riskModels.remove": (id) => api.riskModels.remove(id),
    "webhooks.get": (id) => api.webhooks.get(id),
    "webhooks.remove": (id) => api.webhooks.remove(id),
    "webhooks.deliveries": (id) => api.webhooks.deliveries(id),
  };
}

await withTestPostgres("the in-process API with unstorable strings on Postgres", ({ stores }) => {
  describe("the engine's in-process API with NUL and lone surrogates on Postgres", () => {
    let h: Harness;
    beforeAll(async () => {
      h = await createHarness({
        name: "postgres",
        createStore: () => stores.createStore(),
        destroyStore: (s) => stores.destroyStore(s),
      });
    }, 60_000);
    afterAll(async () => {
      await h?.close();
    });

    it("every operation taking an id answers NOT_FOUND for an id with a NUL or a lone surrogate", async () => {
      for (const [name, run] of Object.entries(idOperations(h.acme))) {
        for (const id of BAD_IDS)
          expect(await outcome(() => run(id)), `${name}(${JSON.stringify(id)})`).toBe("NOT_FOUND");
      }
    });

    it("bodies and queries are the wire schemas: VALIDATION_ERROR naming the field", async () => {
      const register = {
        direction: "incoming" as const,
        network: "ETH",
        tx_hash: TX.deposit,
        output_address: W.client,
      };
      const cases: [string, () => Promise<unknown>, string][] = [
        ["client_id", () => h.acme.registerTransfer({ ...register, client_id: "a\0" }), "client_id"],
        ["risk_model", () => h.acme.registerTransfer({ ...register, risk_model: "\uD800" }), "risk_model"],
        [
          "attempt_id",
          () =>
            h.acme.registerAttempt({
              direction: "incoming",
              network: "ETH",
              input_address: W.exchange,
              attempt_id: "\0",
            }),
          "attempt_id",
        ],
        ["name", () => h.acme.riskModels.create({ name: "\0", copy_from: "default" }), "name"],
        [
          "url",
          () => h.acme.webhooks.create({ url: "https://x.example/\0", events: ["alert.created"] }),
          "url",
        ],
        ["ids", () => h.acme.bulkUpdateAlerts({ ids: ["\0"], alert_status: "done" }), "ids.0"],
        ["client_id filter", () => h.acme.listTransfers({ client_id: "\0" }), "client_id"],
        [
          "counterparty_name filter",
          () => h.acme.listTransfers({ counterparty_name: "\0" }),
          "counterparty_name",
        ],
        ["alert filter", () => h.acme.listAlerts({ entity_category: "\uDC00" }), "entity_category"],
      ];
      for (const [what, run, field] of cases) {
        try {
          await run();
          expect.unreachable(`${what} was accepted`);
        } catch (error) {
          expect(isKytError(error, "VALIDATION_ERROR"), `${what}: ${String(error)}`).toBe(true);
          expect(Object.keys((error as { errors: object }).errors), what).toContain(field);
        }
      }
    });

    it("API keys (the CLI's `keys` commands): a NUL in an account or key id is refused or unknown", async () => {
      for (const bad of ["\0", "acme\0", "\uD800"]) {
        expect(await outcome(() => h.engine.apiKeys.create(bad))).toBe("VALIDATION_ERROR");
        expect(await h.engine.apiKeys.list(bad)).toEqual([]);
        expect(await h.engine.apiKeys.revoke(`key-${bad}-0001`)).toBe(false);
        expect(await h.engine.apiKeys.resolve(`key-${bad}-0001`)).toBeNull();
      }
    });

    it("an alert change's actor (the embedding product's user) with a NUL is a VALIDATION_ERROR naming actor", async () => {
      await h.acme.registerTransfer({
        direction: "incoming",
        network: "ETH",
        tx_hash: TX.mixerDeposit,
        output_address: W.client,
      });
      await h.engine.drain();
      const [alert] = (await h.acme.listAlerts({ page_size: "1" })).items;
      if (!alert) return expect.unreachable("the world has alerts");
      for (const run of [
        () => h.acme.updateAlert(alert.id, { comment: "c" }, { actor: "a\0" }),
        () => h.acme.bulkUpdateAlerts({ ids: [alert.id], alert_status: "in_progress" }, { actor: "\uD800" }),
      ]) {
        try {
          await run();
          expect.unreachable("accepted");
        } catch (error) {
          expect(isKytError(error, "VALIDATION_ERROR")).toBe(true);
          expect(Object.keys((error as { errors: object }).errors)).toEqual(["actor"]);
        }
      }
      expect((await h.acme.getAlertHistory(alert.id)).some((e) => e.actor?.includes("\0"))).toBe(false);
    });

    it("an account id with a NUL or a lone surrogate is refused before anything is read", async () => {
      for (const account of ["\0", "acme\0", "\uD800"]) {
        expect(await outcome(async () => h.engine.forAccount(account).listTransfers())).toBe(
          "VALIDATION_ERROR",
        );
      }
    });
  });
});
