/**
 * The reading half of a Bitcoin import alone, A/B of two checkouts in one process
 * (docs/benchmarks.md, "Bitcoin import end to end"): `utxoItems` of each checkout's
 * `@openkyt/datasets` (reading the file, decoding JSON or blocks and undo records, scripts to
 * addresses, `utxoTransactionProblem`: everything `importFile` does before the store) over the
 * files `bitcoin-import-bench.ts --data DIR` kept, no store; the variants alternate, `--rounds`
 * times each. Reported: CPU per 1,000 transactions (user + system of the process) and the
 * items' count, which must be the same for both.
 *
 *   node --conditions=source --import tsx src/import/bitcoin-decode-ab.ts --data DIR [--txs 200000]
 *     [--rounds 3] --other /work/wt/NAME-base [--formats bitcoin-core,esplora,bitcoin-blocks]
 */
import { join } from "node:path";
import { bitcoinAbOptions } from "./bitcoin-ab-options.js";

const { rounds: ROUNDS, other: OTHER, here: HERE, formats: FORMATS, files, fileOf } = bitcoinAbOptions(3);

type UtxoImport = typeof import("../../../packages/datasets/src/utxo-import.js");
type FileText = typeof import("../../../packages/datasets/src/file-text.js");
const load = async (root: string) => ({
  utxo: (await import(join(root, "packages/datasets/src/utxo-import.ts"))) as UtxoImport,
  text: (await import(join(root, "packages/datasets/src/file-text.ts"))) as FileText,
});
const variants = [
  { name: "other", ...(await load(OTHER)) },
  { name: "this", ...(await load(HERE)) },
];

for (const format of FORMATS) {
  for (let round = 0; round < ROUNDS; round++) {
    const counts: number[] = [];
    for (const variant of variants) {
      const cpu = process.cpuUsage();
      const reading = { file: await variant.text.openTextFile(fileOf(format)), options: {}, progress() {} };
      let txs = 0;
      let problems = 0;
      for await (const batch of variant.utxo.utxoItems(reading, format, variant.utxo.paramsOption(reading)))
        for (const item of batch) {
          if ("tx" in item) txs++;
          else problems++;
        }
      const used = process.cpuUsage(cpu);
      if (txs !== files.transactions || problems !== 0)
        throw new Error(`${variant.name} ${format}: ${txs} transactions, ${problems} problems`);
      counts.push(txs);
      const per1k = (used.user + used.system) / 1000 / (txs / 1000);
      console.log(`${format} round ${round + 1} ${variant.name}: ${per1k.toFixed(1)} ms CPU per 1,000 tx`);
    }
  }
}
