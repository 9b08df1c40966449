/**
 * Request bodies of the manual-check endpoints: check-transfer and check-address.
 */
import { z } from "zod";
import type { Direction } from "../domain/enums.js";
import { networkInput } from "./network-fields.js";
import { directionField, networkField, rawOptionalText, rawText, riskModelField } from "./wire-fields.js";

/** What validation makes of a check-transfer body (internal; programs pass `CheckTransferRequest`). */
export interface CheckTransferInput {
  readonly network: string;
  readonly tokenId: string;
  readonly txHash: string;
  /** The client side: the recipient for incoming, the sender for outgoing. */
  readonly outputAddress: string;
  readonly direction: Direction;
  readonly riskModel: string | null;
}

/** Body of POST /v1/manual-checks/check-transfer/. */
export const checkTransferSchema = z
  .strictObject({
    network: networkField,
    token_id: rawOptionalText('"native", a token contract or a symbol; omitted or null mean native.'),
    tx_hash: rawText("Transaction hash."),
    output_address: rawText(
      "Address on the client side: the recipient for incoming, the sender for outgoing.",
    ),
    direction: directionField,
    risk_model: riskModelField,
  })
  .transform(
    networkInput(
      (body, f): CheckTransferInput => ({
        network: body.network,
        tokenId: f.tokenId("token_id", body.token_id),
        txHash: f.txHash("tx_hash", body.tx_hash),
        outputAddress: f.address("output_address", body.output_address),
        direction: body.direction,
        riskModel: body.risk_model,
      }),
    ),
  )
  .describe("Creates a manual check of one transfer.");

/** What validation makes of a check-address body (internal; programs pass `CheckAddressRequest`). */
export interface CheckAddressInput {
  readonly network: string;
  readonly tokenId: string;
  readonly address: string;
  readonly riskModel: string | null;
}

/** Body of POST /v1/manual-checks/check-address/. */
export const checkAddressSchema = z
  .strictObject({
    network: networkField,
    token_id: rawOptionalText('"native", a token contract or a symbol; omitted or null mean native.'),
    address: rawText("The address to check; lower-cased on EVM networks."),
    risk_model: riskModelField,
  })
  .transform(
    networkInput(
      (body, f): CheckAddressInput => ({
        network: body.network,
        tokenId: f.tokenId("token_id", body.token_id),
        address: f.address("address", body.address),
        riskModel: body.risk_model,
      }),
    ),
  )
  .describe("Creates a manual check of one address.");
