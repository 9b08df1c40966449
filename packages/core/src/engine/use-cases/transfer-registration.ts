/**
 * Registering transfers and attempts, and binding a hash to an attempt. Each use case writes
 * the transfer and the job that carries on its work in one transaction.
 */
import { CHECK_KINDS, type CheckKind } from "../../domain/enums.js";
import type { JobOrigin, JobRecord, TransferRecord } from "../../domain/records.js";
import { transferIdentityKey } from "../../domain/transfer-identity.js";
import { fieldError, isKytError, KytError, notFound } from "../../errors.js";
import { TX_STATUS_MACHINE, transition } from "../../machines/index.js";
import type { StoreOps } from "../../ports/store.js";
import {
  bindTransactionSchema,
  lookupId,
  normalizeBindInput,
  parseInput,
  presentTransfer,
  registerAttemptSchema,
  registerTransferSchema,
} from "../../schemas/index.js";
import type { EngineContext } from "../engine-context.js";
import { newJob } from "../jobs/job-factory.js";
import { withOrigin } from "../jobs/job-origin.js";
import { NO_CHECKS, NO_RESULTS, queueChecks } from "../screening/check-states.js";
import { resolveRiskModel, resolveToken } from "../screening/model-resolution.js";
import { recordEvent } from "../webhooks/webhook-outbox.js";

/** The checks an attempt gets before it is bound. */
export const ATTEMPT_CHECKS: ReadonlyArray<CheckKind> = Object.freeze(["counterparty", "sanctions"]);

/** Loads a transfer of the account, or NOT_FOUND (also for another account's transfer). */
export async function loadTransfer(store: StoreOps, accountId: string, id: string): Promise<TransferRecord> {
  const transfer = await store.getTransfer(lookupId("transfer", id));
  if (!transfer || transfer.accountId !== accountId) throw notFound("transfer", id);
  return transfer;
}

/** Enqueues a check job for `kinds` and returns the transfer with those checks queued. */
export async function enqueueChecks(
  ctx: EngineContext,
  tx: StoreOps,
  transfer: TransferRecord,
  kinds: ReadonlyArray<CheckKind>,
): Promise<TransferRecord> {
  const now = ctx.clock.now();
  const next = { ...transfer, checks: queueChecks(transfer.checks, kinds, now), updatedAt: now };
  await tx.updateTransfer(next);
  await tx.enqueueJob(newJob(ctx, "transfer.check", transfer.accountId, transfer.id, { checks: [...kinds] }));
  return next;
}

/** Starts binding: tx_status -> binding and a bind job, in the caller's transaction. */
async function startBinding(
  ctx: EngineContext,
  tx: StoreOps,
  transfer: TransferRecord,
): Promise<TransferRecord> {
  const now = ctx.clock.now();
  const next: TransferRecord = {
    ...transfer,
    txStatus: transition(TX_STATUS_MACHINE, transfer.txStatus, "binding"),
    lastError: null,
    checks: transfer.disableAutoCheck ? transfer.checks : queueChecks(transfer.checks, CHECK_KINDS, now),
    updatedAt: now,
  };
  await tx.updateTransfer(next);
  await tx.enqueueJob(newJob(ctx, "transfer.bind", transfer.accountId, transfer.id, { bindingSince: now }));
  await recordEvent(ctx, tx, next.accountId, "transfer.status_changed", {
    transfer: presentTransfer(next),
    from: transfer.txStatus,
  });
  return next;
}

/** The result of a registration: the transfer, and whether it was created now. */
export interface Registration {
  readonly transfer: TransferRecord;
  readonly created: boolean;
}

/** One item of a batch registration: its registration, or why it was refused. */
export type BatchRegistration =
  | ({ readonly ok: true } & Registration)
  | { readonly ok: false; readonly error: KytError };

/** Most transfers one batch registration takes. */
export const MAX_BATCH_REGISTRATIONS = 1_000;

