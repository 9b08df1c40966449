/**
 * Rows of the ledger formats decoded into ledger transfers: the CSV and JSONL formats
 * (`network,tx_hash,log_index,token_id,from,to,amount,occurred_at[,block][,value_usd]`) and the
 * Tronscan-style TRC-20 export. Decoding runs for every row of files of millions of rows, so it
 * reports problems as values and never throws.
 */
import {
  checkAddress,
  checkTxHash,
  classifyTokenId,
  familyOfNetwork,
  type LedgerTransfer,
} from "@openkyt/core";
import { columnIndex, fieldAt } from "./csv-table.js";
import { EVM_ADDRESS_DIGITS, EVM_TX_HASH_DIGITS, isNormalEvmHex } from "./evm-hex.js";
import type { RowResult } from "./import-rows.js";
import { networkCode } from "./network-mappings.js";
import {
  type Parsed,
  parseAmount,
  parseCount,
  parseInteger,
  parseOptionalAmount,
  parseOptionalCount,
  parseTime,
  scaleUnits,
} from "./row-values.js";

/** The fields of one ledger row as text (absent fields undefined). */
export interface LedgerFields {
  readonly network: string | undefined;
  readonly tx_hash: string | undefined;
  readonly log_index: string | undefined;
  readonly token_id: string | undefined;
  readonly from: string | undefined;
  readonly to: string | undefined;
  readonly amount: string | undefined;
  readonly occurred_at: string | undefined;
  readonly block: string | undefined;
  readonly value_usd: string | undefined;
}

/** The columns a ledger CSV must have (its format's header, format-registry.ts). */
export const LEDGER_REQUIRED_COLUMNS = [
  "network",
  "tx_hash",
  "log_index",
  "token_id",
  "from",
  "to",
  "amount",
  "occurred_at",
] as const;

/** The columns of the ledger CSV and the keys of a JSONL object: the required ones, then the optional. */
export const LEDGER_COLUMNS = [...LEDGER_REQUIRED_COLUMNS, "block", "value_usd"] as const;

/** A network code, with the last text seen remembered (ledger files repeat one network). */
function networkReader(): (text: string | undefined) => string | null {
  let lastText: string | undefined;
  let lastCode: string | null = null;
  return (text) => {
    if (text !== lastText) {
      lastText = text;
      lastCode = networkCode(text);
    }
    return lastCode;
  };
}

/** An address field in normal form, or the problem. */
function address(network: string, evm: boolean, name: string, raw: string | undefined): Parsed<string> {
  if (raw === undefined || raw === "") return { ok: false, problem: `${name} is missing` };
  // Nearly every row of a machine-written EVM ledger is in normal form already, which core's
  // check would answer unchanged; the others go through it (same values, same problems).
  if (evm && isNormalEvmHex(raw, EVM_ADDRESS_DIGITS)) return { ok: true, value: raw };
  const check = checkAddress(network, raw);
  return check.ok ? check : { ok: false, problem: `${name} "${raw}": ${check.problem}` };
}

/** A transaction hash in normal form, or the problem. */
function txHash(network: string, evm: boolean, raw: string): Parsed<string> {
  if (evm && isNormalEvmHex(raw, EVM_TX_HASH_DIGITS)) return { ok: true, value: raw };
  const check = checkTxHash(network, raw);
  return check.ok ? check : { ok: false, problem: `tx_hash "${raw}": ${check.problem}` };
}

/** A ledger token id: `native` or a contract (a symbol would never match a transfer). */
function tokenId(network: string, raw: string | undefined): Parsed<string> {
  const check = classifyTokenId(network, raw);
  if (!check.ok) return { ok: false, problem: `token_id "${raw ?? ""}": ${check.problem}` };
  if (check.kind === "symbol")
    return { ok: false, problem: `token_id "${raw}" must be native or a contract address` };
  return check;
}

/** Most distinct token ids remembered per network: ledger files repeat a few tokens. */
const TOKEN_MEMORY = 1024;

/** {@link tokenId}, remembering answers per network (a pure function of network and text). */
function tokenReader(): (network: string, raw: string | undefined) => Parsed<string> {
  let memoryOf = "";
  let memory = new Map<string | undefined, Parsed<string>>();
  return (network, raw) => {
    if (network !== memoryOf || memory.size >= TOKEN_MEMORY) {
      memoryOf = network;
      memory = new Map();
    }
    let answer = memory.get(raw);
    if (answer === undefined) {
      answer = tokenId(network, raw);
      memory.set(raw, answer);
    }
    return answer;
  };
}

