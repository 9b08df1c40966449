// The memory store keeps its clusters' labelled members: a read costs what it answers, and the
// kept lists equal the definition (members with a label, sorted) through merges, labels and
// rollbacks.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Attribution, SanctionsListing } from "../../src/domain/records.js";
import { memoryClusterOps } from "../../src/store/memory-clusters.js";
import { createUndoLog, finalJournal, type Journal } from "../../src/store/memory-journal.js";
import { memoryReferenceOps } from "../../src/store/memory-reference.js";
import {
  compareStrings,
  createMemoryTables,
  keyOf,
  type MemoryTables,
} from "../../src/store/memory-state.js";

/** A map that counts its look-ups. */
class CountingMap<K, V> extends Map<K, V> {
  probes = 0;
  override has(key: K): boolean {
    this.probes++;
    return super.has(key);
  }
  override get(key: K): V | undefined {
    this.probes++;
    return super.get(key);
  }
}

const attribution = (network: string, address: string): Attribution => ({
  network,
  address,
  entityName: `entity of ${address}`,
  entityCategory: "exchange",
  source: "test",
});
const listing = (address: string): SanctionsListing => ({
  network: "BTC",
  address,
  listName: "test-list",
  program: null,
  entity: `listed ${address}`,
  listedAt: 1,
  delistedAt: null,
});

/** Ops over one set of tables, writing through `journal`. */
function opsOver(tables: MemoryTables, journal: Journal) {
  return { ...memoryClusterOps(tables, journal), ...memoryReferenceOps(tables, journal) };
}

describe("memory store: labelled members of a cluster", () => {
  it("answers them without looking at the cluster's unlabelled members", async () => {
    const attributions = new CountingMap<string, Attribution>();
    const sanctions = new CountingMap<string, ReadonlyArray<SanctionsListing>>();
    const tables: MemoryTables = { ...createMemoryTables(), attributions, sanctions };
    const ops = opsOver(tables, finalJournal);
    const members = Array.from({ length: 5_000 }, (_, i) => `a${String(i).padStart(5, "0")}`);
    await ops.putAttributions([attribution("BTC", "a04000")]);
    const { clusterIds } = await ops.mergeAddressClusters("BTC", [members]);
    await ops.putSanctions([listing("a00100")]);
    attributions.probes = 0;
    sanctions.probes = 0;
    const got = await ops.clusterLabelledMembers("BTC", clusterIds, 10);
    expect(got.map((m) => m.address)).toEqual(["a00100", "a04000"]);
    expect(attributions.probes + sanctions.probes).toBe(0);
  });

  it("keeps them equal to the members that carry a label, through merges, labels and rollbacks", async () => {
    const address = fc.constantFrom(...Array.from({ length: 12 }, (_, i) => `x${i}`));
    const network = fc.constantFrom("BTC", "LTC");
    const step = fc.oneof(
      fc.record({
        kind: fc.constant("merge" as const),
        network,
        groups: fc.array(fc.array(address, { maxLength: 4 }), { maxLength: 3 }),
      }),
      fc.record({ kind: fc.constant("attribute" as const), network, address }),
      fc.record({ kind: fc.constant("list" as const), address }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ step, rollback: fc.boolean() }), { maxLength: 25 }),
        async (steps) => {
          const tables = createMemoryTables();
          for (const { step: s, rollback } of steps) {
            const log = createUndoLog();
            const ops = opsOver(tables, log);
            if (s.kind === "merge") await ops.mergeAddressClusters(s.network, s.groups);
            else if (s.kind === "attribute") await ops.putAttributions([attribution(s.network, s.address)]);
            else await ops.putSanctions([listing(s.address)]);
            if (rollback) log.rollback();
          }
          const ops = opsOver(tables, finalJournal);
          for (const n of ["BTC", "LTC"]) {
            const ids = [
              ...new Set(
                [...tables.clusterOf].filter(([k]) => k.startsWith(`${n}\u0000`)).map(([, id]) => id),
              ),
            ];
            const expected = ids.sort(compareStrings).flatMap((clusterId) =>
              [...(tables.clusterMembers.get(keyOf(n, clusterId)) ?? [])]
                .filter((a) => tables.attributions.has(keyOf(n, a)) || tables.sanctions.has(a))
                .sort(compareStrings)
                .slice(0, 3)
                .map((a) => ({ clusterId, address: a })),
            );
            expect(await ops.clusterLabelledMembers(n, ids, 3)).toEqual(expected);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
