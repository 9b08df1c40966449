import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mayDeleteView, type SavedViewRecord, seesView } from "../../src/domain/casework.js";
import {
  explorerProblems,
  explorersInForce,
  explorerTemplateProblems,
} from "../../src/domain/explorer-templates.js";
import {
  APPROVAL_STATES,
  APPROVAL_TRANSITIONS,
  type ApprovalState,
  decideApproval,
  diffBaseOf,
  initialApproval,
  isPersonActor,
  type ModelApprovalRecord,
  versionInForce,
} from "../../src/domain/model-approval.js";

const ANA = "user:ana@example.com";
const BO = "user:bo@example.com";
const pending = (proposedBy: string | null = ANA): ModelApprovalRecord => ({
  state: "pending",
  proposedBy,
  makeDefault: false,
  decidedBy: null,
  decidedAt: null,
  reason: null,
});

const actors = fc.oneof(
  fc.constantFrom(ANA, BO, "user:cy@example.com", "key-1", "user:", null),
  fc.string().map((s) => `user:${s}`),
);
const states = fc.constantFrom<ApprovalState>(...APPROVAL_STATES);
const approvals = fc.option(
  fc.record({
    state: states,
    proposedBy: fc.option(
      actors.filter((a): a is string => a !== null),
      { nil: null },
    ),
    makeDefault: fc.boolean(),
    decidedBy: fc.constant(null),
    decidedAt: fc.constant(null),
    reason: fc.constant(null),
  }),
  { nil: null },
);

describe("decideApproval: who may approve or reject a version", () => {
  it("a second admin approves a pending version; its author may not", () => {
    const ok = decideApproval({ decision: "approved", actor: BO, approval: pending(), reason: null }, 5);
    expect(ok).toEqual({
      ok: true,
      approval: { ...pending(), state: "approved", decidedBy: BO, decidedAt: 5, reason: null },
    });
    const own = decideApproval({ decision: "approved", actor: ANA, approval: pending(), reason: null }, 5);
    expect(own).toMatchObject({ ok: false, refusal: "own_version" });
  });

  it("a rejection needs a reason; the author may reject (withdraw) their own", () => {
    expect(
      decideApproval({ decision: "rejected", actor: BO, approval: pending(), reason: "  " }, 5),
    ).toMatchObject({
      ok: false,
      refusal: "reason_required",
    });
    const withdrawn = decideApproval(
      { decision: "rejected", actor: ANA, approval: pending(), reason: " oops " },
      5,
    );
    expect(withdrawn).toMatchObject({
      ok: true,
      approval: { state: "rejected", reason: "oops", decidedBy: ANA },
    });
  });

  it("an API key (no person) never decides; a version not pending is not decided again", () => {
    expect(
      decideApproval({ decision: "approved", actor: "key-1", approval: pending(), reason: null }, 5),
    ).toMatchObject({
      ok: false,
      refusal: "not_a_person",
    });
    expect(
      decideApproval({ decision: "approved", actor: BO, approval: null, reason: null }, 5),
    ).toMatchObject({
      ok: false,
      refusal: "not_pending",
    });
  });

  it("property: it succeeds exactly when the table allows it, the actor is a person other than an approving author, and a rejection has a reason", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("approved", "rejected" as const),
        actors,
        approvals,
        fc.option(fc.string(), { nil: null }),
        (decision, actor, approval, reason) => {
          const frozen = approval === null ? null : Object.freeze({ ...approval });
          const before = JSON.stringify(frozen);
          const out = decideApproval({ decision, actor, approval: frozen, reason }, 7);
          expect(JSON.stringify(frozen)).toBe(before);
          const expected =
            frozen !== null &&
            APPROVAL_TRANSITIONS[frozen.state].includes(decision) &&
            isPersonActor(actor) &&
            !(decision === "approved" && actor === frozen.proposedBy) &&
            !(decision === "rejected" && (reason ?? "").trim() === "");
          expect(out.ok).toBe(expected);
          if (out.ok) {
            expect(out.approval.state).toBe(decision);
            expect(out.approval.decidedBy).toBe(actor);
            expect(out.approval.proposedBy).toBe(frozen?.proposedBy);
            // A decided version is final: deciding it again is refused.
            expect(
              decideApproval(
                { decision: "approved", actor: "user:z", approval: out.approval, reason: "r" },
                8,
              ).ok,
            ).toBe(false);
          }
        },
      ),
    );
  });

  it("a new version is pending only when the account requires approval", () => {
    expect(initialApproval(false, ANA, true)).toBeNull();
    expect(initialApproval(true, ANA, true)).toEqual({ ...pending(), makeDefault: true });
  });
});

