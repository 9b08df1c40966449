/** A pino logger for servers: JSON lines to stderr (results stay on stdout). */
import { type Logger, pino } from "pino";

/** Options of {@link createHttpLogger}. */
export interface HttpLoggerOptions {
  /** pino level; default "info". */
  readonly level?: string;
  /** File descriptor to write to; default 2 (stderr). */
  readonly fd?: number;
}

/** A pino logger writing JSON lines to stderr; call `flush()` before exiting. */
export function createHttpLogger(options: HttpLoggerOptions = {}): Logger {
  return pino(
    { level: options.level ?? "info", base: { service: "openkyt" } },
    pino.destination({ fd: options.fd ?? 2, sync: false }),
  );
}