/** A decoder of ledger rows given as text fields. */
export function ledgerFieldsDecoder() {
  const network = networkReader();
  const token = tokenReader();
  let evmOf = "";
  let evm = false;
  return (f: LedgerFields): RowResult<LedgerTransfer> => {
    const code = network(f.network);
    if (code === null) return { reject: `unknown network "${f.network ?? ""}"` };
    if (code !== evmOf) {
      evmOf = code;
      evm = familyOfNetwork(code) === "evm";
    }
    if (f.tx_hash === undefined || f.tx_hash === "") return { reject: "tx_hash is missing" };
    const hash = txHash(code, evm, f.tx_hash);
    if (!hash.ok) return { reject: hash.problem };
    const logIndex =
      f.log_index === undefined || f.log_index === "" ? ZERO : parseInteger("log_index", f.log_index);
    if (!logIndex.ok) return { reject: logIndex.problem };
    const tokenId = token(code, f.token_id);
    if (!tokenId.ok) return { reject: tokenId.problem };
    const from = address(code, evm, "from", f.from);
    if (!from.ok) return { reject: from.problem };
    const to = address(code, evm, "to", f.to);
    if (!to.ok) return { reject: to.problem };
    const amount = parseAmount("amount", f.amount);
    if (!amount.ok) return { reject: amount.problem };
    const occurredAt = parseTime("occurred_at", f.occurred_at);
    if (!occurredAt.ok) return { reject: occurredAt.problem };
    const block = parseOptionalCount("block", f.block);
    if (!block.ok) return { reject: block.problem };
    const valueUsd = parseOptionalAmount("value_usd", f.value_usd);
    if (!valueUsd.ok) return { reject: valueUsd.problem };
    return {
      value: {
        network: code,
        txHash: hash.value,
        logIndex: logIndex.value,
        tokenId: tokenId.value,
        from: from.value,
        to: to.value,
        amount: amount.value,
        occurredAt: occurredAt.value,
        block: block.value,
        valueUsd: valueUsd.value,
      },
    };
  };
}

const ZERO: Parsed<number> = { ok: true, value: 0 };

/** Decoder of ledger CSV records. */
export function ledgerCsvDecoder(header: ReadonlyArray<string>) {
  const at = columnIndex(header, LEDGER_COLUMNS);
  const decode = ledgerFieldsDecoder();
  return (fields: ReadonlyArray<string>): RowResult<LedgerTransfer> =>
    decode({
      network: fieldAt(fields, at.network),
      tx_hash: fieldAt(fields, at.tx_hash),
      log_index: fieldAt(fields, at.log_index),
      token_id: fieldAt(fields, at.token_id),
      from: fieldAt(fields, at.from),
      to: fieldAt(fields, at.to),
      amount: fieldAt(fields, at.amount),
      occurred_at: fieldAt(fields, at.occurred_at),
      block: fieldAt(fields, at.block),
      value_usd: fieldAt(fields, at.value_usd),
    });
}

/** A JSON value as field text (numbers as written, null and absent as undefined). */
function jsonText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Decoder of JSONL lines (one object per line with the CSV's column names as keys). */
export function ledgerJsonlDecoder() {
  const decode = ledgerFieldsDecoder();
  return (line: string): RowResult<LedgerTransfer> => {
    let object: unknown;
    try {
      object = JSON.parse(line);
    } catch {
      return { reject: "not a JSON object" };
    }
    if (typeof object !== "object" || object === null || Array.isArray(object))
      return { reject: "not a JSON object" };
    const o = object as Record<string, unknown>;
    const fields = Object.fromEntries(LEDGER_COLUMNS.map((name) => [name, jsonText(o[name])]));
    return decode(fields as unknown as LedgerFields);
  };
}

/** The columns of the Tronscan-style TRC-20 export, every one required (its format's header too). */
export const TRONSCAN_COLUMNS = [
  "timestamp",
  "tx_id",
  "from_address",
  "to_address",
  "quant",
  "token_id",
  "token_decimal",
  "contract_return",
] as const;

/**
 * Decoder of the Tronscan-style TRC-20 export: amount = quant / 10^token_decimal, timestamp in
 * ms, network TRX. The export has no event index, so every row takes log index 0 (a second
 * transfer of one transaction counts as the same row); failed transfers are skipped.
 */
export function tronscanDecoder(header: ReadonlyArray<string>) {
  const at = columnIndex(header, TRONSCAN_COLUMNS);
  const decode = ledgerFieldsDecoder();
  return (fields: ReadonlyArray<string>): RowResult<LedgerTransfer> => {
    const outcome = fieldAt(fields, at.contract_return)?.trim().toUpperCase() ?? "";
    if (outcome !== "" && outcome !== "SUCCESS") return { skip: `contract_return ${outcome}` };
    const decimals = parseCount("token_decimal", fieldAt(fields, at.token_decimal));
    if (!decimals.ok) return { reject: decimals.problem };
    const amount = scaleUnits(fieldAt(fields, at.quant) ?? "", decimals.value);
    if (!amount.ok) return { reject: amount.problem };
    return decode({
      network: "TRX",
      tx_hash: fieldAt(fields, at.tx_id),
      log_index: "0",
      token_id: fieldAt(fields, at.token_id),
      from: fieldAt(fields, at.from_address),
      to: fieldAt(fields, at.to_address),
      amount: String(amount.value),
      occurred_at: fieldAt(fields, at.timestamp),
      block: undefined,
      value_usd: undefined,
    });
  };
}
