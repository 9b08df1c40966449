/** The start-up advice about --warm: the rule, the row estimate on a real store, and the worker saying it. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LedgerTransfer } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CliIo, COMMANDS, runCli } from "../src/index.js";
import {
  ledgerRowsEstimate,
  WARM_BYTES_PER_ROW,
  WARM_HEAP_BYTES_PER_ROW,
  warmAdviceLine,
  warmFit,
} from "../src/warm-advice.js";

const GB = 2 ** 30;
const ROOM = { availableBytes: 8 * GB, heapLimitBytes: 4 * GB };

function rows(count: number): LedgerTransfer[] {
  return Array.from({ length: count }, (_, i) => ({
    network: "ETH",
    txHash: `0x${i.toString(16).padStart(64, "0")}`,
    logIndex: 0,
    tokenId: "native",
    from: `0x${"a".repeat(40)}`,
    to: `0x${(i % 7).toString(16).padStart(40, "0")}`,
    amount: 1,
    occurredAt: 1_700_000_000_000 + i,
    block: null,
    valueUsd: null,
  }));
}

describe("warm advice", () => {
  it("fits when the ledger takes at most half the memory and half the heap limit", () => {
    const byMemory = Math.floor(ROOM.availableBytes / 2 / WARM_BYTES_PER_ROW);
    const byHeap = Math.floor(ROOM.heapLimitBytes / 2 / WARM_HEAP_BYTES_PER_ROW);
    const limit = Math.min(byMemory, byHeap);
    expect(warmFit(limit, ROOM).fits).toBe(true);
    expect(warmFit(limit + 1, ROOM).fits).toBe(false);
    expect(warmFit(1_000_000, ROOM).neededBytes).toBe(1_000_000 * WARM_BYTES_PER_ROW);
  });

  it("a smaller ledger fits wherever a larger one does, and more room never unfits it", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 100_000_000 }),
        fc.nat({ max: 100_000_000 }),
        fc.integer({ min: 0, max: 64 * GB }),
        fc.integer({ min: 0, max: 8 * GB }),
        (a, b, available, heap) => {
          const room = { availableBytes: available, heapLimitBytes: heap };
          const [small, large] = a <= b ? [a, b] : [b, a];
          if (warmFit(large, room).fits) expect(warmFit(small, room).fits).toBe(true);
          const more = { availableBytes: available * 2, heapLimitBytes: heap * 2 };
          if (warmFit(large, room).fits) expect(warmFit(large, more).fits).toBe(true);
        },
      ),
    );
  });

  it("suggests --warm when it fits, warns under --warm when it does not, and is quiet otherwise", () => {
    const small = warmFit(1_000, ROOM);
    const huge = warmFit(10_000_000_000, ROOM);
    expect(warmAdviceLine(small, ROOM, false)).toMatch(
      /^note: the ledger \(about 1,000 rows\) would fit in memory with --warm/,
    );
    expect(warmAdviceLine(small, ROOM, true)).toBeNull();
    expect(warmAdviceLine(huge, ROOM, false)).toBeNull();
    expect(warmAdviceLine(huge, ROOM, true)).toMatch(
      /^warning: --warm holds the ledger \(about 10,000,000,000 rows\)/,
    );
    expect(warmAdviceLine(warmFit(0, ROOM), ROOM, false)).toBeNull();
  });

  it("estimates the rows of a real SQLite ledger by its last position, and null without scanLedger", async () => {
    const store = await createSqliteStore({ filename: ":memory:" });
    try {
      expect(await ledgerRowsEstimate(store)).toBe(0);
      for (const count of [1, 2, 130, 1_000]) {
        await store.putLedgerTransfers(rows(count));
        expect(await ledgerRowsEstimate(store)).toBe(count);
      }
    } finally {
      await store.close();
    }
    expect(await ledgerRowsEstimate({})).toBeNull();
  });

  it("a worker over a ledger that fits says --warm would fit, on stderr", async () => {
    const dir = await mkdtemp(join(tmpdir(), "openkyt-warm-advice-"));
    try {
      const file = join(dir, "kyt.db");
      const store = await createSqliteStore({ filename: file });
      await store.putLedgerTransfers(rows(25));
      await store.close();
      const io: CliIo & { out: string; err: string } = {
        out: "",
        err: "",
        env: {},
        stdout: (t) => {
          io.out += t;
        },
        stderr: (t) => {
          io.err += t;
        },
        untilSignal: () => Promise.resolve("SIGTERM"),
      };
      expect(await runCli(["worker", "--db", file, "--log-level", "silent", "--json"], io, COMMANDS)).toBe(0);
      expect(io.err).toMatch(/note: the ledger \(about 25 rows\) would fit in memory with --warm/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
