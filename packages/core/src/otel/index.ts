// `@lousho/core/otel` (also `@lousho/build-ai-agent/otel`): the tracing interface on OpenTelemetry.
// Needs the optional peer dependency `@opentelemetry/api`; the root entry never imports it.
import { context, isSpanContextValid, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Link, type Span, type SpanContext, type Tracer } from '@opentelemetry/api';
import type { SpanRef, SpanStartOptions, TraceAttributes, TraceError, TraceExporter, TraceSpan } from '../tracing/types.js';

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
  #ended = false;

  constructor(readonly span: Span) {
    const { traceId, spanId, traceFlags } = span.spanContext();
    this.ref = { traceId, spanId, traceFlags };
  }

  setAttributes(attributes: TraceAttributes): void {
    if (!this.#ended) this.span.setAttributes(defined(attributes));
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

function defined(attributes: TraceAttributes): Attributes {
  const out: Attributes = {};
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) out[key] = value as Attributes[string];
  }
  return out;
}

function spanContextOf(ref: SpanRef): SpanContext {
  return { traceId: ref.traceId, spanId: ref.spanId, traceFlags: ref.traceFlags ?? 1, isRemote: true };
}

/** The context a span is made in: the parent's (a span of ours, or any span by its ref), else the active one. */
function contextFor(parent: TraceSpan | undefined): Context {
  const active = context.active();
  if (!parent) return active;
  if (parent instanceof OtelTraceSpan) return trace.setSpan(active, parent.span);
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
      const links: Link[] = [];
      for (const ref of start.links ?? []) {
        const linked = spanContextOf(ref);
        if (isSpanContextValid(linked)) links.push({ context: linked });
      }
      const span = tracer.startSpan(
        name,
        {
          kind: start.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL,
          ...(start.attributes ? { attributes: defined(start.attributes) } : {}),
          ...(links.length > 0 ? { links } : {}),
        },
        contextFor(start.parent),
      );
      return new OtelTraceSpan(span);
    },
    runInSpan<T>(span: TraceSpan, fn: () => T): T {
      const ctx = span instanceof OtelTraceSpan ? trace.setSpan(context.active(), span.span) : contextFor(span);
      return context.with(ctx, fn);
    },
  };
}