/** A registration body, validated, with its token and risk model resolved. */
interface ResolvedRegistration {
  readonly input: ReturnType<typeof parseRegistration>;
  readonly tokenId: string;
  readonly tokenSymbol: string | null;
  readonly modelId: string | null;
}

/** The fields that make two registrations the same transfer. */
type TransferIdentity = Parameters<StoreOps["findTransfer"]>[0];

const parseRegistration = (body: unknown) => parseInput(registerTransferSchema, body, "register");

/** What a registration decides about a new transfer; everything else starts empty. */
type NewTransferFields = Pick<
  TransferRecord,
  | "clientId"
  | "attemptId"
  | "network"
  | "tokenId"
  | "tokenSymbol"
  | "direction"
  | "txStatus"
  | "txHash"
  | "inputAddress"
  | "outputAddress"
  | "amount"
  | "valueInFiat"
  | "riskModelId"
  | "checks"
  | "disableAutoCheck"
>;

/** A new transfer of `accountId` registered at `now`: not yet bound, checked or risky. */
function newTransferRecord(
  ctx: EngineContext,
  accountId: string,
  fields: NewTransferFields,
  now: number,
): TransferRecord {
  return {
    id: ctx.ids.next(),
    accountId,
    registeredAt: now,
    occurredAt: null,
    ...NO_RESULTS,
    counterpartyName: null,
    counterpartyCategory: null,
    updatedAt: now,
    ...fields,
  };
}

/** A new full transfer, binding, with its checks queued unless disabled. */
function newFullTransfer(
  ctx: EngineContext,
  accountId: string,
  item: ResolvedRegistration,
  now: number,
): TransferRecord {
  const { input } = item;
  return newTransferRecord(
    ctx,
    accountId,
    {
      clientId: input.clientId ?? null,
      attemptId: null,
      network: input.network,
      tokenId: item.tokenId,
      tokenSymbol: item.tokenSymbol,
      direction: input.direction,
      txStatus: "binding",
      txHash: input.txHash,
      inputAddress: null,
      outputAddress: input.outputAddress,
      amount: null,
      valueInFiat: null,
      riskModelId: item.modelId,
      checks: input.disableAutoCheck ? NO_CHECKS : queueChecks(NO_CHECKS, CHECK_KINDS, now),
      disableAutoCheck: input.disableAutoCheck,
    },
    now,
  );
}

/**
 * Validates one body and resolves its token and risk model; the refusal as a value. Lookups
 * are memoised in `memo` across the items of a batch (they read reference data only).
 */
async function resolveRegistration(
  ctx: EngineContext,
  accountId: string,
  body: unknown,
  memo: Map<string, Promise<unknown>>,
): Promise<ResolvedRegistration | KytError> {
  const once = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    let hit = memo.get(key) as Promise<T> | undefined;
    if (!hit) {
      hit = load();
      memo.set(key, hit);
    }
    return hit;
  };
  try {
    const input = parseRegistration(body);
    // The token first, then the model: an item wrong in both is refused for its token.
    const token = await once(`token\u0000${input.network}\u0000${input.tokenId}`, () =>
      resolveToken(ctx, input.network, input.tokenId),
    );
    const model = await once(`model\u0000${input.riskModel ?? ""}`, () =>
      resolveRiskModel(ctx, accountId, input.riskModel),
    );
    return { input, tokenId: token.tokenId, tokenSymbol: token.tokenSymbol, modelId: model.modelId };
  } catch (error) {
    if (isKytError(error)) return error;
    throw error;
  }
}

/** The identity of a resolved registration, and the same as one text (for a batch's duplicates). */
function identityOf(
  accountId: string,
  item: ResolvedRegistration,
): { identity: TransferIdentity; key: string } {
  const { input } = item;
  const identity = {
    accountId,
    network: input.network,
    txHash: input.txHash,
    tokenId: item.tokenId,
    outputAddress: input.outputAddress,
    direction: input.direction,
  };
  return { identity, key: transferIdentityKey(identity) as string };
}

