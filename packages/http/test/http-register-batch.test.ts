import { isKytHttpError } from "@openkyt/client";
import { MAX_BATCH_REGISTRATIONS, transferResponseSchema } from "@openkyt/core";
import { depositBody, TX } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejection, type Served, serve } from "./http-harness.js";
import { expectWire } from "./wire-expect.js";

const deposit = depositBody;

describe("POST /v1/transfers/register-batch/", () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
  });
  afterAll(async () => {
    await s.close();
  });

  it("answers each item in order: 201 with the transfer, or the error the item alone would get", async () => {
    const items = await s.acme.registerTransfers([
      deposit(),
      deposit({ network: "NOPE" }),
      deposit({ tx_hash: TX.mixerDeposit }),
      deposit(),
    ]);
    expect(items.map((i) => [i.index, i.status])).toEqual([
      [0, 201],
      [1, 400],
      [2, 201],
      [3, 201],
    ]);
    const [first, refused, mixer, again] = items;
    if (
      !first ||
      !("transfer" in first) ||
      !mixer ||
      !("transfer" in mixer) ||
      !again ||
      !("transfer" in again)
    )
      throw new Error("expected registrations");
    expectWire(transferResponseSchema, first.transfer);
    expect([first.created, mixer.created, again.created]).toEqual([true, true, false]);
    expect(again.transfer.id).toBe(first.transfer.id);
    expect(refused && "error" in refused ? refused.error : null).toMatchObject({
      code: "VALIDATION_ERROR",
      errors: { network: expect.any(Array) },
    });
    // The valid items were stored; the refused one left nothing.
    expect((await s.acme.listTransfers({})).total_items).toBe(2);
    // Registered again: known, not created, the same ids.
    const repeated = await s.acme.registerTransfers([deposit({ tx_hash: TX.mixerDeposit })]);
    expect(repeated).toEqual([{ index: 0, status: 201, created: false, transfer: expect.any(Object) }]);
    expect("transfer" in repeated[0]! && repeated[0].transfer.id).toBe(mixer.transfer.id);
  });

  it("takes up to 1,000 items in a body past the 64 KiB of single requests, and refuses more", async () => {
    const many = Array.from({ length: MAX_BATCH_REGISTRATIONS }, (_, i) =>
      deposit({ tx_hash: `0x${i.toString(16).padStart(64, "0")}`, client_id: `batch-client-${i}` }),
    );
    expect(JSON.stringify({ transfers: many }).length).toBeGreaterThan(64 * 1024);
    const items = await s.other.registerTransfers(many);
    expect(items).toHaveLength(MAX_BATCH_REGISTRATIONS);
    expect(items.every((i) => i.status === 201)).toBe(true);
    expect((await s.other.listTransfers({ page_size: 1 })).total_items).toBe(MAX_BATCH_REGISTRATIONS);

    const tooMany = [...many, deposit()];
    const error = await rejection(s.other.registerTransfers(tooMany));
    expect(isKytHttpError(error) && error.status).toBe(400);
    expect(isKytHttpError(error) && error.errors).toHaveProperty("transfers");
    const empty = await rejection(
      s.other.send("POST", "/v1/transfers/register-batch/", { body: { transfers: [] } }),
    );
    expect(isKytHttpError(empty) && empty.status).toBe(400);
    const extra = await rejection(
      s.other.send("POST", "/v1/transfers/register-batch/", { body: { transfers: [deposit()], more: 1 } }),
    );
    expect(isKytHttpError(extra) && extra.status).toBe(400);
    expect((await s.other.listTransfers({ page_size: 1 })).total_items).toBe(MAX_BATCH_REGISTRATIONS);
  });

  it("is in the OpenAPI document", async () => {
    const doc = (await (await fetch(`${s.server.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    expect(doc.paths).toHaveProperty(["/v1/transfers/register-batch/"]);
  });
});
