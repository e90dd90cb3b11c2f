// Moved to contracts/tracing.ts (issue 46: contracts at the bottom); re-exported here until every importer takes it from there.
export type { TraceAttributeValue, TraceAttributes, SpanRef, TraceError, TraceSpan, TraceSpanKind, SpanStartOptions, TraceExporter, TraceParent } from '../contracts/tracing.js';
