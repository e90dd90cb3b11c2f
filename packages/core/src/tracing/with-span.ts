import { SDKError } from '@lousho/protocol';
import type { SpanStartOptions, TraceError, TraceExporter, TraceParent, TraceSpan } from '@lousho/protocol';

const NOOP_SPAN: TraceSpan = Object.freeze({
  noop: true,
  ref: Object.freeze({ traceId: '00000000000000000000000000000000', spanId: '0000000000000000', traceFlags: 0 }),
  setAttributes() {},
  fail() {},
  end() {},
});

/** An exporter that records nothing: what `withSpan()` uses when it is given none. */
export const noopTraceExporter: TraceExporter = Object.freeze({
  startSpan: () => NOOP_SPAN,
});

const MAX_ERROR_MESSAGE = 1000;

/** How a thrown value is recorded on a span: its code or class as `error.type`, its message (no stack). */
export function traceErrorOf(error: unknown): TraceError {
  if (SDKError.is(error)) return { type: error.code, message: cap(error.message) };
  if (error instanceof Error) return { type: error.name || 'Error', message: cap(error.message) };
  return { type: '_OTHER', message: cap(String(error)) };
}

function cap(text: string): string {
  return text.length > MAX_ERROR_MESSAGE ? `${text.slice(0, MAX_ERROR_MESSAGE)}…` : text;
}

function isParent(value: TraceExporter | TraceParent): value is TraceParent {
  return typeof (value as TraceParent).span === 'object' && typeof (value as TraceParent).exporter === 'object';
}

/**
 * Runs `fn` inside a span named `name` and ends it when `fn` settles; a throw marks the span failed
 * and is rethrown. `tracing` is an exporter (the span is a root, or a child of the exporter's current
 * span), a `TraceParent` such as a tool's `ctx.trace` (the span is its child), or undefined (nothing
 * is recorded, `fn` still runs). `fn` gets the new span as a `TraceParent`, to set attributes on and
 * to pass to nested work: `agent.send(input, { traceParent: trace })` or another `withSpan(trace, ...)`.
 */
export async function withSpan<T>(
  tracing: TraceExporter | TraceParent | undefined,
  name: string,
  fn: (trace: TraceParent) => T | Promise<T>,
  options: SpanStartOptions = {},
): Promise<T> {
  const exporter = tracing === undefined ? noopTraceExporter : isParent(tracing) ? tracing.exporter : tracing;
  const parent = options.parent ?? (tracing !== undefined && isParent(tracing) ? tracing.span : undefined);
  const span = exporter.startSpan(name, { ...options, ...(parent ? { parent } : {}) });
  const trace: TraceParent = { exporter, span };
  try {
    const run = () => fn(trace);
    return await (exporter.runInSpan ? exporter.runInSpan(span, run) : run());
  } catch (error) {
    span.fail(traceErrorOf(error));
    throw error;
  } finally {
    span.end();
  }
}
