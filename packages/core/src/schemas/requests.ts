/**
 * Request bodies of the transfer endpoints: register, register-attempt and bind-transaction.
 * Wire input is snake_case and strict (an unknown field is an error naming it); parsed output
 * is the camelCase engine input with network, addresses, hashes and token ids normalised.
 */
import { z } from "zod";
import type { Direction } from "../domain/enums.js";
import { networkFields, networkInput, problemsAsErrors } from "./network-fields.js";
import { validationError } from "./parse-input.js";
import {
  ATTEMPT_ID_MAX,
  amountField,
  CLIENT_ID_MAX,
  directionField,
  flagField,
  networkField,
  optionalText,
  rawOptionalText,
  rawText,
  riskModelField,
} from "./wire-fields.js";

/**
 * What validation makes of a POST /v1/transfers/register/ body: camelCase and normalised,
 * internal to the engine. Programs pass the wire body, `RegisterTransferRequest`.
 */
export interface RegisterTransferInput {
  readonly clientId: string | null;
  readonly direction: Direction;
  readonly network: string;
  readonly txHash: string;
  /** `native`, a contract, or an upper-cased symbol to resolve through the TokenCatalog. */
  readonly tokenId: string;
  readonly outputAddress: string;
  readonly disableAutoCheck: boolean;
  readonly forceRecheck: boolean;
  readonly riskModel: string | null;
}

/** Body of POST /v1/transfers/register/. */
export const registerTransferSchema = z
  .strictObject({
    client_id: optionalText(CLIENT_ID_MAX, "External client ID, at most 40 characters."),
    direction: directionField,
    network: networkField,
    tx_hash: rawText("Transaction hash: EVM 0x + 64 hex, others 64 hex; lower-cased."),
    token_id: rawOptionalText(
      '"native", a token contract or a symbol; omitted, null, "null" or "" mean native.',
    ),
    output_address: rawText("Recipient address; lower-cased on EVM networks."),
    disable_auto_check: flagField("When true the transfer is registered without checks. Default false."),
    force_recheck: flagField("When true an already registered transfer is checked again. Default false."),
    risk_model: riskModelField,
  })
  .transform(
    networkInput(
      (body, f): RegisterTransferInput => ({
        clientId: body.client_id,
        direction: body.direction,
        network: body.network,
        txHash: f.txHash("tx_hash", body.tx_hash),
        tokenId: f.tokenId("token_id", body.token_id),
        outputAddress: f.address("output_address", body.output_address),
        disableAutoCheck: body.disable_auto_check,
        forceRecheck: body.force_recheck,
        riskModel: body.risk_model,
      }),
    ),
  )
  .describe("Registers a full transfer (the transaction hash is known).");

/**
 * What validation makes of a register-attempt body (internal; programs pass
 * `RegisterAttemptRequest`).
 */
export interface RegisterAttemptInput {
  readonly clientId: string | null;
  readonly attemptId: string | null;
  readonly direction: Direction;
  readonly network: string;
  readonly tokenId: string;
  readonly inputAddress: string | null;
  readonly outputAddress: string | null;
  readonly amount: number | null;
  readonly riskModel: string | null;
}

/** Body of POST /v1/transfers/register-attempt/. */
export const registerAttemptSchema = z
  .strictObject({
    client_id: optionalText(CLIENT_ID_MAX, "External client ID, at most 40 characters."),
    attempt_id: optionalText(ATTEMPT_ID_MAX, "External attempt ID, at most 100 characters."),
    direction: directionField,
    network: networkField,
    token_id: rawOptionalText('"native", a token contract or a symbol; omitted or null mean native.'),
    input_address: rawOptionalText("Sender address; required when direction is incoming."),
    output_address: rawOptionalText("Recipient address; required when direction is outgoing."),
    amount: amountField,
    risk_model: riskModelField,
  })
  .transform(
    networkInput((body, f): RegisterAttemptInput => {
      const input: RegisterAttemptInput = {
        clientId: body.client_id,
        attemptId: body.attempt_id,
        direction: body.direction,
        network: body.network,
        tokenId: f.tokenId("token_id", body.token_id),
        inputAddress: f.optionalAddress("input_address", body.input_address),
        outputAddress: f.optionalAddress("output_address", body.output_address),
        amount: body.amount,
        riskModel: body.risk_model,
      };
      const blank = (v: string | null | undefined) => v === null || v === undefined || v.trim() === "";
      if (body.direction === "incoming" && blank(body.input_address)) {
        f.problem("input_address", "required when direction is incoming");
      }
      if (body.direction === "outgoing" && blank(body.output_address)) {
        f.problem("output_address", "required when direction is outgoing");
      }
      return input;
    }),
  )
  .describe("Registers a deposit or withdrawal attempt (the transaction hash is not known yet).");

/**
 * Input of POST /v1/transfers/{id}/bind-transaction/. `tokenId` and `outputAddress` are null
 * when not given (omitted, null, "" and, for token_id, "null"); the engine applies "required if
 * not defined before". Normalise with {@link normalizeBindInput} once the network is known.
 */
export interface BindTransactionInput {
  readonly txHash: string;
  readonly tokenId: string | null;
  readonly outputAddress: string | null;
}

const given = (v: string | null | undefined): string | null =>
  v === null || v === undefined || v.trim() === "" || v.trim() === "null" ? null : v.trim();

/** Body of POST /v1/transfers/{id}/bind-transaction/ (formats checked by normalizeBindInput). */
export const bindTransactionSchema = z
  .strictObject({
    tx_hash: rawText("Transaction hash of the attempt's transfer."),
    token_id: rawOptionalText("Token id; required if the attempt has none."),
    output_address: rawOptionalText("Recipient address; required if the attempt has none."),
  })
  .transform(
    (body): BindTransactionInput => ({
      txHash: body.tx_hash.trim(),
      tokenId: given(body.token_id),
      outputAddress: given(body.output_address),
    }),
  )
  .describe("Binds a transaction hash to an attempt.");

/**
 * Validates and normalises a parsed bind body for the transfer's network: tx_hash, token_id
 * and output_address. Throws one VALIDATION_ERROR naming every invalid field.
 */
export function normalizeBindInput(network: string, input: BindTransactionInput): BindTransactionInput {
  const f = networkFields(network);
  const out: BindTransactionInput = {
    txHash: f.txHash("tx_hash", input.txHash),
    tokenId: input.tokenId === null ? null : f.tokenId("token_id", input.tokenId),
    outputAddress: f.optionalAddress("output_address", input.outputAddress),
  };
  const problems = f.problems();
  if (problems.length > 0) throw validationError("bind-transaction body", problemsAsErrors(problems));
  return out;
}
