export { createCompactionHook, type CompactionHook } from './hook.js';
export { compactMessages, type CompactMessagesOptions } from './compact-messages.js';
export { pinMessage } from './pin.js';
export { pruneStrategy, prunedMarker } from './prune.js';
export { summarizeStrategy, twoPhaseStrategy, SUMMARY_HEADING, type SummarizeStrategyOptions } from './summarize.js';
export type { CompactionContext, CompactionInfo, CompactionOptions, CompactionResult, CompactionStrategy } from './types.js';
