import { ERROR_CODES, type AgentStreamEvent, type HandlerAgent as ClientAgent, type PendingApprovalInfo, type SerializedError } from '@lousho/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { askPerson, canAskPerson, type PersonDecision } from './ask-person.js';
import { progressMessage, type ProgressSink } from './progress.js';
import { errorResult, shortReason, textResult, thrownResult } from './results.js';
import type { ServeMcpSettings } from './options.js';

/** What one tools/call of the agent's tool needs. */
export interface AgentCall {
  agent: ClientAgent;
  server: Server;
  settings: ServeMcpSettings;
  prompt: string;
  sessionId: string;
  requestId: RequestId;
  signal: AbortSignal;
  progress: ProgressSink;
}

/** How a leg (a run, or its continuation after a decision) ended. */
type LegEnd =
  | { kind: 'done'; finishReason: string; text: string; detail?: string }
  | { kind: 'paused'; approval: PendingApprovalInfo | undefined }
  | { kind: 'failed'; error: SerializedError };

/**
 * Runs the agent on the prompt and answers with its final text. A pause for a person is asked
 * through elicitation and the run goes on; a client without elicitation gets the approval refused
 * (so the session is not left waiting) and an error result with `LOUSHO_MCP_ELICITATION_UNSUPPORTED`.
 */
export async function callAgent(call: AgentCall): Promise<CallToolResult> {
  const { agent, server, settings, signal } = call;
  // A call that waited behind another one of its session may have been cancelled meanwhile.
  if (signal.aborted) return errorResult(ERROR_CODES.LOUSHO_TOOL_CANCELLED, 'The call was cancelled before the run started.');
  try {
    let events: AsyncIterable<AgentStreamEvent> = agent.stream(call.prompt, { sessionId: call.sessionId, signal });
    for (let asked = 0; ; asked++) {
      const end = await readLeg(events, call.progress);
      if (end.kind === 'failed') return errorResult(end.error.code, end.error.message);
      if (end.kind === 'done') return doneResult(end);
      // The pause's own event names it; a leg that did not stream it (a resumed one) is looked up.
      const approval = end.approval ?? (await agent.approvals.list({ sessionId: call.sessionId }))[0];
      if (!approval) return errorResult(ERROR_CODES.LOUSHO_INTERNAL, 'The run paused for a person, and no pending approval was found.');
      if (!canAskPerson(server)) {
        await decide(agent, approval, { kind: 'tool', approved: false, note: 'The MCP client cannot ask a person (no elicitation).' }, signal, true);
        return errorResult(
          ERROR_CODES.LOUSHO_MCP_ELICITATION_UNSUPPORTED,
          `The agent needs a person to ${approval.kind === 'question' ? 'answer a question' : `approve ${approval.displayName}`}, and this MCP client cannot ask one (it declared no elicitation support). The request was refused.`,
        );
      }
      if (asked >= settings.maxElicitations) {
        await decide(agent, approval, { kind: 'tool', approved: false, note: 'Too many approvals in one MCP call.' }, signal, true);
        return errorResult(ERROR_CODES.LOUSHO_LIMIT_EXCEEDED, `The agent asked for a person more than ${settings.maxElicitations} times in one call (maxElicitations); the call was stopped.`);
      }
      let decision: PersonDecision;
      try {
        decision = await askPerson(server, approval, { relatedRequestId: call.requestId, signal, timeoutMs: settings.elicitationTimeoutMs });
      } catch (error) {
        // No answer (a timeout, the client's error, the call cancelled): rejected, so the session does not stay waiting.
        await decide(agent, approval, { kind: 'tool', approved: false, note: 'No answer came through MCP elicitation.' }, new AbortController().signal, true);
        return errorResult(ERROR_CODES.LOUSHO_MCP_CALL_FAILED, `The client did not answer the request for a person (${shortReason(error)}); the approval was rejected.`);
      }
      events = await decide(agent, approval, decision, signal, false);
    }
  } catch (error) {
    return thrownResult(error, settings.onError);
  }
}

/** Reads one leg to its end, sending progress on the way. */
async function readLeg(events: AsyncIterable<AgentStreamEvent>, progress: ProgressSink): Promise<LegEnd> {
  const wrote = new Set<string>();
  const approvals = new Map<string, PendingApprovalInfo>();
  let text = '';
  for await (const event of events) {
    const message = progressMessage(event, wrote);
    if (message !== undefined) progress(message);
    if (event.type === 'approval.requested') approvals.set(event.approval.approvalId, event.approval);
    if (event.subagent) continue;
    if (event.type === 'step.start') text = '';
    else if (event.type === 'text.delta') text += event.delta;
    else if (event.type === 'error') return { kind: 'failed', error: event.error };
    else if (event.type === 'run.done') {
      if (event.finishReason === 'awaiting-approval') {
        return { kind: 'paused', approval: event.approvalId !== undefined ? approvals.get(event.approvalId) : [...approvals.values()].at(-1) };
      }
      return { kind: 'done', finishReason: event.finishReason, text: event.text ?? text, ...detailOf(event) };
    }
  }
  return { kind: 'failed', error: { code: ERROR_CODES.LOUSHO_INTERNAL, message: 'The agent stopped without finishing its run.' } };
}

function detailOf(event: Extract<AgentStreamEvent, { type: 'run.done' }>): { detail?: string } {
  if (event.guardrail) return { detail: `blocked by the guardrail ${event.guardrail.name}` };
  if (event.outputError) return { detail: event.outputError.message };
  if (event.budget) return { detail: 'a budget ran out' };
  return {};
}

/** The final text; a run that could not finish its work is an error result naming why. */
function doneResult(end: Extract<LegEnd, { kind: 'done' }>): CallToolResult {
  switch (end.finishReason) {
    case 'aborted':
      return errorResult(ERROR_CODES.LOUSHO_TOOL_CANCELLED, 'The run was stopped.');
    case 'guardrail':
    case 'output-invalid':
    case 'budget-exceeded':
    case 'max-steps':
      return errorResult(ERROR_CODES.LOUSHO_MCP_RUN_INCOMPLETE, `The run ended early (${end.finishReason}${end.detail ? `: ${end.detail}` : ''}).${end.text ? ` Its last text: ${end.text}` : ''}`);
    default:
      return textResult(end.text);
  }
}

/** Sends the decision and returns the continuation (drained at once when `drain`: nobody reads it). */
async function decide(agent: ClientAgent, approval: PendingApprovalInfo, decision: PersonDecision, signal: AbortSignal, drain: boolean): Promise<AsyncIterable<AgentStreamEvent>> {
  const events =
    decision.kind === 'question'
      ? await agent.approvals.answerStream({ id: approval.approvalId, answer: decision.answer }, { signal })
      : approval.kind === 'question'
        ? await agent.approvals.answerStream({ id: approval.approvalId, answer: decision.note ?? 'No answer.' }, { signal })
        : await agent.approvals.resolveStream({ id: approval.approvalId, approved: decision.approved, ...(decision.note !== undefined ? { note: decision.note } : {}) }, { signal });
  if (drain) for await (const event of events) void event;
  return events;
}
