import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createOtelTraceExporter } from '@lousho/otel';
import type { TraceExporter } from '@lousho/core';

/** An OpenTelemetry SDK tracer writing to memory, and Lousho's exporter on it. */
export function otelHarness(options: { captureContent?: boolean } = {}): {
  exporter: TraceExporter;
  spans(): ReadableSpan[];
  named(name: string): ReadableSpan[];
  one(name: string): ReadableSpan;
  parentOf(span: ReadableSpan): ReadableSpan | undefined;
} {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
  const exporter = createOtelTraceExporter({ tracer: provider.getTracer('test'), ...options });
  const spans = () => memory.getFinishedSpans();
  const named = (name: string) => spans().filter((s) => s.name === name);
  return {
    exporter,
    spans,
    named,
    one(name) {
      const found = named(name);
      if (found.length !== 1) throw new Error(`expected one span '${name}', found ${found.length}: ${spans().map((s) => s.name).join(', ')}`);
      return found[0]!;
    },
    parentOf(span) {
      const parentId = span.parentSpanContext?.spanId;
      return parentId ? spans().find((s) => s.spanContext().spanId === parentId) : undefined;
    },
  };
}
