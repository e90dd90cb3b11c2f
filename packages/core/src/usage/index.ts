export type * from './types.js';
export { UsageTracker, emptyUsage, type RecordStepInput, type SavedRunUsage } from './tracker.js';
export { formatUsage, type FormattableUsage } from './format.js';
