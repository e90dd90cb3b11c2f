import { createOtelTraceExporter } from '@lousho/otel';
import type { TraceExporter } from '@lousho/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** The OpenTelemetry SDK's in-memory exporter behind Lousho's exporter, and ways to read what it got. */
export function otelHarness(options: { captureContent?: boolean } = {}) {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
  const exporter: TraceExporter = createOtelTraceExporter({ tracer: provider.getTracer('flows-test'), ...options });
  const spans = (): ReadableSpan[] => memory.getFinishedSpans();
  const named = (name: string): ReadableSpan[] => spans().filter((s) => s.name === name);
  const one = (name: string): ReadableSpan => {
    const found = named(name);
    if (found.length !== 1) throw new Error(`expected one span '${name}', found ${found.length}: ${spans().map((s) => s.name).join(', ')}`);
    return found[0]!;
  };
  /** The name of a span's parent (undefined for a root, or a parent not exported). */
  const parentName = (span: ReadableSpan): string | undefined => {
    const id = span.parentSpanContext?.spanId;
    return id ? spans().find((s) => s.spanContext().spanId === id)?.name : undefined;
  };
  return { exporter, spans, named, one, parentName };
}
