import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LedgerTransfer } from "../../src/domain/records.js";
import { type MergedNodes, nodesOf, rootNode, splitNode } from "../../src/exposure/trace-node.js";

/** A row at a position; the fields splitNode does not read are fixed. */
function row(from: string, amount: number, occurredAt: number, block: number | null, logIndex: number) {
  return {
    network: "ETH",
    txHash: `0x${from}${occurredAt}${block}${logIndex}`,
    logIndex,
    tokenId: "native",
    from,
    to: "root",
    amount,
    occurredAt,
    block,
    valueUsd: null,
  } satisfies LedgerTransfer;
}

/** What the merge must give: per address and position (its time, block, and log index when it has a block), the summed weight. */
function modelMerge(rows: ReadonlyArray<LedgerTransfer>): Map<string, number> {
  const carried = rows.filter((r) => r.amount > 0 && r.from !== r.to);
  const sum = carried.reduce((a, r) => a + r.amount, 0);
  const out = new Map<string, number>();
  for (const r of carried) {
    const key = JSON.stringify([r.from, r.occurredAt, r.block, r.block === null ? -1 : r.logIndex]);
    out.set(key, (out.get(key) ?? 0) + r.amount / sum);
  }
  return out;
}

function merged(rows: ReadonlyArray<LedgerTransfer>): Map<string, number> {
  const into: MergedNodes = new Map();
  splitNode(rootNode("root", { occurredAt: 1_000, block: null, logIndex: -1 }, 0), rows, false, into);
  const out = new Map<string, number>();
  for (const n of nodesOf(into)) {
    const p = n.position;
    const key = JSON.stringify([n.address, p.occurredAt, p.block, p.block === null ? -1 : p.logIndex]);
    expect(out.has(key)).toBe(false);
    out.set(key, n.weight);
  }
  return out;
}

function expectSameMerge(rows: ReadonlyArray<LedgerTransfer>): void {
  const got = merged(rows);
  const want = modelMerge(rows);
  expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
  for (const [key, weight] of want) expect(got.get(key)).toBeCloseTo(weight, 12);
}

describe("splitNode", () => {
  it("merges the parts that reach one address at one position, and only those", () => {
    expectSameMerge([
      row("a", 1, 10, 5, 0),
      row("a", 2, 10, 5, 0), // same position: merged
      row("a", 3, 11, 5, 0), // same block and log index at another time: apart
      row("a", 4, 10, 5, 1),
      row("a", 5, 10, 5, -1), // a native value in that block
      row("a", 6, 10, null, 0), // no block: its time alone
      row("a", 7, 10, null, 3), // merged with the one above (no block: the log index orders nothing)
      row("b", 8, 10, 5, 0),
      row("a", 9, 10, 2 ** 40, 0), // a block past the packed range
      row("a", 1, 10, 2 ** 40, 0),
      row("a", 2, -(2 ** 21) - 1, null, 0), // a (negative) time equal to a packed block's number
      row("a", 3, 0, 1, -1), // block 1's native value: that same number
      row("a", 4, 0, 1, -1),
    ]);
  });

  it("agrees with the model on random rows crowded into few positions", () => {
    const position = fc.record({
      from: fc.constantFrom("a", "b", "c"),
      amount: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50 })),
      occurredAt: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant(-(2 ** 21) - 1), fc.constant(-1)),
      block: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 2 }), fc.constant(2 ** 33)),
      logIndex: fc.integer({ min: -1, max: 2 }),
    });
    fc.assert(
      fc.property(fc.array(position, { minLength: 1, maxLength: 40 }), (positions) => {
        const rows = positions.map((p) => row(p.from, p.amount, p.occurredAt, p.block, p.logIndex));
        if (!rows.some((r) => r.amount > 0)) return;
        expectSameMerge(rows);
      }),
    );
  });
});
