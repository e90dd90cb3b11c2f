// Moved to contracts/usage.ts (issue 46: contracts at the bottom); re-exported here until every importer takes it from there.
export type { TokenCounts, ModelUsage, DelegatedUsage, RunUsage, StepUsage } from '../contracts/usage.js';
