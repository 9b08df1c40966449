// Prints the three signed headers of a KYT request, one "Name: value" per line, for
// `curl -H @-`. Standalone (node:crypto only), so it also shows how to sign:
//   API-SIGNATURE = base64(HMAC-SHA256(secret, METHOD \n PATH?QUERY \n TIMESTAMP [\n BODY]))
//
// usage: OPENKYT_KEY_ID=... OPENKYT_SECRET=... node scripts/sign-request.mjs METHOD PATH [BODY]
//   PATH is the path with its query string exactly as sent (e.g. "/v1/transfers/?page=2");
//   BODY is the JSON text exactly as sent (compact: no spaces after separators).
import { createHmac } from "node:crypto";

const [method, path, body] = process.argv.slice(2);
const { OPENKYT_KEY_ID: keyId, OPENKYT_SECRET: secret } = process.env;
if (!method || !path || !keyId || !secret) {
  process.stderr.write(
    "usage: OPENKYT_KEY_ID=... OPENKYT_SECRET=... node scripts/sign-request.mjs METHOD PATH [BODY]\n",
  );
  process.exit(2);
}
const timestamp = String(Date.now());
let message = `${method.toUpperCase()}\n${path}\n${timestamp}`;
if (body) message += `\n${body}`;
const signature = createHmac("sha256", Buffer.from(secret, "utf8")).update(message, "utf8").digest("base64");
process.stdout.write(`API-KEY-ID: ${keyId}\nAPI-TIMESTAMP: ${timestamp}\nAPI-SIGNATURE: ${signature}\n`);
