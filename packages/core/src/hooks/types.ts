// Moved to contracts/hooks.ts (issue 46: contracts at the bottom); re-exported here until every importer takes it from there.
export type { ToolCallHookContext, ToolCallHookResult, PreToolCallOutcome, PostToolCallOutcome, GenerateHookContext, HookContext, AgentHook, PermissionRule, PermissionDecisionRecord } from '../contracts/hooks.js';
