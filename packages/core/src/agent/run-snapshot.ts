// Moved to contracts/run-snapshot.ts (issue 46: contracts at the bottom); re-exported here until every importer takes it from there.
export type { PausedBatch, SettledCall, ChildSnapshot, RunSnapshot } from '../contracts/run-snapshot.js';
