/**
 * The in-process operations take the published request bodies, typed from the same zod schemas
 * that validate them: a snake_case body type-checks, a camelCase one (the engine's internal
 * form) or a wrong enum does not, and validation still runs for what types cannot see.
 * (The type assertions are checked by `tsc`, which runs over the tests.)
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { loadWorld, TX, W } from "../../../testkit/src/engine-world.js";
import { createEngine } from "../../src/engine/create-engine.js";
import type { AccountApi } from "../../src/engine/use-cases/account-api.js";
import { isKytError } from "../../src/errors.js";
import type {
  CheckAddressRequest,
  RegisterTransferRequest,
  TransferListParams,
} from "../../src/schemas/request-types.js";
import { createMemoryStore } from "../../src/store/index.js";

describe("typed in-process requests", () => {
  it("the operations take the published shapes, snake_case", () => {
    expectTypeOf<Parameters<AccountApi["registerTransfer"]>[0]>().toEqualTypeOf<RegisterTransferRequest>();
    expectTypeOf<Parameters<AccountApi["checkAddress"]>[0]>().toEqualTypeOf<CheckAddressRequest>();
    expectTypeOf<RegisterTransferRequest["direction"]>().toEqualTypeOf<"incoming" | "outgoing">();
    expectTypeOf<RegisterTransferRequest>().toHaveProperty("tx_hash");
    expectTypeOf<RegisterTransferRequest>().not.toHaveProperty("txHash");
    expectTypeOf<TransferListParams>().toHaveProperty("tx_status");
    expectTypeOf<NonNullable<TransferListParams["risk_level"]>>().toEqualTypeOf<
      "none" | "low" | "medium" | "high" | "severe" | "undefined"
    >();
  });

  it("refuses at compile time what validation would refuse, and validation still runs", async () => {
    const engine = createEngine({ store: createMemoryStore() });
    await loadWorld(engine);
    const api = engine.forAccount("acme");
    const body: RegisterTransferRequest = {
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.deposit,
      output_address: W.client,
    };
    expect((await api.registerTransfer(body)).created).toBe(true);
    const camel = {
      direction: "incoming",
      network: "ETH",
      txHash: TX.deposit,
      outputAddress: W.client,
    } as const;
    // @ts-expect-error the engine's internal camelCase form is not a request body
    const refused = await api.registerTransfer(camel).catch((e: unknown) => e);
    expect(isKytError(refused, "VALIDATION_ERROR")).toBe(true);
    // @ts-expect-error not a direction
    await api.registerTransfer({ ...body, direction: "sideways" }).catch(() => null);
    // @ts-expect-error not a binding status
    await api.listTransfers({ tx_status: "stuck" }).catch(() => null);
    // A string of the right type but not a valid hash is for validation to refuse.
    const badHash = await api.registerTransfer({ ...body, tx_hash: "0x1234" }).catch((e: unknown) => e);
    expect(isKytError(badHash, "VALIDATION_ERROR")).toBe(true);
    expect((await api.listTransfers({ tx_status: "binding", page_size: 5 })).total_items).toBe(1);
  });
});
