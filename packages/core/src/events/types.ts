// Moved to contracts/events.ts (issue 46: contracts at the bottom); re-exported here until every importer takes it from there.
export type { FinishReason, ApprovalKind, PendingApprovalInfo, AgentStreamEvent, NestedStreamEvent, AgentStreamEventType, UnsequencedStreamEvent, AgentListenerEvent, SerializedError } from '../contracts/events.js';
