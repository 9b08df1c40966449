/**
 * Wire objects of transfers and manual checks: REGISTERED_TRANSFER_EXTRA with its check_state,
 * and MANUAL_CHECK with its transfer and address sub-objects. Field names are the interface's.
 */
import { z } from "zod";
import {
  CHECK_STATES,
  DIRECTIONS,
  MANUAL_CHECK_STATUSES,
  MANUAL_CHECK_TYPES,
  RISK_LEVELS,
  TX_STATUSES,
} from "../domain/enums.js";
import {
  fiatCurrency,
  fiatValue,
  offsetTimestamp,
  pageSchema,
  riskScore,
  utcTimestamp,
} from "./response-fields.js";

const checkState = (what: string) => z.enum(CHECK_STATES).describe(`${what} check state.`);
const checkedAt = (what: string) => utcTimestamp.nullable().describe(`When the ${what} state last changed.`);

/** check_state: the three checks of a transfer and when each last changed. */
export const checkStateResponseSchema = z
  .strictObject({
    exposure: checkState("Exposure"),
    exposure_checked_at: checkedAt("exposure"),
    counterparty: checkState("Counterparty"),
    counterparty_checked_at: checkedAt("counterparty"),
    sanctions: checkState("Sanctions"),
    sanctions_checked_at: checkedAt("sanctions"),
  })
  .describe("State of each check of a transfer.");

/** The transfer fields shared by REGISTERED_TRANSFER_EXTRA and the transfer embedded in an alert. */
export const transferCoreFields = {
  id: z.string().describe("Transfer ID (UUID)."),
  client_id: z.string().nullable().describe("External client ID, if provided."),
  attempt_id: z.string().nullable().describe("External attempt ID, if provided."),
  registered_at: offsetTimestamp.describe("When the transfer or attempt was registered."),
  risk_level: z.enum(RISK_LEVELS).describe("Aggregated risk level."),
  risk_score: riskScore,
  network: z.string().describe("Network code, e.g. ETH, TRX, BTC."),
  token_id: z.string().nullable().describe('"native" or the token contract.'),
  token_symbol: z.string().nullable().describe("Token ticker."),
  tx_status: z.enum(TX_STATUSES).describe("Binding status."),
  tx_hash: z.string().nullable().describe("Transaction hash, if known."),
  occurred_at: offsetTimestamp.nullable().describe("On-chain transaction time, if known."),
  input_address: z.string().nullable().describe("Sender address; null until known."),
  output_address: z.string().nullable().describe("Recipient address."),
  direction: z.enum(DIRECTIONS).describe("incoming or outgoing."),
  amount: z.number().nullable().describe("Asset amount; null until parsed or bound."),
  value_in_fiat: fiatValue.nullable(),
};

/** REGISTERED_TRANSFER_EXTRA: a registered transfer or attempt. */
export const transferResponseSchema = z
  .strictObject({ ...transferCoreFields, check_state: checkStateResponseSchema, fiat_currency: fiatCurrency })
  .describe("A registered transfer or attempt (REGISTERED_TRANSFER_EXTRA).");

/** A registered transfer, as sent. */
export type TransferResponse = z.output<typeof transferResponseSchema>;
/** check_state, as sent. */
export type CheckStateResponse = z.output<typeof checkStateResponseSchema>;

/** The paginated transfer list. */
export const transferPageSchema = pageSchema(transferResponseSchema);

/** MANUAL_CHECK `transfer`: the checked transfer. */
export const manualCheckTransferSchema = z
  .strictObject({
    network: z.string().describe("Network code."),
    token_id: z.string().describe('"native" or the token contract.'),
    token_symbol: z.string().nullable().describe("Token ticker."),
    tx_status: z.enum(TX_STATUSES).nullable().describe("What binding the hash found; null before it ran."),
    tx_hash: z.string().nullable().describe("Transaction hash."),
    occurred_at: offsetTimestamp.nullable().describe("On-chain time."),
    input_address: z.string().nullable().describe("Sender."),
    output_address: z.string().nullable().describe("Recipient (the client side as given)."),
    direction: z.enum(DIRECTIONS).describe("incoming or outgoing."),
    amount: z.number().nullable().describe("Amount in asset units."),
    value_in_fiat: fiatValue.nullable(),
  })
  .describe("The transfer of a deposit or withdrawal check.");

/** MANUAL_CHECK `address`: the checked address. */
export const manualCheckAddressSchema = z
  .strictObject({
    network: z.string().describe("Network code."),
    address: z.string().nullable().describe("The checked address (lower-case on EVM networks)."),
  })
  .describe("The address of a single_address check.");

/** MANUAL_CHECK. */
export const manualCheckResponseSchema = z
  .strictObject({
    id: z.string().describe("Manual check ID (UUID)."),
    created_at: offsetTimestamp.describe("Creation time."),
    check_type: z.enum(MANUAL_CHECK_TYPES).describe("deposit, withdrawal or single_address."),
    check_status: z.enum(MANUAL_CHECK_STATUSES).describe("checking, checked or error."),
    checked_at: utcTimestamp.nullable().describe("When the check finished; null while checking."),
    transfer: manualCheckTransferSchema.nullable(),
    address: manualCheckAddressSchema.nullable(),
    risk_level: z.enum(RISK_LEVELS).describe("Risk level; undefined while checking."),
    risk_score: riskScore,
    fiat_currency: fiatCurrency,
  })
  .describe("A manual check of a transfer or an address (MANUAL_CHECK).");

/** A manual check, as sent. */
export type ManualCheckResponse = z.output<typeof manualCheckResponseSchema>;

/** The paginated manual-check list. */
export const manualCheckPageSchema = pageSchema(manualCheckResponseSchema);
