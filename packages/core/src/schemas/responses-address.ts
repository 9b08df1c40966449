/**
 * The address page's answer (OpenKYT's addition, GET /v1/addresses/{address}/): what the account
 * knows of one address of a network.
 */
import { z } from "zod";
import { manualCheckResponseSchema, transferResponseSchema } from "./responses.js";
import { alertResponseSchema } from "./responses-alerts.js";
import { sanctionsListingsSchema } from "./sanctions-details.js";
import { wireString } from "./wire-text.js";

/** The query: which network the address is on. */
export const addressProfileQuerySchema = z
  .object({ network: wireString().max(20).describe("The network code of the address, e.g. ETH.") })
  .describe("The address's network.");

/** The answer. */
export const addressProfileResponseSchema = z
  .strictObject({
    network: z.string(),
    address: z.string().describe("The address in its normal form."),
    entity: z
      .strictObject({
        name: z.string(),
        category: z.string(),
        source: z.string().nullable(),
        attribution: z.enum(["address", "cluster"]),
        defining_address: z.string().optional().describe("attribution cluster: the labelled address."),
      })
      .nullable()
      .describe(
        "The address's entity (its label, a sanctions listing, or its cluster's label); null when unknown.",
      ),
    listings: sanctionsListingsSchema.describe("Every sanctions listing of the address, current or past."),
    cluster: z
      .strictObject({ cluster_id: z.string(), size: z.number().int() })
      .nullable()
      .describe("UTXO networks: the address's common-input cluster; null elsewhere or when in none."),
    transfers: z
      .array(transferResponseSchema)
      .describe("The newest 50 of the account's transfers from or to it."),
    transfers_total: z.number().int().describe("How many of the account's transfers touch it."),
    alerts: z.array(alertResponseSchema).describe("The alerts of those transfers."),
    manual_checks: z
      .array(manualCheckResponseSchema)
      .describe("The account's manual checks of it (among the newest 500)."),
  })
  .describe("What the account knows of an address.");
