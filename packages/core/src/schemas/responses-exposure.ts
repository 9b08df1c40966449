/**
 * Wire objects of exposures: TRANSFER_EXPOSURE (origin or destination of funds of a transfer)
 * and ADDRESS_EXPOSURE (the counterparty, or a manually checked address).
 */
import { z } from "zod";
import { CHECK_STATES } from "../domain/enums.js";
import { UTXO_TAINT_RULES } from "../exposure/utxo-taint-rules.js";
import { fiatCurrency, fiatValue, share, utcTimestamp } from "./response-fields.js";
import { pathSanctionsSchema, riskModelVersionField, sanctionsDetailsSchema } from "./sanctions-details.js";

/**
 * How an entity was found on a UTXO chain (OpenKYT's addition): on the address itself, or
 * through its cluster (common-input ownership) with the defining labelled address and the
 * cluster's size. Absent on account-model chains.
 */
const clusterFields = {
  attribution: z
    .enum(["address", "cluster"])
    .optional()
    .describe(
      "UTXO chains: the entity's label is on the address itself, or on another address of its cluster.",
    ),
  defining_address: z
    .string()
    .optional()
    .describe("attribution cluster: the labelled address of the cluster whose label was taken."),
  cluster_size: z
    .number()
    .int()
    .optional()
    .describe("attribution cluster: how many addresses the cluster holds."),
  cluster_conflict: z
    .boolean()
    .optional()
    .describe(
      "attribution cluster: true when the cluster holds two or more labelled entities (the riskiest is named).",
    ),
};

/** How taint moved inside each UTXO transaction of a trace (OpenKYT's addition). */
const utxoRuleField = z
  .enum(UTXO_TAINT_RULES)
  .optional()
  .describe(
    "UTXO networks (BTC, LTC), when a trace ran: haircut (every output carries its transaction's inputs pro rata) or fifo (inputs and outputs in order); docs/risk-model.md, Bitcoin.",
  );

/** A direct interaction: the counterparty itself is an identified entity. */
export const directInteractionSchema = z
  .strictObject({
    entity_category: z.string().describe("Entity category code."),
    entity_name: z.string().describe("Entity name."),
    value_in_fiat: fiatValue.nullable(),
    ...clusterFields,
  })
  .describe("Direct interaction with an identified entity.");

/** The largest single contribution to a share: how the funds went, hop by hop. */
const strongestPathSchema = z
  .strictObject({
    hops: z
      .number()
      .int()
      .describe(
        "Hop at which the last address was met (1: the transfer's counterparty, or a checked address's direct counterparty).",
      ),
    addresses: z
      .array(z.string())
      .describe("From the start (the counterparty, or the checked address) to where the share was credited."),
    tx_hashes: z
      .array(z.string())
      .describe(
        "The transfers between those addresses, one per hop, in the same order (UTXO chains: the txid:vout of each address's coin); empty when not recorded.",
      ),
    coin_values: z
      .array(z.number().nonnegative())
      .optional()
      .describe(
        "UTXO chains (BTC, LTC): the value of each coin of tx_hashes, in the network's coin (8 decimals), in the same order.",
      ),
    ...clusterFields,
  })
  .nullable()
  .describe("The strongest path of the share (docs/risk-model.md); null when the result did not record one.");

/** One category of an indirect interaction. */
export const indirectInteractionSchema = z
  .strictObject({
    entity_category: z.string().describe("Entity category code (undefined for the unexplained remainder)."),
    value_share: share.describe("Share of the category in the total exposure."),
    value_in_fiat: fiatValue.nullable(),
    strongest_path: strongestPathSchema,
  })
  .describe("Indirect interaction with an entity category.");

const checkStatus = z.enum(CHECK_STATES).describe("State of the check that produced this exposure.");
const checkedAt = utcTimestamp.nullable().describe("When that state last changed.");

/** TRANSFER_EXPOSURE. */
export const transferExposureResponseSchema = z
  .strictObject({
    direct_interaction: directInteractionSchema
      .nullable()
      .describe("Null if not checked or not directly interacted."),
    indirect_interaction: z
      .array(indirectInteractionSchema)
      .nullable()
      .describe("Null if not checked or only directly interacted; shares sum to 1 with the direct one."),
    fiat_currency: fiatCurrency,
    check_status: checkStatus.optional(),
    checked_at: checkedAt.optional(),
    sanctions: sanctionsDetailsSchema.optional(),
    path_sanctions: pathSanctionsSchema.optional(),
    risk_model: riskModelVersionField.optional(),
    input_addresses: z
      .array(z.string())
      .optional()
      .describe(
        "UTXO networks (BTC, LTC): every input address of the transaction, in input order; input_address is the largest input's.",
      ),
    utxo_rule: utxoRuleField,
  })
  .describe(
    "Exposure of a transfer (TRANSFER_EXPOSURE); check_status and checked_at for a registered transfer, and " +
      "OpenKYT's additions sanctions (the sanctions check's listings), path_sanctions (listings of the addresses on the strongest paths), risk_model (the version that made the risks) " +
      "and input_addresses (a UTXO transaction's inputs).",
  );

/** ADDRESS_EXPOSURE. */
export const addressExposureResponseSchema = z
  .strictObject({
    address: z.string().nullable().describe("The address (the counterparty, or the checked address)."),
    entity_category: z
      .string()
      .nullable()
      .describe("Category of the address's entity; null if not identified."),
    entity_name: z.string().nullable().describe("Name of the address's entity; null if not identified."),
    ...clusterFields,
    exposure: z
      .array(
        z
          .strictObject({
            entity_category: z.string().describe("Entity category code."),
            value_share: share,
            strongest_path: strongestPathSchema,
          })
          .describe("Share of one category in the address's funds."),
      )
      .nullable()
      .describe("Null if the address is identified or not checked."),
    check_status: checkStatus,
    checked_at: checkedAt,
    utxo_rule: utxoRuleField,
  })
  .describe("Exposure of an address (ADDRESS_EXPOSURE).");

/** A transfer exposure, as sent. */
export type TransferExposureResponse = z.output<typeof transferExposureResponseSchema>;
/** An address exposure, as sent. */
export type AddressExposureResponse = z.output<typeof addressExposureResponseSchema>;
