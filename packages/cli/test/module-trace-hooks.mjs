// Module hooks that append the URL of every module loaded to the file named by
// OPENKYT_MODULE_TRACE, one per line (registered with `node --import` by cli-modules.test.ts).
import { appendFileSync } from "node:fs";

const file = process.env.OPENKYT_MODULE_TRACE;

export async function load(url, context, nextLoad) {
  if (file) appendFileSync(file, `${url}\n`);
  return nextLoad(url, context);
}
