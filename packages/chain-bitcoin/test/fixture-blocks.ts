/** The real blocks of test/fixtures (see fixtures/SOURCES.md), read once. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const at = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** Bytes of a fixture file. */
export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(at(name)));
}

/** Mainnet block 300,025 and its plain undo (bcoin's encoding). */
export const block300025 = () => ({
  block: fixture("block300025.raw"),
  undo: fixture("block300025-undo.raw"),
});
/** Testnet3 block 1,087,400 and its plain undo. */
export const block1087400 = () => ({
  block: fixture("block1087400.raw"),
  undo: fixture("block1087400-undo.raw"),
});
