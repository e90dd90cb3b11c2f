/**
 * The tracing contract: a bring-your-own-exporter interface. Core creates spans through it and
 * never imports a tracing library; `@lousho/otel` implements it on OpenTelemetry.
 */

/** Attribute values a span can carry (the OpenTelemetry attribute value types). */
export type TraceAttributeValue = string | number | boolean | readonly string[] | readonly number[] | readonly boolean[];

/** Span attributes; `undefined` values are left out. */
export type TraceAttributes = Record<string, TraceAttributeValue | undefined>;

/**
 * A span's identity as plain JSON, so it can be saved (a paused run keeps it in its snapshot) and
 * linked to from another process. `traceFlags` carries the sampling decision (1 = sampled).
 */
export interface SpanRef {
  traceId: string;
  spanId: string;
  traceFlags?: number;
}

/** Why an operation failed, as a span records it: a low-cardinality type and a message (no stack). */
export interface TraceError {
  /** `error.type`: an error code (`LOUSHO_PROVIDER_ERROR`), a tool error kind (`validation`), or the error's class name. */
  type: string;
  message: string;
}

/** A started span. Methods are called from the agent loop and must not throw. */
export interface TraceSpan {
  /** The span's identity (for links and cross-process parents). */
  readonly ref: SpanRef;
  /**
   * True for a span of a tracer that records nothing at all, neither it nor spans under it
   * (OpenTelemetry's API with no SDK registered). A run whose span is one makes no model or tool
   * call spans under it, so tracing that is wired in but switched off costs next to nothing.
   */
  readonly noop?: boolean;
  /** Sets attributes on the span; a later value replaces an earlier one under the same key. */
  setAttributes(attributes: TraceAttributes): void;
  /** Marks the span failed: error status, `error.type`, and an `exception` event. */
  fail(error: TraceError): void;
  /** Ends the span; later calls do nothing. */
  end(): void;
}

/** What a span stands for: `client` for a call that leaves the process (a model call), `internal` for work in it. */
export type TraceSpanKind = 'internal' | 'client';

/** How `TraceExporter.startSpan` opens a span: its kind, parent, links and first attributes. */
export interface SpanStartOptions {
  /** `client` for calls that leave the process (model calls); default `internal`. */
  kind?: TraceSpanKind;
  /**
   * The parent span: one this exporter started, or any span whose `ref` it can parent under.
   * Without one the exporter uses its own notion of the current span (OpenTelemetry: the active context).
   */
  parent?: TraceSpan;
  /** Spans this one relates to without being their child (a resumed run links to its paused leg). */
  links?: readonly SpanRef[];
  /** Set at creation time, where samplers can see them. */
  attributes?: TraceAttributes;
}

/**
 * Where spans go. `createAgent({ traceExporter })`, `AgentExecutor.execute({ traceExporter })` and
 * `withSpan()` start spans through it. No exporter ships enabled: pass `createOtelTraceExporter()`
 * from `@lousho/build-ai-agent/otel`, or your own.
 */
export interface TraceExporter {
  /** Opens a span named `name`; whoever starts it ends it. */
  startSpan(name: string, options?: SpanStartOptions): TraceSpan;
  /**
   * Runs `fn` with `span` as the current span of the exporter's context (OpenTelemetry: the active
   * context), so spans made by other instrumentation inside a tool (an HTTP client, a database
   * driver) nest under it. Optional: without it `fn` just runs.
   */
  runInSpan?<T>(span: TraceSpan, fn: () => T): T;
  /**
   * Opt-in: record prompts, replies, tool arguments and tool results on spans
   * (`gen_ai.input.messages`, `gen_ai.output.messages`, `gen_ai.system_instructions`,
   * `gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`). Off by default: they may hold personal data.
   */
  readonly captureContent?: boolean;
}

/**
 * Where a nested piece of work records its spans: the exporter, and the span to parent under.
 * A tool gets one as `ctx.trace` (its `execute_tool` span); pass it on as `traceParent` to a nested
 * run (`agent.send(input, { traceParent: ctx.trace })`) or to `withSpan()`.
 */
export interface TraceParent {
  exporter: TraceExporter;
  span: TraceSpan;
}
