export { createAgent, SessionAwaitingApprovalError } from './create-agent.js';
export type { Agent, AgentApprovals, AgentSession, AgentSessions, ResumeOptions, SessionState, SessionListener } from '@lousho/protocol';
export { AgentExecutor, resumeAfterApproval } from './executor.js';
export type { ExecuteOptions, ResumeAfterApprovalOptions } from './execute-options.js';
export { AgentBuilder, AgentType } from './builder.js';
export type { AgentConfig } from './agent-config.js';
export { InMemoryApprovalStore } from '../stores/approval-store.js';
export type { ApprovalRecord, ApprovalStatus, ApprovalStore, SessionStatus } from '@lousho/protocol';
export { ConfigResolverError } from './run-config.js';
export type { RunSnapshot, PausedBatch, ChildSnapshot, SettledCall } from '@lousho/protocol';
export type { HydratedSession, AppendFence } from './session-runtime.js';
// The per-session event log and status that createAgent() keeps; flows (`@lousho/flows`) serve their runs with it too.
export { SessionRuntime } from './session-runtime.js';
export { EventQueue } from './event-queue.js';
export { endInterruptedLeg, lastLegOpen, type LegClosing } from './interrupted-leg.js';
export type * from './types.js';
export type { PerRun, RunConfigContext, ToolCallRecord } from '@lousho/protocol';
export type { ApprovalRequest, RunOptions, ExecutionResult, AgentRun } from '@lousho/protocol';
export type { BudgetExceeded, RunLimits } from '@lousho/protocol';
export type {
  AgentMcpOptions,
  McpConnectOptions,
  McpConnector,
  McpHttpServerConfig,
  McpLogger,
  McpServerConfig,
  McpServers,
  McpStdioServerConfig,
  McpToolSource,
  SkippedMcpTool,
} from './mcp-servers.js';
// The stores are part of createAgent()'s `store` option, so they come with the agent API.
export * from '../stores/index.js';
export { createDelegateTool } from './subagents/delegate-tool.js';
export type { DelegateTool, DelegateToolOptions } from './subagents/delegate-tool.js';
export { SubagentDepthError } from './subagents/depth-error.js';
export { SubagentBudgetError, SubagentOutputError } from './subagents/run-child.js';
export type { SubagentsOption } from './subagents/catalog.js';
export type { SubagentCatalog } from './subagents-option.js';
export type { SubagentInfo, SubagentRef } from '@lousho/protocol';
