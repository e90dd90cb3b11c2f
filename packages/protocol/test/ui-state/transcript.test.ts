import { describe, expect, it } from 'vitest';
import type { PendingApprovalInfo, UnsequencedStreamEvent } from '../../src/contracts/events.js';
import type { Message } from '../../src/messages.js';
import { reduceAgentEvents, stateFromTranscript } from '../../src/ui-state/index.js';
import { numbered, reduceAll, toolParts, usage } from './helpers.js';

const stepUsage = { step: 1, model: 'm', usage: usage(1, 1), estimated: false };

/** The live events of a turn and the transcript the agent stores for it. */
const liveTurn: UnsequencedStreamEvent[] = [
  { type: 'run.start', model: 'm' },
  { type: 'user.message', message: { role: 'user', content: 'Weather in Paris?' } },
  { type: 'step.start', step: 1 },
  { type: 'text.delta', step: 1, delta: 'Let me ' },
  { type: 'text.delta', step: 1, delta: 'check.' },
  { type: 'step.done', step: 1, finishReason: 'tool_calls', usage: usage(1, 1), stepUsage },
  { type: 'tool.call', step: 1, toolCallId: 'call_1', toolName: 'get_weather', displayName: 'Weather', args: { city: 'Paris' } },
  { type: 'tool.done', toolCallId: 'call_1', toolName: 'get_weather', result: { tempC: 21 } },
  { type: 'step.start', step: 2 },
  { type: 'text.delta', step: 2, delta: 'It is 21°C ☀️.' },
  { type: 'step.done', step: 2, finishReason: 'stop', usage: usage(2, 2), stepUsage },
  { type: 'run.done', finishReason: 'stop', usage: usage(2, 2), text: 'It is 21°C ☀️.', steps: 2 },
];

const storedTurn: Message[] = [
  { role: 'system', content: 'You are helpful.' },
  { role: 'user', content: 'Weather in Paris?' },
  { role: 'assistant', content: 'Let me check.', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
  { role: 'tool', toolCallId: 'call_1', toolName: 'get_weather', content: '{"tempC":21}' },
  { role: 'assistant', content: 'It is 21°C ☀️.' },
];

const displayName = (name: string) => (name === 'get_weather' ? 'Weather' : name);

describe('stateFromTranscript', () => {
  it('rebuilds the same messages the live events produced', () => {
    const live = reduceAll(numbered(liveTurn));
    const restored = stateFromTranscript(storedTurn, null, { displayName, lastSeq: live.lastSeq });
    expect(restored.messages).toEqual(live.messages);
    expect(restored).toMatchObject({ status: 'idle', pendingApproval: null, lastSeq: live.lastSeq });
  });

  it('restores a paused session so the continuation goes on exactly as it would have live', () => {
    const approval: PendingApprovalInfo = { approvalId: 'appr_1', toolCallId: 'call_1', toolName: 'get_weather', displayName: 'Weather', args: { city: 'Paris' }, kind: 'tool' };
    const pausedLive: UnsequencedStreamEvent[] = [
      ...liveTurn.slice(0, 7),
      { type: 'approval.requested', approval },
      { type: 'run.done', finishReason: 'awaiting-approval', usage: usage(1, 1), text: 'Let me check.', steps: 1, approvalId: 'appr_1' },
    ];
    const rest: UnsequencedStreamEvent[] = [
      { type: 'run.start', model: 'm', continuation: true },
      { type: 'approval.resolved', approvalId: 'appr_1', toolCallId: 'call_1', approved: true },
      ...liveTurn.slice(7),
    ];
    const all = numbered([...pausedLive, ...rest]);
    const pausedSeq = pausedLive.length;

    const restored = stateFromTranscript(storedTurn.slice(0, 3), approval, { displayName, lastSeq: pausedSeq });
    expect(restored.status).toBe('awaiting-approval');
    expect(restored.pendingApproval).toEqual(approval);
    expect(toolParts(restored)[0]).toMatchObject({ state: 'awaiting-approval', approval: { approvalId: 'appr_1', kind: 'tool' } });

    // A resumed stream replays from the pause (an overlap included) and ends where live did.
    const finished = reduceAll(all.slice(pausedSeq - 2), restored);
    expect(finished.messages).toEqual(reduceAll(all).messages);
    expect(finished.status).toBe('idle');
  });

  it('keeps events up to lastSeq ignored', () => {
    const restored = stateFromTranscript(storedTurn, null, { lastSeq: 12 });
    const replay = { type: 'text.delta', seq: 12, runId: 'r', step: 2, delta: 'again' } as const;
    expect(reduceAgentEvents(restored, replay)).toBe(restored);
  });

  it('reads tool errors by kind, plain-text errors and non-JSON results', () => {
    const state = stateFromTranscript([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'a', name: 'send', arguments: '{}' },
          { id: 'b', name: 'send', arguments: 'not json' },
          { id: 'c', name: 'echo', arguments: '{"x":1}' },
        ],
      },
      { role: 'tool', toolCallId: 'a', toolName: 'send', isError: true, content: JSON.stringify({ error: 'ToolRejectedError', toolName: 'send', message: 'Rejected', kind: 'rejected' }) },
      { role: 'tool', toolCallId: 'b', toolName: 'send', isError: true, content: 'it broke' },
      { role: 'tool', toolCallId: 'c', toolName: 'echo', content: 'plain words' },
    ]);
    expect(state.messages).toHaveLength(2);
    expect(toolParts(state)).toEqual([
      { type: 'tool', toolCallId: 'a', toolName: 'send', displayName: 'send', state: 'rejected', args: {}, error: { error: 'ToolRejectedError', toolName: 'send', message: 'Rejected', kind: 'rejected' } },
      { type: 'tool', toolCallId: 'b', toolName: 'send', displayName: 'send', state: 'error', argsText: 'not json', error: { error: 'ToolError', toolName: 'send', message: 'it broke', kind: 'execution' } },
      { type: 'tool', toolCallId: 'c', toolName: 'echo', displayName: 'echo', state: 'done', args: { x: 1 }, result: 'plain words' },
    ]);
    // Arguments that are not JSON: their text, and no `args` key at all (`toEqual` would not see one set to undefined).
    expect(Object.keys(toolParts(state)[1]!)).not.toContain('args');
  });

  it('adds the pending call when the transcript does not have it yet, and honours a given status', () => {
    const pending: PendingApprovalInfo = { approvalId: 'q', toolCallId: 'ask', toolName: 'ask_question', displayName: 'Ask', args: {}, kind: 'question', question: 'Which one?' };
    const state = stateFromTranscript([{ role: 'user', content: 'hi' }], pending);
    expect(state.messages[1]).toEqual({
      id: 'm1',
      role: 'assistant',
      parts: [{ type: 'tool', toolCallId: 'ask', toolName: 'ask_question', displayName: 'Ask', state: 'awaiting-approval', args: {}, approval: { approvalId: 'q', kind: 'question', question: 'Which one?' } }],
    });
    expect(stateFromTranscript([], null, { status: 'streaming' }).status).toBe('streaming');
  });
});
