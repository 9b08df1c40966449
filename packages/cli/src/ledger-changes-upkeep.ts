/**
 * The change log's upkeep in a process that writes a ClickHouse ledger: `openkyt follow` drops
 * the days of `ledger_changes` older than the retention at start and then every hour, `openkyt
 * import ledger` once at its end
 * (`dropExpiredChanges` of @openkyt/ledger-clickhouse: two small reads when nothing expired).
 * Several followers may run it at once: it is idempotent. A failed run is reported and tried
 * again at the next hour; it never stops the follower. A sharded URL without `shards=` cannot
 * reach the shards' local tables: that is reported once, and the upkeep is left to cron.
 */

/** Default of {@link ChangesUpkeepOptions.everyMs}: an hour. */
export const CHANGES_UPKEEP_EVERY_MS = 3_600_000;

/** Options of {@link startChangesUpkeep}. */
export interface ChangesUpkeepOptions {
  /** Days of changes kept (see `dropExpiredChanges`); default 7. */
  readonly retentionDays?: number;
  /** Time between runs, ms; default an hour. */
  readonly everyMs?: number;
  /** Told of each run that dropped days, and of each failure (one line each). */
  readonly report: (line: string) => void;
}

/** A running upkeep. */
export interface ChangesUpkeep {
  /** The first run (at start), settled: for tests and callers that wait for it. */
  readonly first: Promise<void>;
  /** Stops the timer and waits for a run in hand. Idempotent. */
  stop(): Promise<void>;
}

/**
 * One run of the upkeep of the change log of the ledger at `ledgerUrl` (clickhouse://...), as
 * `openkyt import ... --ledger` does at its end: reports what it dropped, or why it failed or
 * could not run (never throws for that); VALIDATION_ERROR for a retention under a day.
 */
export async function dropExpiredChangesOnce(
  ledgerUrl: string,
  options: Omit<ChangesUpkeepOptions, "everyMs">,
): Promise<void> {
  const run = await changesUpkeepRun(ledgerUrl, options);
  await run?.();
}

/** Starts the upkeep of the change log of the ledger at `ledgerUrl` (clickhouse://...). */
export async function startChangesUpkeep(
  ledgerUrl: string,
  options: ChangesUpkeepOptions,
): Promise<ChangesUpkeep> {
  const run = await changesUpkeepRun(ledgerUrl, options);
  if (run === null) return { first: Promise.resolve(), stop: async () => {} };
  let running: Promise<void> = run();
  const first = running;
  const timer = setInterval(() => {
    running = run();
  }, options.everyMs ?? CHANGES_UPKEEP_EVERY_MS);
  timer.unref();
  let stopped = false;
  return {
    first,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** One run, reporting; null (after saying why) when the upkeep cannot reach the shards. */
async function changesUpkeepRun(
  ledgerUrl: string,
  options: Omit<ChangesUpkeepOptions, "everyMs">,
): Promise<(() => Promise<void>) | null> {
  const { dropExpiredChanges, parseClickHouseUrl, changesRetentionDays } = await import(
    "@openkyt/ledger-clickhouse"
  );
  const target = parseClickHouseUrl(ledgerUrl);
  const retentionDays = changesRetentionDays(
    options.retentionDays === undefined ? {} : { retentionDays: options.retentionDays },
  );
  if (target.cluster !== null && target.shards.length === 0) {
    options.report(
      `change log upkeep: ${target.cluster} is sharded and the URL lists no shards= (HTTP addresses): old days are not dropped here; run dropExpiredChanges with the shards from cron\n`,
    );
    return null;
  }
  return () =>
    dropExpiredChanges(target, { retentionDays }).then(
      (outcome) => {
        for (const [server, { dropped }] of Object.entries(outcome)) {
          if (dropped.length > 0) {
            options.report(
              `change log upkeep: dropped ${dropped.length} day(s) older than ${retentionDays} days on ${server} (${dropped.join(", ")})\n`,
            );
          }
        }
      },
      (error: unknown) => {
        options.report(
          `change log upkeep failed (tried again at the next run): ${error instanceof Error ? error.message : String(error)}\n`,
        );
      },
    );
}
