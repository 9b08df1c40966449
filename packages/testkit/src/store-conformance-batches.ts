/**
 * Conformance of the batch members (the screening pipeline writes a batch of transfers with a
 * statement per chunk): insertTransfers, updateTransfers, findTransfers, getTransfers inside a
 * transaction, replaceRisksOfSubjects, enqueueJobs, completeJobs and postponeJobs. Each is all or nothing.
 */
import type { TransferIdentity, TransferRecord } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { type ConformanceContext, expectKytError, idsOf } from "./store-conformance.js";
import { makeJob, makeRisk, makeTransfer, BASE_TIME as T0 } from "./store-factories.js";

/** `n` transfers of one account with distinct identities; more than a chunk when `n` is large. */
function manyTransfers(n: number, prefix = "b"): TransferRecord[] {
  return Array.from({ length: n }, (_, i) =>
    makeTransfer({ id: `${prefix}-${i}`, txHash: `0x${prefix}${i}`, outputAddress: `0xout-${i}` }),
  );
}

function identityOf(t: TransferRecord): TransferIdentity {
  return {
    accountId: t.accountId,
    network: t.network,
    txHash: t.txHash as string,
    tokenId: t.tokenId,
    outputAddress: t.outputAddress as string,
    direction: t.direction,
  };
}

const sorted = (ids: string[]) => [...ids].sort();

