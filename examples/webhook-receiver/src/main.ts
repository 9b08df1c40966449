/**
 * `npm start` in examples/webhook-receiver: listens for OpenKYT webhook deliveries and prints
 * each event once.
 *
 *   OPENKYT_WEBHOOK_SECRET=... PORT=8090 DELIVERY_LOG=handled.log node --conditions=source --import tsx src/main.ts
 */
import { userPath } from "@openkyt/runtime-node";
import { openDeliveryLog } from "./delivery-log.js";
import { createReceiver } from "./receiver.js";

const secret = process.env.OPENKYT_WEBHOOK_SECRET;
if (!secret) {
  console.error("set OPENKYT_WEBHOOK_SECRET to the webhook's secret (shown once by POST /v1/webhooks/)");
  process.exit(2);
}
const port = Number(process.env.PORT ?? 8090);
// Relative to where the command was typed (pnpm runs this script in the example's folder).
const log = await openDeliveryLog(userPath(process.env.DELIVERY_LOG ?? "handled-deliveries.log"));
const server = createReceiver({
  secret,
  log,
  onEvent: (event) =>
    console.log(`${event.created_at} ${event.type} ${event.id} ${JSON.stringify(event.data).slice(0, 120)}`),
});
server.listen(port, "127.0.0.1", () => {
  console.error(
    `receiving OpenKYT webhooks on http://127.0.0.1:${port}/ (${log.size} deliveries handled before)`,
  );
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => server.close());