/** A resolved registration, the account it is for and the request it came from, when known. */
interface AccountRegistration {
  readonly accountId: string;
  readonly item: ResolvedRegistration;
  /** Its own request's origin, for its jobs (a batch of registrations may come from several). */
  readonly origin?: JobOrigin | undefined;
}

/**
 * Writes resolved registrations (of one or several accounts) in one transaction, with a
 * statement per step for the whole batch: one read of the transfers they name, one insert of
 * the new ones, one of their bind jobs. Each known transfer is answered (and checked again
 * with force_recheck); an item naming the same transfer as an earlier item of the batch gets
 * that item's transfer, not created.
 */
async function writeRegistrations(
  ctx: EngineContext,
  items: ReadonlyArray<AccountRegistration>,
): Promise<Registration[]> {
  return ctx.store.transaction(async (tx) => {
    const keyed = items.map(({ accountId, item }) => identityOf(accountId, item));
    const stored = await tx.findTransfers(keyed.map((k) => k.identity));
    const known = new Map(stored.map((t) => [transferIdentityKey(t), t]));
    const out: Registration[] = [];
    const inBatch = new Map<string, TransferRecord>();
    const inserts: TransferRecord[] = [];
    const jobs: JobRecord[] = [];
    for (const [i, { accountId, item, origin }] of items.entries()) {
      const { key } = keyed[i] as (typeof keyed)[number];
      const itemCtx = withOrigin(ctx, origin);
      const earlier = inBatch.get(key);
      if (earlier) {
        out.push({ transfer: earlier, created: false });
        continue;
      }
      const existing = known.get(key);
      let registration: Registration;
      if (existing) {
        registration = {
          transfer: await recheckExisting(itemCtx, tx, existing, item.input.forceRecheck),
          created: false,
        };
      } else {
        const now = ctx.clock.now();
        const transfer = newFullTransfer(ctx, accountId, item, now);
        inserts.push(transfer);
        jobs.push(newJob(itemCtx, "transfer.bind", accountId, transfer.id, { bindingSince: now }));
        registration = { transfer, created: true };
      }
      inBatch.set(key, registration.transfer);
      out.push(registration);
    }
    await tx.insertTransfers(inserts);
    await tx.enqueueJobs(jobs);
    return out;
  });
}

/** `writeRegistrations`, once more when a concurrent registration of one of them won an insert. */
async function writeRegistrationsRetried(
  ctx: EngineContext,
  items: ReadonlyArray<AccountRegistration>,
): Promise<Registration[]> {
  try {
    return await writeRegistrations(ctx, items);
  } catch (error) {
    // A concurrent registration of the same transfer won the insert: the second try finds it.
    if (isKytError(error, "CONFLICT")) return await writeRegistrations(ctx, items);
    throw error;
  }
}

/** A registration waiting for the next batch, and its caller. */
interface Waiting {
  readonly accountId: string;
  readonly body: unknown;
  readonly origin: JobOrigin | undefined;
  readonly resolve: (registration: Registration) => void;
  readonly reject: (error: unknown) => void;
}

/** Coalesces single registrations into batches (see {@link createRegistrationBatcher}). */
export interface RegistrationBatcher {
  /**
   * Registers one full transfer with the registrations arriving with it; resolves once durable.
   * Its jobs carry `origin` (its own request's), whatever the others' are.
   */
  register(accountId: string, body: unknown, origin?: JobOrigin): Promise<Registration>;
}

/**
 * Registrations arriving together are written together: each call joins a batch that is
 * validated and written on the next turn of the event loop (`setImmediate`) with one
 * transaction and a statement per step, up to {@link MAX_BATCH_REGISTRATIONS} at a time, and
 * each caller is answered when the batch is durable. A refused item (validation) is refused
 * alone; if writing the batch fails, each of its registrations is written on its own, so one
 * cannot fail the others. `ctx` is read when a batch runs (the engine builds it after this).
 */
