export type { TokenCounts, ModelUsage, DelegatedUsage, RunUsage, StepUsage } from '@lousho/protocol';
export { UsageTracker, emptyUsage, type RecordStepInput, type SavedRunUsage } from './tracker.js';
export { formatUsage, type FormattableUsage } from './format.js';
