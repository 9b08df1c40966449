/**
 * A process writing to a SQLite store until it is SIGKILLed. Usage:
 * - `sqlite-kill-writer.ts FILE hang`: inserts a transfer and its bind job in one transaction,
 *   prints "in-transaction ID" and waits there forever;
 * - `sqlite-kill-writer.ts FILE loop`: registers transfers and creates manual checks through the
 *   engine, one transaction each, printing "committed ID" after each.
 */
import { createSqliteStore } from "../../../store-sqlite/src/index.js";
import { makeJob, makeTransfer, randomTxHash } from "../../../testkit/src/index.js";
import { createEngine } from "../../src/index.js";

const [file = "", mode = "loop"] = process.argv.slice(2);
const store = await createSqliteStore({ filename: file });

if (mode === "hang") {
  const transfer = makeTransfer({ accountId: "acme", txStatus: "binding" });
  await store.transaction(async (tx) => {
    await tx.insertTransfer(transfer);
    await tx.enqueueJob(makeJob({ accountId: "acme", subjectId: transfer.id }));
    console.log(`in-transaction ${transfer.id}`);
    await new Promise(() => undefined);
  });
} else {
  const acme = createEngine({ store }).forAccount("acme");
  console.log("ready");
  for (let i = 0; ; i += 1) {
    if (i % 4 === 3) {
      const check = await acme.checkAddress({ network: "ETH", address: `0x${"cc".repeat(20)}` });
      console.log(`committed ${check.id}`);
    } else {
      const { transfer } = await acme.registerTransfer({
        direction: "incoming",
        network: "ETH",
        tx_hash: randomTxHash(),
        output_address: `0x${"cc".repeat(20)}`,
        client_id: `kill-${i}`,
      });
      console.log(`committed ${transfer.id}`);
    }
  }
}