export function batchConformance(ctx: ConformanceContext): void {
  describe("batch members", () => {
    it("insertTransfers stores every transfer of a batch larger than one statement's chunk", async () => {
      const batch = manyTransfers(450);
      await ctx.store().insertTransfers(batch);
      const stored = await ctx.store().getTransfers(idsOf(batch));
      expect(stored.length).toBe(450);
      expect(stored.find((t) => t.id === "b-449")).toEqual(batch[449]);
    });

    it("keeps a transfer's place in its block (chainPosition), and no field when it has none", async () => {
      const [placed, plain] = manyTransfers(2, "pos");
      const withPosition = {
        ...(placed as TransferRecord),
        chainPosition: { block: 19_000_001, logIndex: 7 },
      };
      await ctx.store().insertTransfers([withPosition, plain as TransferRecord]);
      expect(await ctx.store().getTransfer("pos-0")).toEqual(withPosition);
      expect(await ctx.store().getTransfer("pos-1")).toEqual(plain);
      const moved = { ...(plain as TransferRecord), chainPosition: { block: 5, logIndex: 0 } };
      await ctx.store().updateTransfers([moved]);
      expect(await ctx.store().getTransfer("pos-1")).toEqual(moved);
    });

    it("insertTransfers refuses a batch with a taken id or identity, or one named twice, and stores none of it", async () => {
      const [first, second] = manyTransfers(2);
      await ctx.store().insertTransfer(first as TransferRecord);
      const fresh = makeTransfer({ id: "fresh-1", txHash: "0xfresh1", outputAddress: "0xfresh" });
      await expectKytError(ctx.store().insertTransfers([fresh, first as TransferRecord]), "CONFLICT");
      const sameIdentity = { ...(first as TransferRecord), id: "other-id" };
      await expectKytError(ctx.store().insertTransfers([fresh, sameIdentity]), "CONFLICT");
      await expectKytError(
        ctx
          .store()
          .insertTransfers([second as TransferRecord, { ...(second as TransferRecord), id: "twin" }]),
        "CONFLICT",
      );
      expect(await ctx.store().getTransfers(["fresh-1", "other-id", "b-1", "twin"])).toEqual([]);
    });

    it("updateTransfers replaces every transfer whole and refuses an unknown id without writing any", async () => {
      const batch = manyTransfers(250);
      await ctx.store().insertTransfers(batch);
      const changed = batch.map((t, i) => ({
        ...t,
        txStatus: "bound" as const,
        riskLevel: i % 2 === 0 ? ("high" as const) : ("none" as const),
        riskScore: i,
        updatedAt: T0 + i,
      }));
      await ctx.store().updateTransfers(changed);
      const stored = new Map((await ctx.store().getTransfers(idsOf(batch))).map((t) => [t.id, t]));
      for (const t of changed) expect(stored.get(t.id)).toEqual(t);
      const again = changed.slice(0, 3).map((t) => ({ ...t, riskScore: 999 }));
      await expectKytError(
        ctx.store().updateTransfers([...again, makeTransfer({ id: "never-stored" })]),
        "NOT_FOUND",
      );
      expect((await ctx.store().getTransfer(changed[0]?.id as string))?.riskScore).toBe(0);
      expect(await ctx.store().getTransfer("never-stored")).toBeNull();
    });

    it("updateTransfers refuses an identity taken by another transfer (CONFLICT) and writes none", async () => {
      const [a, b] = manyTransfers(2);
      await ctx.store().insertTransfers([a as TransferRecord, b as TransferRecord]);
      const clash = {
        ...(b as TransferRecord),
        txHash: (a as TransferRecord).txHash,
        outputAddress: a?.outputAddress ?? null,
      };
      await expectKytError(
        ctx
          .store()
          .transaction((tx) => tx.updateTransfers([{ ...(a as TransferRecord), riskScore: 5 }, clash])),
        "CONFLICT",
      );
      expect((await ctx.store().getTransfer("b-0"))?.riskScore).toBe(a?.riskScore);
    });

    it("findTransfers answers the stored transfers of each identity, across accounts and networks, and no others", async () => {
      const batch = manyTransfers(5);
      const elsewhere = makeTransfer({
        id: "acct2",
        accountId: "acct-2",
        txHash: "0xb0",
        outputAddress: "0xout-0",
      });
      const otherToken = makeTransfer({
        id: "token2",
        tokenId: "0xtoken",
        txHash: "0xb1",
        outputAddress: "0xout-1",
      });
      await ctx.store().insertTransfers([...batch, elsewhere, otherToken]);
      const wanted = [
        identityOf(batch[0] as TransferRecord),
        identityOf(batch[1] as TransferRecord),
        identityOf(elsewhere),
      ];
      const missing: TransferIdentity = { ...identityOf(batch[2] as TransferRecord), direction: "outgoing" };
      const found = await ctx
        .store()
        .findTransfers([...wanted, missing, identityOf(batch[0] as TransferRecord)]);
      expect(sorted(idsOf(found))).toEqual(sorted(["b-0", "b-1", "acct2"]));
      expect(await ctx.store().findTransfers([])).toEqual([]);
    });

    it("getTransfers inside a transaction reads what the transaction wrote", async () => {
      const batch = manyTransfers(3);
      const read = await ctx.store().transaction(async (tx) => {
        await tx.insertTransfers(batch);
        return tx.getTransfers(["b-2", "b-0", "b-0", "missing"]);
      });
      expect(sorted(idsOf(read))).toEqual(["b-0", "b-2"]);
    });

    it("replaceRisksOfSubjects replaces each subject's risks of the named kinds and keeps the others", async () => {
      const store = ctx.store();
      const keep = makeRisk({ id: "keep", subjectId: "t-1", checkKind: "sanctions" });
      await store.replaceRisks("transfer", "t-1", ["sanctions"], [keep]);
      await store.replaceRisks(
        "transfer",
        "t-1",
        ["exposure"],
        [makeRisk({ id: "old", subjectId: "t-1", checkKind: "exposure" })],
      );
      await store.replaceRisksOfSubjects("transfer", [
        {
          subjectId: "t-1",
          checkKinds: ["exposure"],
          risks: [makeRisk({ id: "new-1", subjectId: "t-1", checkKind: "exposure" })],
        },
        {
          subjectId: "t-2",
          checkKinds: ["exposure", "counterparty"],
          risks: [makeRisk({ id: "new-2", subjectId: "t-2", checkKind: "counterparty" })],
        },
        { subjectId: "t-3", checkKinds: [], risks: [] },
      ]);
      expect(sorted(idsOf(await store.listRisks("transfer", "t-1")))).toEqual(["keep", "new-1"]);
      expect(idsOf(await store.listRisks("transfer", "t-2"))).toEqual(["new-2"]);
    });

    it("replaceRisksOfSubjects refuses a stray kind or a subject named twice, writing nothing", async () => {
      const store = ctx.store();
      await store.replaceRisks(
        "transfer",
        "t-1",
        ["exposure"],
        [makeRisk({ id: "old", subjectId: "t-1", checkKind: "exposure" })],
      );
      const fresh = { subjectId: "t-1", checkKinds: ["exposure" as const], risks: [] };
      await expectKytError(
        store.replaceRisksOfSubjects("transfer", [
          fresh,
          {
            subjectId: "t-2",
            checkKinds: ["exposure"],
            risks: [makeRisk({ subjectId: "t-2", checkKind: "sanctions" })],
          },
        ]),
        "VALIDATION_ERROR",
      );
      await expectKytError(store.replaceRisksOfSubjects("transfer", [fresh, fresh]), "VALIDATION_ERROR");
      expect(idsOf(await store.listRisks("transfer", "t-1"))).toEqual(["old"]);
    });

    it("enqueueJobs adds every job, or none when an id is taken or named twice", async () => {
      const store = ctx.store();
      const jobs = Array.from({ length: 600 }, (_, i) => makeJob({ id: `job-${i}`, subjectId: `s-${i}` }));
      await store.enqueueJobs(jobs);
      expect((await store.listJobs()).length).toBe(600);
      await expectKytError(
        store.enqueueJobs([makeJob({ id: "job-new" }), makeJob({ id: "job-0" })]),
        "CONFLICT",
      );
      await expectKytError(store.enqueueJobs([makeJob({ id: "twin" }), makeJob({ id: "twin" })]), "CONFLICT");
      expect((await store.listJobs()).length).toBe(600);
    });

    it("completeJobs deletes the jobs the owner still holds and answers how many", async () => {
      const store = ctx.store();
      await store.enqueueJobs(
        [1, 2, 3, 4].map((i) => makeJob({ id: `j-${i}`, subjectId: `s-${i}`, runAt: T0 })),
      );
      const claimed = await store.claimJobs({ now: T0, limit: 3, leaseMs: 60_000, owner: "w1" });
      expect(claimed.length).toBe(3);
      const held = idsOf(claimed);
      const unclaimed = ["j-1", "j-2", "j-3", "j-4"].find((id) => !held.includes(id)) as string;
      expect(await store.completeJobs([...held, unclaimed, "missing"], "w2")).toBe(0);
      expect(await store.completeJobs([...held, held[0] as string, unclaimed], "w1")).toBe(3);
      expect(idsOf(await store.listJobs())).toEqual([unclaimed]);
    });

    it("postponeJobs puts back the jobs the owner still holds as fresh waits and answers how many", async () => {
      const store = ctx.store();
      await store.enqueueJobs(
        [1, 2, 3, 4].map((i) => makeJob({ id: `p-${i}`, subjectId: `s-${i}`, runAt: T0 })),
      );
      const claimed = await store.claimJobs({ now: T0, limit: 3, leaseMs: 60_000, owner: "w1" });
      const held = idsOf(claimed);
      const unclaimed = ["p-1", "p-2", "p-3", "p-4"].find((id) => !held.includes(id)) as string;
      const wait = (id: string, runAt: number) => ({ id, runAt, lastError: "not mined yet" });
      expect(await store.postponeJobs([wait(held[0] as string, T0 + 10)], "w2")).toBe(0);
      const later = [...held, unclaimed, "missing"].map((id, i) => wait(id, T0 + 100 + i));
      expect(await store.postponeJobs(later, "w1")).toBe(3);
      const jobs = await store.listJobs();
      expect(jobs.map((j) => [j.id, j.runAt, j.attempts, j.leaseOwner, j.leaseUntil, j.lastError])).toEqual([
        [unclaimed, T0, 0, null, null, null],
        ...held.map((id, i) => [id, T0 + 100 + i, 0, null, null, "not mined yet"]),
      ]);
      // Waiting jobs are claimable again when due, and not before.
      expect(await store.claimJobs({ now: T0 + 99, limit: 10, leaseMs: 60_000, owner: "w1" })).toHaveLength(
        1,
      );
      expect(await store.nextJobAt()).toBe(T0 + 100);
      expect(await store.postponeJobs([], "w1")).toBe(0);
    });

    it("postponeJobs gives each of many jobs its own time and reason; a repeated id counts once, its first entry wins", async () => {
      const store = ctx.store();
      const ids = Array.from({ length: 450 }, (_, i) => `m-${String(i).padStart(3, "0")}`);
      await store.enqueueJobs(ids.map((id, i) => makeJob({ id, subjectId: `s-${i}`, runAt: T0 })));
      expect(await store.claimJobs({ now: T0, limit: 450, leaseMs: 60_000, owner: "w1" })).toHaveLength(450);
      const waits = ids.map((id, i) => ({
        id,
        runAt: T0 + 1_000 + i,
        lastError: i % 2 ? `wait ${i}` : null,
      }));
      const repeated = { id: "m-007", runAt: T0 + 99_999, lastError: "second" };
      // Repeated within the first 200 (one statement on the SQL stores) and again at the end.
      const given = [...waits.slice(0, 8), repeated, ...waits.slice(8), repeated];
      expect(await store.postponeJobs(given, "w1")).toBe(450);
      const jobs = await store.listJobs();
      expect(jobs.map((j) => [j.id, j.runAt, j.lastError, j.attempts, j.leaseOwner])).toEqual(
        waits.map((w) => [w.id, w.runAt, w.lastError, 0, null]),
      );
    });
  });
}
