export type { SpanRef, SpanStartOptions, TraceAttributes, TraceAttributeValue, TraceError, TraceExporter, TraceParent, TraceSpan, TraceSpanKind } from '@lousho/protocol';
export { withSpan, noopTraceExporter, traceErrorOf } from './with-span.js';
export { GEN_AI, LOUSHO_ATTR } from './gen-ai.js';
