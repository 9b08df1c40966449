/**
 * The chain source as the engine uses it: every lookup bounded by a timeout, and every answer
 * checked before it is believed. A source that does not answer in time, throws, or answers
 * something that is not a ChainLookup fails the job with CHAIN_ERROR: the job is retried with
 * backoff and, when it keeps failing, ends in `error` with the reason. Nothing a source returns
 * reaches a stored transfer unchecked.
 */
import { z } from "zod";
import { KytError } from "../../errors.js";
import type { ChainLookup, ChainSource } from "../../ports/chain-source.js";
import { noopTracer, type Tracer } from "../../ports/tracer.js";

const finite = z.number().refine(Number.isFinite, "not a finite number");

const ledgerTransferSchema = z.object({
  network: z.string().min(1),
  txHash: z.string().min(1),
  logIndex: z.number().int(),
  tokenId: z.string().min(1),
  from: z.string().min(1),
  to: z.string().min(1),
  amount: finite.refine((n) => n >= 0, "negative"),
  occurredAt: finite,
  block: finite.nullable(),
  valueUsd: finite.nullable(),
});

const lookupSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("found"), transfers: z.array(ledgerTransferSchema) }),
  z.object({ kind: z.literal("pending") }),
  z.object({ kind: z.literal("not_found") }),
  z.object({ kind: z.literal("failed"), reason: z.string() }),
]);

/** `value` as a ChainLookup, or a CHAIN_ERROR naming what is wrong with it. */
export function checkChainLookup(value: unknown): ChainLookup {
  const result = lookupSchema.safeParse(value);
  if (result.success) return value as ChainLookup;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
  throw new KytError(
    "CHAIN_ERROR",
    `the chain source answered a malformed lookup${where}: ${issue?.message}`,
  );
}

/** What a lookup came to, and how long it took: see {@link guardedChainSource}. */
export type ChainLookupListener = (info: { outcome: ChainLookup["kind"] | "error"; ms: number }) => void;

/**
 * `source` with each lookup bounded by `timeoutMs` and its answer checked; `onLookup` (optional)
 * hears each lookup's outcome (`error`: it threw, timed out or answered a malformed lookup);
 * `tracer` (optional) runs each lookup in a span of its own.
 */
export function guardedChainSource(
  source: ChainSource,
  timeoutMs: number,
  onLookup?: ChainLookupListener,
  tracer: Tracer = noopTracer,
): ChainSource {
  return {
    lookup: (network, txHash) =>
      tracer.span("openkyt.chain.lookup", { "openkyt.network": network }, () => lookup(network, txHash)),
  };

  async function lookup(network: string, txHash: string): Promise<ChainLookup> {
    const started = performance.now();
    let outcome: ChainLookup["kind"] | "error" = "error";
    let timer: ReturnType<typeof setTimeout> | undefined;
    const pending = Promise.resolve().then(() => source.lookup(network, txHash));
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new KytError("CHAIN_ERROR", `the chain source did not answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    // A lookup that settles after its timeout is dropped, its failure included.
    pending.catch(() => undefined);
    try {
      const answer = checkChainLookup(await Promise.race([pending, expired]));
      outcome = answer.kind;
      return answer;
    } finally {
      clearTimeout(timer);
      onLookup?.({ outcome, ms: performance.now() - started });
    }
  }
}
