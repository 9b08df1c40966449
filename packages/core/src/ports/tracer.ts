/**
 * The Tracer port: spans around units of work, for an optional tracing backend (OpenTelemetry
 * in `openkyt serve` and `worker` when the OTEL_* variables configure it). Core never depends
 * on a tracing library; without a tracer every span is a plain call.
 */

/** Attributes of a span: low-cardinality facts (a lane, a kind, a count), never secrets. */
export type SpanAttributes = Readonly<Record<string, string | number | boolean>>;

/** Starts spans. */
export interface Tracer {
  /**
   * Runs `fn` inside a span named `name`: the span is the parent of the spans started while
   * `fn` runs (the store's and the chain source's calls), ends when `fn` settles, and records
   * the error when it rejects (which it rethrows unchanged). Returns what `fn` returns.
   */
  span<T>(name: string, attributes: SpanAttributes, fn: () => Promise<T>): Promise<T>;
}

/** The tracer of an engine without tracing: runs `fn`, nothing else. */
export const noopTracer: Tracer = Object.freeze({
  span: <T>(_name: string, _attributes: SpanAttributes, fn: () => Promise<T>) => fn(),
});
