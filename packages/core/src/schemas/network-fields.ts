/**
 * Normalises the fields whose format depends on the network (addresses, transaction hashes,
 * token ids) once the network is known, collecting one problem per field so that a request
 * reports every bad field at once.
 */
import { z } from "zod";
import { checkAddress, checkTxHash, classifyTokenId } from "../domain/addresses.js";
import type { FieldErrors } from "../errors.js";

/** One problem with one wire field. */
export interface FieldProblem {
  readonly field: string;
  readonly message: string;
}

/** Normalisers for one network that remember the problems they met. */
export interface NetworkFields {
  /** A required address: its normal form ("" when invalid, with a problem recorded). */
  address(field: string, raw: string): string;
  /** An optional address: null when omitted, null or empty. */
  optionalAddress(field: string, raw: string | null | undefined): string | null;
  /** A transaction hash in its normal form. */
  txHash(field: string, raw: string): string;
  /** A token id in its normal form (`native`, contract or upper-cased symbol). */
  tokenId(field: string, raw: string | null | undefined): string;
  /** Records a problem that is not about a format (e.g. a conditional requirement). */
  problem(field: string, message: string): void;
  /** The problems recorded so far. */
  problems(): ReadonlyArray<FieldProblem>;
}

/** Normalisers for the fields of one request on `network`. */
export function networkFields(network: string): NetworkFields {
  const found: FieldProblem[] = [];
  const take = (
    field: string,
    check: { ok: true; value: string } | { ok: false; problem: string },
  ): string => {
    if (check.ok) return check.value;
    found.push({ field, message: check.problem });
    return "";
  };
  return {
    address: (field, raw) => take(field, checkAddress(network, raw)),
    optionalAddress: (field, raw) =>
      raw === null || raw === undefined || raw.trim() === "" ? null : take(field, checkAddress(network, raw)),
    txHash: (field, raw) => take(field, checkTxHash(network, raw)),
    tokenId: (field, raw) => take(field, classifyTokenId(network, raw)),
    problem: (field, message) => {
      found.push({ field, message });
    },
    problems: () => found,
  };
}

/** Moves the problems into a zod transform's context; true when there were any. */
export function reportProblems(ctx: z.core.$RefinementCtx, problems: ReadonlyArray<FieldProblem>): boolean {
  for (const { field, message } of problems) {
    ctx.issues.push({ code: "custom", input: ctx.value, path: [field], message });
  }
  return problems.length > 0;
}

/** The problems as field errors. */
export function problemsAsErrors(problems: ReadonlyArray<FieldProblem>): FieldErrors {
  const errors: Record<string, string[]> = {};
  for (const { field, message } of problems) errors[field] = [...(errors[field] ?? []), message];
  return errors;
}

/**
 * The transform of a request body whose fields depend on its network: `build` makes the
 * engine input, normalising those fields through `f` (the normalisers of the body's network,
 * which also take problems of its own); every problem is reported on its field and the body
 * refused, else the input is the body's output.
 */
export function networkInput<B extends { readonly network: string }, I>(
  build: (body: B, f: NetworkFields) => I,
): (body: B, ctx: z.core.$RefinementCtx) => I {
  return (body, ctx) => {
    const f = networkFields(body.network);
    const input = build(body, f);
    return reportProblems(ctx, f.problems()) ? z.NEVER : input;
  };
}
