/**
 * The Tracer port: spans around units of work, for an optional tracing backend (OpenTelemetry
 * in `openkyt serve` and `worker` when the OTEL_* variables configure it). Core never depends
 * on a tracing library; without a tracer every span is a plain call.
 */

/** Attributes of a span: low-cardinality facts (a lane, a kind, a count), never secrets. */
export type SpanAttributes = Readonly<Record<string, string | number | boolean>>;

/** Where a span sits among traces other than the current one (W3C `traceparent` values). */
export interface SpanContext {
  /** The span's parent, in place of the current span: the span belongs to that trace. */
  readonly parent?: string;
  /** Spans the span is linked to (the requests a batch of jobs came from). */
  readonly links?: ReadonlyArray<string>;
}

/** Starts spans. */
export interface Tracer {
  /**
   * Runs `fn` inside a span named `name`: the span is the parent of the spans started while
   * `fn` runs (the store's and the chain source's calls), ends when `fn` settles, and records
   * the error when it rejects (which it rethrows unchanged). Returns what `fn` returns. The span
   * is a child of the current span, or of `context.parent` when given.
   */
  span<T>(name: string, attributes: SpanAttributes, fn: () => Promise<T>, context?: SpanContext): Promise<T>;
}

/** The tracer of an engine without tracing: runs `fn`, nothing else. */
export const noopTracer: Tracer = Object.freeze({
  span: <T>(_name: string, _attributes: SpanAttributes, fn: () => Promise<T>) => fn(),
});
