import type { AgentStreamEvent, UnsequencedStreamEvent } from '../../src/contracts/events.js';
import { initialAgentUIState, reduceAgentEvents, type AgentUIState, type UIToolPart } from '../../src/ui-state/index.js';
import type { RunUsage } from '../../src/contracts/usage.js';

export function usage(inputTokens: number, outputTokens: number): RunUsage {
  return {
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    estimated: false,
    modelCalls: 1,
    byModel: {},
    promptTokens: inputTokens,
    completionTokens: outputTokens,
  };
}

/** Numbers events like a session does, continuing from `start`. */
export function numbered(events: UnsequencedStreamEvent[], runId = 'run_1', start = 0): AgentStreamEvent[] {
  return events.map((event, i) => ({ ...event, seq: start + i + 1, runId, sessionId: 'sess_1' }) as AgentStreamEvent);
}

export function reduceAll(events: readonly AgentStreamEvent[], state?: AgentUIState): AgentUIState {
  let current = state ?? initialAgentUIState();
  for (const event of events) current = reduceAgentEvents(current, event);
  return current;
}

export function toolParts(state: AgentUIState): UIToolPart[] {
  return state.messages.flatMap((message) => message.parts.filter((part): part is UIToolPart => part.type === 'tool'));
}

/** The events of a turn: send, text, a tool call that needs approval, pause. */
export function pausedTurn(): UnsequencedStreamEvent[] {
  return [
    { type: 'run.start', model: 'mock-model' },
    { type: 'user.message', message: { role: 'user', content: 'Email Bob the report' } },
    { type: 'step.start', step: 1 },
    { type: 'text.delta', step: 1, delta: 'Sure, ' },
    { type: 'text.delta', step: 1, delta: "I'll send it." },
    { type: 'tool.input.start', step: 1, toolCallId: 'call_1', toolName: 'send_email', displayName: 'Send email' },
    { type: 'tool.input.delta', toolCallId: 'call_1', delta: '{"to":"bob@' },
    { type: 'tool.input.delta', toolCallId: 'call_1', delta: 'example.com"}' },
    { type: 'step.done', step: 1, finishReason: 'tool_calls', usage: usage(10, 5), stepUsage: { step: 1, model: 'mock-model', usage: usage(10, 5), estimated: false } },
    { type: 'tool.call', step: 1, toolCallId: 'call_1', toolName: 'send_email', displayName: 'Send email', args: { to: 'bob@example.com' } },
    {
      type: 'approval.requested',
      approval: { approvalId: 'appr_1', toolCallId: 'call_1', toolName: 'send_email', displayName: 'Send email', args: { to: 'bob@example.com' }, kind: 'tool' },
    },
    { type: 'run.done', finishReason: 'awaiting-approval', usage: usage(10, 5), text: "Sure, I'll send it.", steps: 1, approvalId: 'appr_1' },
  ];
}

/** The continuation after the approval of `pausedTurn`. */
export function continuation(approved: boolean): UnsequencedStreamEvent[] {
  return [
    { type: 'run.start', model: 'mock-model', continuation: true },
    { type: 'approval.resolved', approvalId: 'appr_1', toolCallId: 'call_1', approved, ...(approved ? {} : { note: 'not now' }) },
    approved
      ? { type: 'tool.done', toolCallId: 'call_1', toolName: 'send_email', result: { sent: true }, artifacts: [{ type: 'receipt', data: { id: 7 } }] }
      : { type: 'tool.error', toolCallId: 'call_1', toolName: 'send_email', error: { error: 'ToolRejectedError', toolName: 'send_email', message: 'Rejected: not now', kind: 'rejected', note: 'not now' } },
    { type: 'step.start', step: 2 },
    { type: 'text.delta', step: 2, delta: approved ? 'Sent!' : 'OK, I did not send it.' },
    { type: 'step.done', step: 2, finishReason: 'stop', usage: usage(30, 9), stepUsage: { step: 2, model: 'mock-model', usage: usage(20, 4), estimated: false } },
    { type: 'run.done', finishReason: 'stop', usage: usage(30, 9), text: approved ? 'Sent!' : 'OK, I did not send it.', steps: 2 },
  ];
}
