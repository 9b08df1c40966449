/**
 * An account's own block explorers: an admin sets, per network, the URL templates the console's
 * address and transaction links fill in (https only, with `{address}` and `{tx}`). They override
 * the server's explorers for that account. Kept as a named setting of the store
 * (`explorers:<account>`, JSON); every change is audited.
 */
import { type AccountExplorers, explorerProblems } from "../../domain/explorer-templates.js";
import { NETWORK_CODES } from "../../domain/networks.js";
import type { Millis } from "../../domain/records.js";
import { KytError } from "../../errors.js";
import type { StoreOps } from "../../ports/store.js";
import { explorerSettingsSchema, parseInput } from "../../schemas/index.js";
import { formatOffsetTimestampOrNull } from "../../schemas/timestamps.js";
import { recordAudit } from "../casework/audit-log.js";
import type { EngineContext } from "../engine-context.js";
import { type Actor, actorOf } from "./alert-workflow.js";

/** The setting that holds `accountId`'s explorers. */
export const explorerSettingKey = (accountId: string) => `explorers:${accountId}`;

interface StoredExplorers {
  readonly explorers: AccountExplorers;
  readonly updatedAt: Millis | null;
  readonly updatedBy: string | null;
}

const NONE: StoredExplorers = Object.freeze({
  explorers: Object.freeze({}),
  updatedAt: null,
  updatedBy: null,
});

/** The stored explorers; none when never set (or unreadable). */
async function readExplorers(store: StoreOps, accountId: string): Promise<StoredExplorers> {
  const raw = await store.getSetting(explorerSettingKey(accountId));
  if (!raw) return NONE;
  try {
    const parsed = JSON.parse(raw) as Partial<StoredExplorers>;
    const explorers =
      parsed.explorers !== null && typeof parsed.explorers === "object" ? parsed.explorers : {};
    return {
      explorers,
      updatedAt: typeof parsed.updatedAt === "number" ? parsed.updatedAt : null,
      updatedBy: typeof parsed.updatedBy === "string" ? parsed.updatedBy : null,
    };
  } catch {
    return NONE;
  }
}

function present(s: StoredExplorers) {
  return {
    explorers: Object.fromEntries(
      Object.entries(s.explorers).map(([network, t]) => [network, { address: t.address, tx: t.tx }]),
    ),
    updated_at: formatOffsetTimestampOrNull(s.updatedAt),
    updated_by: s.updatedBy,
  };
}

/** The explorer operations of one account (`engine.account(id).explorers`). */
export function explorerSettingsApi(ctx: EngineContext, accountId: string) {
  return Object.freeze({
    /** The account's own explorers by network (none set: `{}`). */
    async own(): Promise<AccountExplorers> {
      return (await readExplorers(ctx.store, accountId)).explorers;
    },
    /** GET /v1/explorer-settings/ */
    async get() {
      return present(await readExplorers(ctx.store, accountId));
    },
    /**
     * PUT /v1/explorer-settings/: replaces the account's explorers (networks left out go back to
     * the server's). Every template is https with its placeholder; all problems at once.
     */
    async set(body: unknown, by: Actor = {}) {
      const actor = actorOf(by);
      const input = parseInput(explorerSettingsSchema, body, "explorer settings");
      const errors = explorerProblems(input.explorers, NETWORK_CODES);
      const first = Object.entries(errors)[0];
      if (first)
        throw new KytError("VALIDATION_ERROR", `explorer settings: ${first[0]}: ${first[1][0]}`, { errors });
      const stored: StoredExplorers = {
        explorers: input.explorers,
        updatedAt: ctx.clock.now(),
        updatedBy: actor,
      };
      await ctx.store.transaction(async (tx) => {
        await tx.putSetting(explorerSettingKey(accountId), JSON.stringify(stored));
        await recordAudit(ctx, tx, accountId, {
          action: "explorers.updated",
          actor,
          details: { networks: Object.keys(input.explorers).sort() },
        });
      });
      return present(stored);
    },
  });
}
