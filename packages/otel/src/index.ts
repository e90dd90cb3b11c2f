// `@lousho/otel` (also `@lousho/build-ai-agent/otel`): the tracing interface on OpenTelemetry.
// Needs the optional peer dependency `@opentelemetry/api`; core never imports it.
import { context, isSpanContextValid, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Link, type Span, type SpanContext, type SpanOptions, type Tracer } from '@opentelemetry/api';
import type { SpanRef, SpanStartOptions, TraceAttributes, TraceError, TraceExporter, TraceSpan } from '@lousho/protocol';

/** Options of `createOtelTraceExporter()`: which tracer makes the spans, and whether they carry content. */
export interface OtelTraceExporterOptions {
  /** The tracer spans are made with (default: `trace.getTracer('@lousho/core')` of the registered provider). */
  tracer?: Tracer;
  /**
   * Record prompts, replies, tool arguments and results on spans (the GenAI conventions' opt-in
   * content attributes). Off by default: they may hold personal data and are often large.
   */
  captureContent?: boolean;
}

/** A Lousho span over an OpenTelemetry span. */
class OtelTraceSpan implements TraceSpan {
  readonly ref: SpanRef;
  readonly noop: boolean;
  #ended = false;
  // The context its children are made in, built once per active context: a run's leg span is
  // the parent of every model and tool call span of the leg.
  #childBase: Context | undefined;
  #childContext: Context | undefined;

  constructor(readonly span: Span) {
    const spanContext = span.spanContext();
    const { traceId, spanId, traceFlags } = spanContext;
    this.ref = { traceId, spanId, traceFlags };
    // The API's no-op tracer (no SDK registered) makes spans that record nothing and have no valid
    // id; an SDK gives every span a valid id, sampled or not.
    this.noop = !span.isRecording() && !isSpanContextValid(spanContext);
  }

  childContext(active: Context): Context {
    if (this.#childBase !== active) {
      this.#childBase = active;
      this.#childContext = trace.setSpan(active, this.span);
    }
    return this.#childContext!;
  }

  setAttributes(attributes: TraceAttributes): void {
    // OpenTelemetry's attributes allow undefined values (the SDK leaves them out); a span that does not record skips the call.
    if (!this.#ended && this.span.isRecording()) this.span.setAttributes(attributes as Attributes);
  }

  fail(error: TraceError): void {
    if (this.#ended) return;
    this.span.setAttribute('error.type', error.type);
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    // The conventions' exception event, without a stack trace.
    this.span.addEvent('exception', { 'exception.type': error.type, 'exception.message': error.message });
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.span.end();
  }
}

function spanContextOf(ref: SpanRef): SpanContext {
  return { traceId: ref.traceId, spanId: ref.spanId, traceFlags: ref.traceFlags ?? 1, isRemote: true };
}

/** The context a span is made in: the parent's (a span of ours, or any span by its ref), else the active one. */
function contextFor(parent: TraceSpan | undefined): Context {
  const active = context.active();
  if (!parent) return active;
  if (parent instanceof OtelTraceSpan) return parent.childContext(active);
  const spanContext = spanContextOf(parent.ref);
  return isSpanContextValid(spanContext) ? trace.setSpanContext(active, spanContext) : active;
}

/**
 * A `TraceExporter` on OpenTelemetry: Lousho's spans become spans of your tracer provider (and go to
 * whatever exporters it has: OTLP, console, in-memory). Without a registered provider the API's
 * no-op tracer is used and nothing is recorded. A run with no explicit parent nests under the
 * active context, and tools run with their `execute_tool` span active, so other instrumentation
 * (HTTP clients, database drivers) nests under them.
 */
export function createOtelTraceExporter(options: OtelTraceExporterOptions = {}): TraceExporter {
  const tracer = options.tracer ?? trace.getTracer('@lousho/core');
  return {
    captureContent: options.captureContent === true,
    startSpan(name: string, start: SpanStartOptions = {}): TraceSpan {
      const options: SpanOptions = { kind: start.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL };
      // Undefined values are allowed by OpenTelemetry's attribute type (the SDK leaves them out).
      if (start.attributes) options.attributes = start.attributes as Attributes;
      if (start.links && start.links.length > 0) {
        const links: Link[] = [];
        for (const ref of start.links) {
          const linked = spanContextOf(ref);
          if (isSpanContextValid(linked)) links.push({ context: linked });
        }
        if (links.length > 0) options.links = links;
      }
      return new OtelTraceSpan(tracer.startSpan(name, options, contextFor(start.parent)));
    },
    runInSpan<T>(span: TraceSpan, fn: () => T): T {
      const ctx = span instanceof OtelTraceSpan ? span.childContext(context.active()) : contextFor(span);
      return context.with(ctx, fn);
    },
  };
}
