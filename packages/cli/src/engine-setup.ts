/**
 * The engine of a CLI command: the store, the API key vault key from `OPENKYT_VAULT_KEY`, whether
 * webhooks may target private addresses (`OPENKYT_WEBHOOKS_ALLOW_PRIVATE`), a
 * logger, and a PDF renderer that loads @openkyt/pdf on first use (so start-up stays fast and a
 * missing package only affects the PDF routes, which then answer 503 naming it) and renders on
 * its worker thread pool.
 */

import {
  type ChainSource,
  createColdSources,
  createEngine,
  createWarmSources,
  type Engine,
  type EngineConfig,
  KytError,
  type LedgerReader,
  type Logger,
  type ReportRenderer,
  type Store,
  type Tracer,
  type WarmSources,
} from "@openkyt/core";
import {
  createPooledWarmSources,
  nodeWebhookTransport,
  type ScreeningPool,
  screeningThreadCount,
} from "@openkyt/runtime-node";
import { type ParsedArgs, stringOption } from "./cli-args.js";
import { UsageError } from "./cli-command.js";
import { defaultHubCacheMb } from "./hub-cache-default.js";
import { warmAdvice } from "./warm-advice.js";

/** What this module needs of @openkyt/pdf. */
interface PdfModule {
  createPdfRenderer(): ReportRenderer;
  /** The same renderer on worker threads, one per core (idle threads keep no process alive). */
  createPdfRendererPool?(): ReportRenderer;
}

/** A renderer that loads on first use, and releases its threads when closed. */
export interface ClosableRenderer extends ReportRenderer {
  /** Finishes the reports asked for and stops the renderer's threads (nothing if never loaded). */
  close(): Promise<void>;
}

/** A renderer that imports @openkyt/pdf when the first report is asked for. */
export function lazyPdfRenderer(): ClosableRenderer {
  let renderer: Promise<ReportRenderer> | null = null;
  const load = async (): Promise<ReportRenderer> => {
    const mod = (await import("@openkyt/pdf").catch(() => ({}))) as Partial<PdfModule>;
    if (typeof mod.createPdfRenderer !== "function") {
      throw new KytError(
        "NOT_CONFIGURED",
        "PDF reports need @openkyt/pdf's createPdfRenderer, which is not installed",
      );
    }
    // Off the request thread and on every core: a report is tens of milliseconds of layout.
    return mod.createPdfRendererPool?.() ?? mod.createPdfRenderer();
  };
  return {
    async render(request) {
      renderer ??= load();
      const loaded = await renderer.catch((error: unknown) => {
        renderer = null;
        throw error;
      });
      return loaded.render(request);
    },
    async close() {
      const loaded = await renderer?.catch(() => null);
      renderer = null;
      const closable = loaded as Partial<ClosableRenderer> | null | undefined;
      if (typeof closable?.close === "function") await closable.close();
    },
  };
}

/**
 * `OPENKYT_WEBHOOKS_ALLOW_PRIVATE`: `1` (or `true`) lets webhooks target loopback, private and
 * other refused addresses (tests, internal deployments); unset, empty, `0` or `false` refuses them.
 */
export function allowPrivateWebhooks(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = (env.OPENKYT_WEBHOOKS_ALLOW_PRIVATE ?? "").trim().toLowerCase();
  if (value === "1" || value === "true") return true;
  if (value === "" || value === "0" || value === "false") return false;
  throw new KytError("VALIDATION_ERROR", "OPENKYT_WEBHOOKS_ALLOW_PRIVATE must be 1 or 0");
}

/**
 * Builds the engine of a command over an open store (with warm sources when given: `--warm`,
 * and a tracer when traces are on).
 */
export function createCliEngine(
  store: Store,
  env: Readonly<Record<string, string | undefined>>,
  logger?: Logger,
  sources: CliWarmSources & {
    readonly tracer?: Tracer;
    readonly jobs?: EngineConfig["jobs"];
    readonly chainSource?: ChainSource;
    readonly binding?: EngineConfig["binding"];
  } = {},
  renderer: ReportRenderer = lazyPdfRenderer(),
): Engine {
  return createEngine({
    ...sources,
    store,
    apiKeyVaultKey: env.OPENKYT_VAULT_KEY || undefined,
    webhooks: { transport: nodeWebhookTransport, allowPrivateTargets: allowPrivateWebhooks(env) },
    reportRenderer: renderer,
    ...(logger ? { logger } : {}),
  });
}

