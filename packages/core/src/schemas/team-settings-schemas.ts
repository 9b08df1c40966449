/**
 * Wire shapes of an account's team settings (beyond the published interface): whether a second
 * admin must approve risk model versions, the decisions on a pending version, and the account's
 * own block explorers. Strict like every other body: an unknown field is an error naming it.
 */
import { z } from "zod";
import { APPROVAL_STATES } from "../domain/model-approval.js";
import { wireString } from "./wire-text.js";

/** Longest reason of an approval or a rejection. */
export const APPROVAL_REASON_MAX = 2_000;

/** Body of PUT /v1/model-approval/. */
export const modelApprovalSettingSchema = z
  .strictObject({
    required: z
      .boolean()
      .describe("True: every new risk model version waits for a second admin's approval before it checks."),
  })
  .describe("Whether the account requires a second admin's approval of risk model versions.");

/** The answer of GET and PUT /v1/model-approval/. */
export const modelApprovalSettingResponseSchema = z
  .strictObject({
    required: z.boolean(),
    updated_at: z.string().nullable().describe("null: never set (approval is off by default)."),
    updated_by: z.string().nullable(),
  })
  .describe("The account's approval setting.");

const version = z.number().int().min(1).describe("The version decided: the one the admin reviewed.");

/** Body of POST /v1/risk-models/{id}/approve/. */
export const modelApproveSchema = z
  .strictObject({
    version,
    reason: wireString().trim().max(APPROVAL_REASON_MAX).optional().describe("An optional note."),
  })
  .describe("Approves a pending version.");

/** Body of POST /v1/risk-models/{id}/reject/. */
export const modelRejectSchema = z
  .strictObject({
    version,
    reason: wireString()
      .trim()
      .min(1, "give the reason for the rejection")
      .max(APPROVAL_REASON_MAX)
      .describe("Why it is rejected (required), shown to its author."),
  })
  .describe("Rejects a pending version.");

/** A version's approval as answered; null on versions written while approval was off. */
export const modelApprovalResponseSchema = z
  .strictObject({
    state: z
      .enum(APPROVAL_STATES)
      .describe("`pending` checks nothing until approved; `rejected` never will."),
    proposed_by: z.string().nullable().describe("Who wrote the version."),
    make_default: z.boolean().describe("Whether approving it also makes the model the account's default."),
    decided_by: z.string().nullable(),
    decided_at: z.string().nullable(),
    reason: z.string().nullable().describe("Why it was rejected (or the approver's note)."),
  })
  .describe("A version's approval by a second admin.");

const template = (placeholder: string) =>
  wireString().max(500).describe(`An https URL template containing ${placeholder}.`);

/** Body of PUT /v1/explorer-settings/ (validated further by the engine: https, placeholders). */
export const explorerSettingsSchema = z
  .strictObject({
    explorers: z
      .record(
        z.string().regex(/^[A-Z0-9_]{2,20}$/, "a network code such as ETH"),
        z.strictObject({ address: template("{address}"), tx: template("{tx}") }),
      )
      .describe("The account's explorers by network; networks not named keep the server's."),
  })
  .describe("The account's block explorers.");

/** The answer of GET and PUT /v1/explorer-settings/. */
export const explorerSettingsResponseSchema = z
  .strictObject({
    explorers: z.record(z.string(), z.strictObject({ address: z.string(), tx: z.string() })),
    updated_at: z.string().nullable().describe("null: never set (the server's explorers)."),
    updated_by: z.string().nullable(),
  })
  .describe("The account's own block explorers (the server's apply to networks not named).");