describe("versionInForce and diffBaseOf", () => {
  const versionsArb = fc
    .array(fc.option(states, { nil: null }), { minLength: 0, maxLength: 12 })
    .map((list) => list.map((state, i) => ({ version: i + 1, approval: state === null ? null : { state } })));

  it("property: the version in force is the newest one neither pending nor rejected; without approval, the newest", () => {
    fc.assert(
      fc.property(versionsArb, (versions) => {
        const found = versionInForce(versions);
        const eligible = versions.filter((v) => v.approval === null || v.approval.state === "approved");
        expect(found?.version).toBe(eligible.at(-1)?.version);
        const plain = versions.map((v) => ({ version: v.version, approval: null }));
        expect(versionInForce(plain)?.version).toBe(versions.at(-1)?.version);
        // Independent of input order.
        expect(versionInForce([...versions].reverse())?.version).toBe(found?.version);
      }),
    );
  });

  it("property: a version's diff base is the version in force just before it, never a later one", () => {
    fc.assert(
      fc.property(versionsArb, (versions) => {
        for (const v of versions) {
          const base = diffBaseOf(versions, v.version);
          if (base === null) continue;
          expect(base.version).toBeLessThan(v.version);
          expect(base.approval?.state ?? "approved").toBe("approved");
        }
      }),
    );
    const history = [
      { version: 1, approval: null },
      { version: 2, approval: { state: "rejected" as const } },
      { version: 3, approval: { state: "pending" as const } },
    ];
    expect(diffBaseOf(history, 3)?.version).toBe(1);
    expect(versionInForce(history)?.version).toBe(1);
  });
});

describe("explorer templates", () => {
  it("accepts https templates with their placeholder, refuses the rest naming each problem", () => {
    expect(explorerTemplateProblems("https://scan.example/address/{address}", "{address}")).toEqual([]);
    expect(explorerTemplateProblems("http://scan.example/tx/{tx}", "{tx}")).toEqual(["must be an https URL"]);
    expect(explorerTemplateProblems("https://scan.example/tx/", "{tx}")).toEqual(["must contain {tx}"]);
    expect(explorerTemplateProblems("javascript:alert(1)//{tx}", "{tx}")).toContain("must be an https URL");
    expect(explorerTemplateProblems("not a url {tx}", "{tx}")).toEqual(["must be a URL"]);
    expect(explorerTemplateProblems("https://u:p@scan.example/{tx}", "{tx}")).toEqual([
      "must not carry a user name or password",
    ]);
  });

  it("names every problem of every network at once, and unknown networks", () => {
    const errors = explorerProblems(
      {
        ETH: { address: "https://a.example/{address}", tx: "http://a.example/{tx}" },
        BTC: { address: "https://b.example/", tx: "https://b.example/{tx}" },
        NOPE: { address: "https://c.example/{address}", tx: "https://c.example/{tx}" },
      },
      ["ETH", "BTC"],
    );
    expect(errors).toEqual({
      "explorers.ETH.tx": ["must be an https URL"],
      "explorers.BTC.address": ["must contain {address}"],
      "explorers.NOPE": ["unknown network NOPE"],
    });
  });

  it("property: the account's explorers win for the networks they name, the server's stay for the others", () => {
    const t = fc.record({ address: fc.string(), tx: fc.string() });
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom("ETH", "BTC", "TRX"), t),
        fc.dictionary(fc.constantFrom("ETH", "BSC"), t),
        (server, account) => {
          const merged = explorersInForce(server, account);
          for (const k of Object.keys(account)) expect(merged[k]).toEqual(account[k]);
          for (const k of Object.keys(server)) if (!(k in account)) expect(merged[k]).toEqual(server[k]);
          expect(Object.keys(merged).sort()).toEqual(
            [...new Set([...Object.keys(server), ...Object.keys(account)])].sort(),
          );
        },
      ),
    );
  });
});

describe("shared saved views", () => {
  const view = (userId: string, shared: boolean, accountId = "acct-1"): SavedViewRecord => ({
    id: "v",
    accountId,
    userId,
    name: "n",
    query: "",
    createdAt: 0,
    shared,
  });

  it("property: the owner may delete; others only an admin of the account, and only a shared view", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("u-1", "u-2"),
        fc.boolean(),
        fc.constantFrom("acct-1", "acct-2"),
        fc.constantFrom("u-1", "u-2"),
        fc.constantFrom("admin" as const, "analyst" as const),
        (owner, shared, account, caller, role) => {
          const v = view(owner, shared, account);
          const c = { userId: caller, accountId: "acct-1", role };
          const expected = account === "acct-1" && (owner === caller || (shared && role === "admin"));
          expect(mayDeleteView(v, c)).toBe(expected);
          // Whoever may delete it sees it.
          if (mayDeleteView(v, c)) expect(seesView(v, c)).toBe(true);
          expect(seesView(v, c)).toBe(account === "acct-1" && (owner === caller || shared));
        },
      ),
    );
  });
});
