import {
  ERROR_CODES,
  SDKError,
  buildToolRunContext,
  resolveToolDescriptor,
  toolErrorResult,
  validateToolArguments,
  type PendingApprovalInfo,
  type ResolvedTool,
  type ToolDescriptor,
} from '@lousho/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, RequestId, Tool } from '@modelcontextprotocol/sdk/types.js';
import { askPerson, canAskPerson } from './ask-person.js';
import type { ProgressSink } from './progress.js';
import { errorResult, shortReason, valueResult } from './results.js';
import type { ServeMcpSettings } from './options.js';

/**
 * The tools served next to the agent's, resolved once. A tool that needs a sandbox, or that is a
 * question for a person (`ask_question`: the MCP client is the one asking), cannot be served on its
 * own: a config error, never a tool that silently does something else.
 */
export function resolveServedTools(tools: ServeMcpSettings['tools'], agentToolName: string): Map<string, ResolvedTool> {
  const resolved = new Map<string, ResolvedTool>();
  for (const [name, descriptor] of tools) {
    const tool = resolveToolDescriptor(descriptor as ToolDescriptor, name);
    if (tool.requiresSandbox) throw config(`tool '${name}' needs a sandbox (requiresSandbox), which serveMcp() has not got; leave it out of tools.`);
    if (tool.approvalKind === 'question' || !tool.execute) throw config(`tool '${name}' asks a person a question; it only makes sense inside the agent's runs. Leave it out of tools.`);
    if (name === agentToolName || resolved.has(name)) throw new SDKError(ERROR_CODES.LOUSHO_DUPLICATE_TOOL, `serveMcp(): two tools are named '${name}'.`, { hint: 'Rename one (toolName for the agent\'s tool).' });
    resolved.set(name, tool);
  }
  return resolved;
}

/** A served tool as `tools/list` lists it. */
export function listedTool(tool: ResolvedTool): Tool {
  return { name: tool.name, title: tool.displayName, description: tool.description, inputSchema: tool.jsonSchema as Tool['inputSchema'] };
}

/** Runs a served tool: arguments checked, `needsApproval` asked through elicitation, the result bounded. */
export async function callServedTool(
  tool: ResolvedTool,
  args: unknown,
  call: { server: Server; settings: ServeMcpSettings; requestId: RequestId; signal: AbortSignal; progress: ProgressSink; sessionId: string },
): Promise<CallToolResult> {
  const checked = await validateToolArguments(tool, args ?? {}, tool.name);
  if (!checked.ok) return errorResult(ERROR_CODES.LOUSHO_INVALID_TOOL_ARGUMENTS, checked.error.message);
  const ctx = buildToolRunContext({ abortSignal: call.signal, sessionId: call.sessionId, reportProgress: (progress) => call.progress(`${tool.name}: ${shown(progress)}`) });
  try {
    const needsApproval = typeof tool.needsApproval === 'function' ? await tool.needsApproval(checked.args, ctx) : tool.needsApproval === true;
    if (needsApproval) {
      if (!canAskPerson(call.server)) {
        return errorResult(ERROR_CODES.LOUSHO_MCP_ELICITATION_UNSUPPORTED, `${tool.displayName} needs a person's approval, and this MCP client cannot ask one (it declared no elicitation support). The call was refused.`);
      }
      const approval: PendingApprovalInfo = { approvalId: ctx.toolCallId, toolCallId: ctx.toolCallId, toolName: tool.name, displayName: tool.displayName, args: checked.args, kind: 'tool' };
      const decision = await askPerson(call.server, approval, { relatedRequestId: call.requestId, signal: call.signal, timeoutMs: call.settings.elicitationTimeoutMs }).catch((error: unknown) => error as Error);
      if (decision instanceof Error) {
        return errorResult(ERROR_CODES.LOUSHO_MCP_CALL_FAILED, `The client did not answer the request for a person (${shortReason(decision)}); ${tool.displayName} did not run.`);
      }
      if (decision.kind === 'tool' && !decision.approved) {
        return errorResult(ERROR_CODES.LOUSHO_TOOL_REJECTED, `The person rejected the call to ${tool.displayName}${decision.note ? `: ${decision.note}` : '.'}`);
      }
    }
    return valueResult(await tool.execute!(checked.args, ctx), call.settings.maxResultBytes);
  } catch (error) {
    const result = toolErrorResult({ toolName: tool.name, error });
    return errorResult(SDKError.is(error) ? error.code : ERROR_CODES.LOUSHO_INTERNAL, result.message);
  }
}

function shown(progress: unknown): string {
  if (typeof progress === 'string') return progress;
  try {
    return JSON.stringify(progress) ?? 'working';
  } catch {
    return 'working';
  }
}

function config(message: string): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `serveMcp(): ${message}`, { hint: 'Serve only tools that run on their own.' });
}