export function createRegistrationBatcher(context: () => EngineContext): RegistrationBatcher {
  let waiting: Waiting[] = [];
  let scheduled = false;

  const settle = (batch: ReadonlyArray<Waiting>, written: ReadonlyArray<Registration>) => {
    for (const [i, w] of batch.entries()) w.resolve(written[i] as Registration);
  };

  async function writeBatch(ctx: EngineContext, batch: ReadonlyArray<Waiting>): Promise<void> {
    const memo = new Map<string, Promise<unknown>>();
    const resolved = await Promise.all(batch.map((w) => resolveRegistration(ctx, w.accountId, w.body, memo)));
    const valid: Waiting[] = [];
    const items: AccountRegistration[] = [];
    resolved.forEach((item, i) => {
      const w = batch[i] as Waiting;
      if (item instanceof KytError) w.reject(item);
      else {
        valid.push(w);
        items.push({ accountId: w.accountId, item, origin: w.origin });
      }
    });
    if (items.length === 0) return;
    try {
      settle(valid, await writeRegistrationsRetried(ctx, items));
    } catch (error) {
      if (items.length === 1) throw error;
      // The batch failed as a whole: each on its own, so that one cannot fail the others.
      await Promise.all(
        items.map((item, i) =>
          writeRegistrationsRetried(ctx, [item]).then(
            ([registration]) => (valid[i] as Waiting).resolve(registration as Registration),
            (e: unknown) => (valid[i] as Waiting).reject(e),
          ),
        ),
      );
      return;
    }
  }

  function flush(): void {
    scheduled = false;
    const batch = waiting.slice(0, MAX_BATCH_REGISTRATIONS);
    waiting = waiting.slice(batch.length);
    if (waiting.length > 0) schedule();
    writeBatch(context(), batch).catch((error: unknown) => {
      for (const w of batch) w.reject(error);
    });
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    context().timer.soon(flush);
  }

  return Object.freeze({
    register(accountId: string, body: unknown, origin?: JobOrigin): Promise<Registration> {
      return new Promise<Registration>((resolve, reject) => {
        waiting.push({ accountId, body, origin, resolve, reject });
        schedule();
      });
    },
  });
}

/**
 * Registers a full transfer. The same (account, network, tx_hash, token_id, output_address,
 * direction) returns the existing transfer, checked again only with force_recheck. Written
 * together with the registrations that arrive with it (see {@link createRegistrationBatcher}).
 */
export function registerTransfer(
  ctx: EngineContext,
  accountId: string,
  body: unknown,
): Promise<Registration> {
  return ctx.registrations.register(accountId, body, ctx.origin);
}

/**
 * Registers up to {@link MAX_BATCH_REGISTRATIONS} full transfers, as an ingestion pipeline
 * sends them: each item is validated on its own and answered in order; the valid ones are
 * written together in one transaction (durable when this resolves), even when others are
 * refused. Each item is idempotent like {@link registerTransfer}. VALIDATION_ERROR naming
 * `transfers` when `bodies` is not a list of 1 to 1,000 items.
 */
export async function registerTransfers(
  ctx: EngineContext,
  accountId: string,
  bodies: unknown,
): Promise<BatchRegistration[]> {
  if (!Array.isArray(bodies) || bodies.length === 0 || bodies.length > MAX_BATCH_REGISTRATIONS) {
    throw fieldError(
      "transfers",
      `must be a list of 1 to ${MAX_BATCH_REGISTRATIONS.toLocaleString("en-US")} transfers to register`,
    );
  }
  const memo = new Map<string, Promise<unknown>>();
  const resolved = await Promise.all(bodies.map((body) => resolveRegistration(ctx, accountId, body, memo)));
  const valid = resolved.filter((item): item is ResolvedRegistration => !(item instanceof KytError));
  const written =
    valid.length > 0
      ? await writeRegistrationsRetried(
          ctx,
          valid.map((item) => ({ accountId, item })),
        )
      : [];
  let next = 0;
  return resolved.map((item): BatchRegistration => {
    if (item instanceof KytError) return { ok: false, error: item };
    return { ok: true, ...(written[next++] as Registration) };
  });
}

