export { HookRegistry } from './registry.js';
export type { ToolCallHookContext, ToolCallHookResult, PreToolCallOutcome, PostToolCallOutcome, GenerateHookContext, HookContext, AgentHook, PermissionRule, PermissionDecisionRecord } from '@lousho/protocol';
