/**
 * The tracing oracle: a plain haircut written from docs/risk-model.md §1 alone (it uses nothing
 * of the tracer but the ledger row type), against which the tracer is held on random ledgers
 * (tracing-properties.test.ts) and on the real laundering cases (bench/test).
 */
import type { LedgerTransfer } from "../../src/domain/records.js";

/** A transfer's place in time, and in its block when the ledger has blocks. */
interface Place {
  readonly occurredAt: number;
  readonly block: number | null;
  readonly logIndex: number;
}

/**
 * docs/risk-model.md §1, "Order of transfers": may funds that arrived by `a` leave by `b`?
 * Earlier time; or same time, both blocks known, an earlier block; or the same block with
 * both log indexes >= 0 and a lower one; or the same block with a position unknown.
 */
function mayCarryOn(a: Place, b: Place): boolean {
  if (a.occurredAt < b.occurredAt) return true;
  if (a.occurredAt > b.occurredAt || a.block === null || b.block === null) return false;
  if (a.block < b.block) return true;
  if (a.block > b.block) return false;
  return a.logIndex < 0 || b.logIndex < 0 || a.logIndex < b.logIndex;
}

/**
 * A plain haircut written from docs/risk-model.md §1 independently of the tracer: category
 * weights of an incoming transfer's origin of funds, with no edge budget. Hop by hop, meetings
 * of an address at the same place (time, and block and log index when blocks are known) are
 * merged; an unresolved meeting at hop `maxHops` or lighter than `minPathWeight` is undefined.
 * `startHop` is the hop of `counterparty`: 1 for a transfer's counterparty (§1: "hop 1 is S
 * itself"), 0 for the address of an address check (§2: "the address itself is hop 0"), whose
 * hops count the transfers from it. (Its own entity is then not looked at: a resolved checked
 * address has no exposure.)
 */
export function referenceShares(
  rows: ReadonlyArray<LedgerTransfer>,
  categoryOf: (address: string) => string | undefined,
  counterparty: string,
  at: number,
  maxHops: number,
  minPathWeight: number,
  startHop: 0 | 1 = 1,
): Map<string, number> {
  const into = new Map<string, LedgerTransfer[]>();
  for (const r of rows) into.set(r.to, [...(into.get(r.to) ?? []), r]);
  const out = new Map<string, number>();
  const add = (category: string, w: number) => out.set(category, (out.get(category) ?? 0) + w);
  type Meeting = { address: string; place: Place; weight: number };
  let meetings: Meeting[] = [
    { address: counterparty, place: { occurredAt: at, block: null, logIndex: 0 }, weight: 1 },
  ];
  for (let hop = startHop; meetings.length > 0; hop++) {
    const next = new Map<string, Meeting>();
    for (const m of meetings) {
      const own = hop === 0 ? undefined : categoryOf(m.address);
      if (own !== undefined) {
        add(own, m.weight);
        continue;
      }
      if (hop >= maxHops || m.weight < minPathWeight) {
        add("undefined", m.weight);
        continue;
      }
      const funds = (into.get(m.address) ?? []).filter(
        (r) => mayCarryOn(r, m.place) && r.amount > 0 && r.from !== r.to,
      );
      const sum = funds.reduce((s, r) => s + r.amount, 0);
      if (funds.length === 0) {
        add("undefined", m.weight);
        continue;
      }
      for (const r of funds) {
        const place = r.block === null ? { occurredAt: r.occurredAt, block: null, logIndex: 0 } : r;
        const key = JSON.stringify([r.from, place.occurredAt, place.block, place.logIndex]);
        const met = next.get(key);
        const part = (m.weight * r.amount) / sum;
        if (met) met.weight += part;
        else next.set(key, { address: r.from, place, weight: part });
      }
    }
    meetings = [...next.values()];
  }
  return out;
}