/** force_recheck on a known transfer: bound -> checks again; not_found/error -> binds again. */
async function recheckExisting(
  ctx: EngineContext,
  tx: StoreOps,
  existing: TransferRecord,
  force: boolean,
): Promise<TransferRecord> {
  if (!force) return existing;
  if (existing.txStatus === "bound") return enqueueChecks(ctx, tx, existing, CHECK_KINDS);
  if (existing.txStatus === "not_found" || existing.txStatus === "error")
    return startBinding(ctx, tx, existing);
  return existing;
}

/** Registers an attempt: tx_status none, the counterparty and sanctions checks queued. */
export async function registerAttempt(
  ctx: EngineContext,
  accountId: string,
  body: unknown,
): Promise<TransferRecord> {
  const input = parseInput(registerAttemptSchema, body, "register-attempt");
  const { tokenId, tokenSymbol } = await resolveToken(ctx, input.network, input.tokenId);
  const { modelId } = await resolveRiskModel(ctx, accountId, input.riskModel);
  const now = ctx.clock.now();
  const price = input.amount === null ? null : await ctx.prices.usdPrice(input.network, tokenId, now);
  return ctx.store.transaction(async (tx) => {
    const transfer = newTransferRecord(
      ctx,
      accountId,
      {
        clientId: input.clientId ?? null,
        attemptId: input.attemptId ?? null,
        network: input.network,
        tokenId,
        tokenSymbol,
        direction: input.direction,
        txStatus: "none",
        txHash: null,
        inputAddress: input.inputAddress ?? null,
        outputAddress: input.outputAddress ?? null,
        amount: input.amount ?? null,
        valueInFiat: input.amount !== null && price !== null ? input.amount * price : null,
        riskModelId: modelId,
        checks: queueChecks(NO_CHECKS, ATTEMPT_CHECKS, now),
        disableAutoCheck: false,
      },
      now,
    );
    await tx.insertTransfer(transfer);
    await tx.enqueueJob(
      newJob(ctx, "transfer.check", accountId, transfer.id, { checks: [...ATTEMPT_CHECKS] }),
    );
    return transfer;
  });
}

/** Binds a hash to an attempt: tx_status none -> binding, exposure queued, a bind job. */
export async function bindTransaction(
  ctx: EngineContext,
  accountId: string,
  id: string,
  body: unknown,
): Promise<TransferRecord> {
  const raw = parseInput(bindTransactionSchema, body, "bind-transaction");
  const current = await loadTransfer(ctx.store, accountId, id);
  const input = normalizeBindInput(current.network, raw);
  const token = input.tokenId ? await resolveToken(ctx, current.network, input.tokenId) : null;
  if (!current.outputAddress && !input.outputAddress) {
    throw fieldError("output_address", "required: the attempt has no output_address yet");
  }
  if (current.outputAddress && input.outputAddress && current.outputAddress !== input.outputAddress) {
    throw fieldError("output_address", `differs from the attempt's output_address ${current.outputAddress}`);
  }
  return ctx.store.transaction(async (tx) => {
    const transfer = await loadTransfer(tx, accountId, id);
    if (transfer.txStatus !== "none") {
      throw new KytError(
        "ILLEGAL_TRANSITION",
        `transfer ${id} already has a transaction (tx_status ${transfer.txStatus})`,
        {
          details: { machine: TX_STATUS_MACHINE.name, from: transfer.txStatus, to: "binding", allowed: [] },
        },
      );
    }
    const withHash: TransferRecord = {
      ...transfer,
      txHash: input.txHash,
      tokenId: token?.tokenId ?? transfer.tokenId,
      tokenSymbol: token ? token.tokenSymbol : transfer.tokenSymbol,
      outputAddress: transfer.outputAddress ?? input.outputAddress ?? null,
    };
    return startBinding(ctx, tx, withHash);
  });
}
