/**
 * The composition `serve --ledger clickhouse://` runs: the reader's optional members (hop counts,
 * lumped reads) come from the external ledger or are absent, never from the state store, whose
 * own ledger is not the one traced. Two memory stores stand in for the two sides: one holds the
 * screening state, the other the ledger rows.
 */
import { createMemoryStore, type Store } from "@openkyt/core";
import { makeLedgerTransfer } from "@openkyt/testkit";
import { describe, expect, it } from "vitest";
import { type ExternalLedger, withExternalLedger } from "../src/index.js";

const HIDDEN = new Set<PropertyKey>([
  "ledgerIncomingCounts",
  "ledgerOutgoingCounts",
  "ledgerIncomingLumped",
  "ledgerSenderSiblings",
]);

/** `store` as an external ledger; without its optional reader members when `plain`. */
function asLedger(store: Store, plain: boolean): ExternalLedger {
  const bulkLedgerWriter = store.bulkLedgerWriter?.bind(store);
  if (!bulkLedgerWriter) throw new Error("the memory store has a bulk ledger writer");
  return new Proxy(store, {
    get(target, prop) {
      if (prop === "bulkLedgerWriter") return () => bulkLedgerWriter();
      if (plain && HIDDEN.has(prop)) return undefined;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
    has(target, prop) {
      if (plain && HIDDEN.has(prop)) return false;
      return Reflect.has(target, prop);
    },
  }) as unknown as ExternalLedger;
}

describe("a store with an external ledger", () => {
  it("counts hops in the external ledger, not in the state store's", async () => {
    const state = createMemoryStore();
    const rows = createMemoryStore();
    await state.putLedgerTransfers([makeLedgerTransfer({ to: "0xhub", txHash: "0xstate" })]);
    const composed = withExternalLedger(state, asLedger(rows, false));
    await composed.putLedgerTransfers(
      Array.from({ length: 3 }, (_, i) => makeLedgerTransfer({ to: "0xhub", txHash: `0xl${i}` })),
    );
    const q = [{ address: "0xhub", before: Number.MAX_SAFE_INTEGER }];
    expect(await composed.ledgerIncomingCounts?.("ETH", "native", q)).toEqual([3]);
    await composed.close();
  });

  it("offers no hop counts or lumped reads when the external ledger has none", async () => {
    const state = createMemoryStore();
    expect(state.ledgerIncomingCounts).toBeTypeOf("function");
    const composed = withExternalLedger(state, asLedger(createMemoryStore(), true));
    for (const member of HIDDEN) {
      expect(member in composed, String(member)).toBe(false);
      expect((composed as unknown as Record<PropertyKey, unknown>)[member], String(member)).toBeUndefined();
    }
    expect(typeof composed.ledgerIncoming).toBe("function");
    await composed.close();
  });

  it("lists the ledger's optional members, so a wrapper copying the store's members keeps them", async () => {
    const rows = createMemoryStore();
    const changes = { at: 5, rows: [], next: { at: 5 } };
    const ledger = new Proxy(asLedger(rows, false), {
      get(target, prop) {
        if (prop === "ledgerChangesSince") return async () => changes;
        return Reflect.get(target, prop, target);
      },
    });
    const composed = withExternalLedger(createMemoryStore(), ledger);
    // What the metrics' error counter does: copy every listed member.
    const copy = Object.fromEntries(Object.entries(composed)) as Partial<Store>;
    expect(await copy.ledgerChangesSince?.(null, 10)).toBe(changes);
    expect(copy.scanLedger).toBeUndefined();
    await composed.close();
  });
});
