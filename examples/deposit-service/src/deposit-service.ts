/**
 * The deposit service: a Hono app over an embedded OpenKYT engine.
 *
 *   POST /deposits            {"tx_hash", "address"}: registers the incoming transfer, 202 pending
 *   GET  /deposits/:id        the deposit: pending, credited, held or failed
 *   GET  /balances/:address   USD credited to the address
 *   GET  /review              alerts waiting for compliance
 *
 * The engine's events drive the desk: `transfer.checked` credits or holds a deposit,
 * `transfer.status_changed` to not_found or error fails it, `alert.created` queues a review.
 */
import { CHECK_KINDS, type Engine, isKytError, type TransferRecord } from "@openkyt/core";
import { Hono } from "hono";
import { createDepositDesk, type DepositDesk } from "./deposit-desk.js";

/** True when the engine is done with a transfer: bound and checked, or binding failed. */
function settled(t: TransferRecord): boolean {
  if (t.txStatus === "not_found" || t.txStatus === "error") return true;
  return (
    t.txStatus === "bound" &&
    CHECK_KINDS.every((k) => t.checks[k].state === "checked" || t.checks[k].state === "error")
  );
}

/** Options of {@link createDepositService}. */
export interface DepositServiceOptions {
  readonly engine: Engine;
  /** The OpenKYT account the service screens for. */
  readonly accountId: string;
  /** The network of the deposits (default ETH). */
  readonly network?: string;
}

/** The app and its desk; `detach` removes the engine listeners. */
export function createDepositService(options: DepositServiceOptions): {
  app: Hono;
  desk: DepositDesk;
  detach: () => void;
} {
  const { engine } = options;
  const kyt = engine.forAccount(options.accountId);
  const desk = createDepositDesk();
  const onChecked = desk.screened;
  const onStatus = (t: TransferRecord) => {
    if (t.txStatus === "not_found" || t.txStatus === "error") desk.failed(t);
  };
  const onAlert = desk.alerted;
  engine.events.on("transfer.checked", onChecked);
  engine.events.on("transfer.status_changed", onStatus);
  engine.events.on("alert.created", onAlert);

  const app = new Hono();
  app.post("/deposits", async (c) => {
    const body = (await c.req.json().catch(() => null)) as { tx_hash?: unknown; address?: unknown } | null;
    if (typeof body?.tx_hash !== "string" || typeof body.address !== "string") {
      return c.json({ error: 'send {"tx_hash": ..., "address": ...}' }, 400);
    }
    try {
      const { transfer } = await kyt.registerTransfer({
        direction: "incoming",
        network: options.network ?? "ETH",
        tx_hash: body.tx_hash,
        output_address: body.address,
      });
      desk.open(transfer.id, transfer.output_address ?? body.address, body.tx_hash);
      // Screened already (reported twice, or its checks won the race with this line): catch up.
      const record = await engine.store.getTransfer(transfer.id);
      if (record && settled(record)) {
        if (record.txStatus === "bound") desk.screened(record);
        else desk.failed(record);
      }
      return c.json(desk.get(transfer.id), 202);
    } catch (error) {
      if (isKytError(error) && error.code === "VALIDATION_ERROR") {
        return c.json({ error: error.message, fields: error.errors }, 400);
      }
      throw error;
    }
  });
  app.get("/deposits/:id", (c) => {
    const deposit = desk.get(c.req.param("id"));
    return deposit ? c.json(deposit) : c.json({ error: "no such deposit" }, 404);
  });
  app.get("/balances/:address", (c) =>
    c.json({ address: c.req.param("address"), usd: desk.balance(c.req.param("address")) }),
  );
  app.get("/review", (c) => c.json(desk.review()));
  return {
    app,
    desk,
    detach: () => {
      engine.events.off("transfer.checked", onChecked);
      engine.events.off("transfer.status_changed", onStatus);
      engine.events.off("alert.created", onAlert);
    },
  };
}