/**
 * Sources of a command: warm, with the screening pool when it runs one (close it after the
 * engine stops), or cold with the hub cache in front of the store's ledger.
 */
export type CliWarmSources = Partial<Omit<WarmSources, "ledger">> & {
  readonly ledger?: WarmSources["ledger"] | LedgerReader;
  readonly traceExecutor?: ScreeningPool;
};

/** The option of `--hub-cache-mb` (serve, worker). */
export const HUB_CACHE_OPTION = { "hub-cache-mb": { type: "string" } } as const;

/** Usage lines of `--hub-cache-mb`. */
export const HUB_CACHE_USAGE = `  --hub-cache-mb  without --warm: memory for the rows of the ledger's hubs (addresses with at
               least 64 rows a trace meets), read once and followed; default
               $OPENKYT_HUB_CACHE_MB, then on Postgres and a --ledger clickhouse:// ledger 256
               (an eighth of the heap limit if less), on SQLite none; 0: none (every hop read
               from the database)`;

/**
 * `--hub-cache-mb N` (else OPENKYT_HUB_CACHE_MB): the hub cache's memory bound of a cold process,
 * in MB; 0: no hub cache (null); unset: undefined, the default of the store
 * (`hub-cache-default.ts`).
 */
export function hubCacheOption(
  args: ParsedArgs,
  env: Readonly<Record<string, string | undefined>>,
): number | null | undefined {
  const raw = stringOption(args, "hub-cache-mb") ?? (env.OPENKYT_HUB_CACHE_MB || undefined);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new UsageError(`--hub-cache-mb must be a whole number of MB (0: no hub cache), got ${raw}`);
  }
  return Number(raw) === 0 ? null : Number(raw);
}

/**
 * `--screening-threads N`: threads that run the checks' traces over one shared copy of the
 * ledger (`--warm` only); default: one fewer than the cores this process may use (0 on one core,
 * `screeningThreadCount`); 0: traces on the main thread.
 */
export function screeningThreadsOption(args: ParsedArgs, warm: boolean): number {
  const raw = stringOption(args, "screening-threads");
  if (raw === undefined) return warm ? screeningThreadCount(undefined) : 0;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new UsageError(
      `--screening-threads must be a whole number (0: trace on the main thread), got ${raw}`,
    );
  }
  if (!warm && Number(raw) > 0) {
    throw new UsageError("--screening-threads needs --warm (the threads share the warm ledger)");
  }
  return Number(raw);
}

/**
 * The sources of a screening process over `store`: warm (`--warm`: the ledger in memory too;
 * with `threads` > 0 held by a screening pool of that many threads, which also runs the traces),
 * else cold (the ledger read from the database with its hubs held, `hubCacheMb` MB at most, null:
 * none, undefined: the store's default, `hub-cache-default.ts`; labels and sanctions held whole,
 * tokens and prices cached: docs/deployment.md). Writes the start-up advice about `--warm` to
 * `stderr` (`warm-advice.ts`) first.
 */
export async function screeningSources(
  warm: boolean,
  store: Store,
  stderr: (text: string) => void,
  threads = 0,
  hubCacheMb: number | null | undefined = undefined,
): Promise<CliWarmSources> {
  const advice = await warmAdvice(store, warm);
  if (advice) stderr(advice);
  if (!warm) {
    const mb = hubCacheMb === undefined ? defaultHubCacheMb(store) : hubCacheMb;
    return createColdSources(store, { hubCache: mb === null ? false : { maxBytes: mb * 2 ** 20 } });
  }
  return threads > 0 ? createPooledWarmSources(store, { pool: { threads } }) : createWarmSources(store);
}

/** The warning printed when API secrets are kept unencrypted. */
export const PLAIN_SECRETS_WARNING =
  "warning: OPENKYT_VAULT_KEY is not set, so API secrets are stored unencrypted in the database\n";
