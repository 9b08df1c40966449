/**
 * The node's answers, as Tron's HTTP API documents them, checked before they are believed: a
 * block (`/wallet/getnowblock`, `/wallet/getblockbynum`), a transaction
 * (`/wallet/gettransactionbyid`) and a transaction's info (`/wallet/gettransactioninfobyid`).
 * An unknown block or transaction is `{}`. Anything else is a CHAIN_ERROR naming the request.
 */
import { KytError } from "@openkyt/core";
import { z } from "zod";

const hex64 = z.string().regex(/^[0-9a-fA-F]{64}$/);

/** A contract of a transaction: its type and its parameter's value (addresses in 41-hex). */
const contractSchema = z.object({
  type: z.string(),
  parameter: z.object({ value: z.record(z.string(), z.unknown()) }),
});

/** A transaction as blocks and `gettransactionbyid` carry it. */
export const tronTransactionSchema = z.object({
  txID: hex64,
  ret: z.array(z.object({ contractRet: z.string().optional() })).optional(),
  raw_data: z.object({ contract: z.array(contractSchema).min(1) }),
});
export type TronTransaction = z.infer<typeof tronTransactionSchema>;

/** A block with its transactions (the genesis block leaves out number and timestamp: 0). */
export const tronBlockSchema = z.object({
  blockID: hex64,
  block_header: z.object({
    raw_data: z.object({
      number: z.number().int().nonnegative().default(0),
      parentHash: hex64,
      timestamp: z.number().int().nonnegative().default(0),
    }),
  }),
  transactions: z.array(tronTransactionSchema).default([]),
});
export type TronBlock = z.infer<typeof tronBlockSchema>;

/** A log of a transaction's info: the contract (20-byte hex), its topics and data. */
const logSchema = z.object({
  address: z.string(),
  topics: z.array(hex64).default([]),
  data: z
    .string()
    .regex(/^[0-9a-fA-F]*$/)
    .default(""),
});

/** A transaction's info once it is in a block. */
export const tronTransactionInfoSchema = z.object({
  id: hex64,
  blockNumber: z.number().int().nonnegative(),
  blockTimeStamp: z.number().int().nonnegative(),
  /** "FAILED" when the transaction failed; absent when it succeeded. */
  result: z.string().optional(),
  receipt: z.object({ result: z.string().optional() }).default({}),
  log: z.array(logSchema).default([]),
});
export type TronTransactionInfo = z.infer<typeof tronTransactionInfoSchema>;

/** True for the node's "nothing here" answer, `{}`. */
export function isEmptyAnswer(value: unknown): boolean {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0
  );
}

/** `value` checked against `schema`, or a CHAIN_ERROR naming `what` and the first problem. */
export function parseAnswer<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
  throw new KytError(
    "CHAIN_ERROR",
    `TRX node: ${what} answered nonsense${where}: ${issue?.message ?? "invalid"}`,
  );
}
