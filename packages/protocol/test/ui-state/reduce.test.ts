import { describe, expect, it } from 'vitest';
import type { AgentStreamEvent } from '../../src/contracts/events.js';
import { initialAgentUIState, reduceAgentEvents, type AgentUIState } from '../../src/ui-state/index.js';
import { continuation, numbered, pausedTurn, reduceAll, toolParts, usage } from './helpers.js';

describe('reduceAgentEvents: a turn with an approval', () => {
  const paused = numbered(pausedTurn());

  it('starts from the initial state', () => {
    const initial = initialAgentUIState();
    expect(initial).toEqual({ messages: [], status: 'idle', pendingApproval: null, error: null, usage: null, finishReason: null, guardrail: null, lastSeq: 0, runId: undefined });
    expect(reduceAgentEvents(undefined, paused[0]!)).toMatchObject({ status: 'submitted', runId: 'run_1', lastSeq: 1 });
  });

  it('shows the user message, then streams the reply, then the tool call and the pause', () => {
    const afterUser = reduceAll(paused.slice(0, 2));
    expect(afterUser.status).toBe('submitted');
    expect(afterUser.messages).toEqual([{ id: 'm0', role: 'user', parts: [{ type: 'text', text: 'Email Bob the report' }] }]);

    const afterText = reduceAll(paused.slice(0, 5));
    expect(afterText.status).toBe('streaming');
    expect(afterText.messages[1]).toEqual({ id: 'm1', role: 'assistant', parts: [{ type: 'text', text: "Sure, I'll send it." }] });

    const argsStreaming = reduceAll(paused.slice(0, 7));
    expect(toolParts(argsStreaming)).toEqual([
      { type: 'tool', toolCallId: 'call_1', toolName: 'send_email', displayName: 'Send email', state: 'input-streaming', argsText: '{"to":"bob@' },
    ]);

    const running = reduceAll(paused.slice(0, 10));
    expect(running.usage).toEqual(usage(10, 5));
    expect(toolParts(running)[0]).toMatchObject({ state: 'running', args: { to: 'bob@example.com' }, argsText: '{"to":"bob@example.com"}' });

    const waiting = reduceAll(paused);
    expect(waiting.status).toBe('awaiting-approval');
    expect(waiting.finishReason).toBe('awaiting-approval');
    expect(waiting.pendingApproval).toMatchObject({ approvalId: 'appr_1', toolCallId: 'call_1' });
    expect(toolParts(waiting)[0]).toMatchObject({ state: 'awaiting-approval', approval: { approvalId: 'appr_1', kind: 'tool' } });
    expect(waiting.messages).toHaveLength(2);
  });

  it('an approved continuation goes on in the same assistant message', () => {
    const events = [...paused, ...numbered(continuation(true), 'run_1', paused.length)];
    const resumed = reduceAll(events.slice(0, paused.length + 2));
    expect(resumed.status).toBe('submitted');
    expect(resumed.pendingApproval).toBeNull();
    expect(toolParts(resumed)[0]).toMatchObject({ state: 'running', approval: { approvalId: 'appr_1', approved: true } });

    const done = reduceAll(events);
    expect(done.status).toBe('idle');
    expect(done.finishReason).toBe('stop');
    expect(done.usage).toEqual(usage(30, 9));
    expect(done.messages).toHaveLength(2);
    expect(done.messages[1]!.parts).toEqual([
      { type: 'text', text: "Sure, I'll send it." },
      {
        type: 'tool',
        toolCallId: 'call_1',
        toolName: 'send_email',
        displayName: 'Send email',
        state: 'done',
        args: { to: 'bob@example.com' },
        argsText: '{"to":"bob@example.com"}',
        approval: { approvalId: 'appr_1', kind: 'tool', approved: true },
        result: { sent: true },
        artifacts: [{ type: 'receipt', data: { id: 7 } }],
      },
      { type: 'text', text: 'Sent!' },
    ]);
  });

  it('a rejection leaves the part rejected, with the error and the note', () => {
    const events = [...paused, ...numbered(continuation(false), 'run_1', paused.length)];
    expect(toolParts(reduceAll(events.slice(0, paused.length + 2)))[0]).toMatchObject({ state: 'rejected', approval: { approved: false, note: 'not now' } });
    const done = reduceAll(events);
    expect(toolParts(done)[0]).toMatchObject({ state: 'rejected', error: { kind: 'rejected', note: 'not now' } });
    expect(done.status).toBe('idle');
  });

  it('a question is answered through approval.resolved', () => {
    const events = numbered([
      { type: 'run.start', model: 'm' },
      { type: 'tool.call', step: 1, toolCallId: 'q1', toolName: 'ask_question', displayName: 'Ask', args: { question: 'Which city?' } },
      { type: 'approval.requested', approval: { approvalId: 'a1', toolCallId: 'q1', toolName: 'ask_question', displayName: 'Ask', args: {}, kind: 'question', question: 'Which city?' } },
      { type: 'run.done', finishReason: 'awaiting-approval', usage: usage(1, 1), text: '', steps: 1, approvalId: 'a1' },
      { type: 'approval.resolved', approvalId: 'a1', toolCallId: 'q1', approved: true, answer: 'Paris' },
    ]);
    const asked = reduceAll(events.slice(0, 4));
    expect(toolParts(asked)[0]).toMatchObject({ state: 'awaiting-approval', approval: { kind: 'question', question: 'Which city?' } });
    const answered = reduceAll(events);
    expect(toolParts(answered)[0]).toMatchObject({ state: 'running', approval: { kind: 'question', answer: 'Paris', approved: true } });
    expect(answered.status).toBe('submitted');
  });
});

describe('reduceAgentEvents: how runs end', () => {
  const start = numbered([
    { type: 'run.start', model: 'm' },
    { type: 'user.message', message: { role: 'user', content: 'go' } },
    { type: 'step.start', step: 1 },
    { type: 'text.delta', step: 1, delta: 'Working' },
    { type: 'tool.input.start', step: 1, toolCallId: 'a', toolName: 'search', displayName: 'Search' },
    { type: 'tool.input.start', step: 1, toolCallId: 'b', toolName: 'search', displayName: 'Search' },
    { type: 'tool.call', step: 1, toolCallId: 'b', toolName: 'search', displayName: 'Search', args: {} },
    { type: 'tool.input.start', step: 1, toolCallId: 'c', toolName: 'search', displayName: 'Search' },
    { type: 'tool.call', step: 1, toolCallId: 'c', toolName: 'search', displayName: 'Search', args: {} },
    { type: 'tool.done', toolCallId: 'c', toolName: 'search', result: 1 },
  ]);

  it('aborted: status aborted, unfinished tool calls cancelled, finished ones kept', () => {
    const state = reduceAll([...start, ...numbered([{ type: 'run.done', finishReason: 'aborted', usage: usage(1, 1), text: 'Working', steps: 1 }], 'run_1', start.length)]);
    expect(state.status).toBe('aborted');
    expect(state.finishReason).toBe('aborted');
    expect(toolParts(state).map((part) => part.state)).toEqual(['cancelled', 'cancelled', 'done']);
  });

  it('error: status error with the error, unfinished calls cancelled', () => {
    const state = reduceAll([...start, ...numbered([{ type: 'error', error: { code: 'LOUSHO_PROVIDER_ERROR', message: 'The provider failed.' } }], 'run_1', start.length)]);
    expect(state.status).toBe('error');
    expect(state.error).toEqual({ code: 'LOUSHO_PROVIDER_ERROR', message: 'The provider failed.' });
    expect(state.finishReason).toBeNull();
    expect(toolParts(state).map((part) => part.state)).toEqual(['cancelled', 'cancelled', 'done']);
  });

  it('tool.progress updates the running part and is kept when it finishes', () => {
    const events = numbered([
      { type: 'run.start', model: 'm' },
      { type: 'tool.call', step: 1, toolCallId: 't', toolName: 'crawl', displayName: 'Crawl', args: {} },
      { type: 'tool.progress', toolCallId: 't', toolName: 'crawl', progress: { done: 1, total: 3 } },
      { type: 'tool.progress', toolCallId: 't', toolName: 'crawl', progress: { done: 2, total: 3 } },
      { type: 'tool.done', toolCallId: 't', toolName: 'crawl', result: 'ok' },
    ]);
    expect(toolParts(reduceAll(events.slice(0, 4)))[0]).toMatchObject({ state: 'running', progress: { done: 2, total: 3 } });
    expect(toolParts(reduceAll(events))[0]).toMatchObject({ state: 'done', progress: { done: 2, total: 3 }, result: 'ok' });
  });

  it('maps tool error kinds: cancelled and not-run → cancelled, rejected → rejected, others → error', () => {
    const kinds = ['cancelled', 'not-run', 'rejected', 'execution', 'denied', 'validation'] as const;
    const events = numbered([
      { type: 'run.start', model: 'm' },
      ...kinds.map((kind) => ({ type: 'tool.error' as const, toolCallId: kind, toolName: 't', error: { error: 'E', toolName: 't', message: kind, kind } })),
    ]);
    expect(toolParts(reduceAll(events)).map((part) => part.state)).toEqual(['cancelled', 'cancelled', 'rejected', 'error', 'error', 'error']);
  });

  it('a new run after an error clears the error and starts a new assistant message', () => {
    const failed = reduceAll([...start, ...numbered([{ type: 'error', error: { code: 'X', message: 'x' } }], 'run_1', start.length)]);
    const next = numbered(
      [
        { type: 'run.start', model: 'm' },
        { type: 'step.start', step: 1 },
        { type: 'text.delta', step: 1, delta: 'Again' },
      ],
      'run_2',
      failed.lastSeq,
    );
    const state = reduceAll(next, failed);
    expect(state).toMatchObject({ status: 'streaming', error: null, finishReason: null, usage: null, runId: 'run_2' });
    expect(state.messages).toHaveLength(3);
    expect(state.messages[2]).toEqual({ id: 'm2', role: 'assistant', parts: [{ type: 'text', text: 'Again' }] });
  });
});

describe('reduceAgentEvents: text and reasoning parts', () => {
  it('a new step, a tool part or a change of kind starts a new part; otherwise deltas join', () => {
    const state = reduceAll(
      numbered([
        { type: 'run.start', model: 'm' },
        { type: 'step.start', step: 1 },
        { type: 'reasoning.delta', step: 1, delta: 'Think' },
        { type: 'reasoning.delta', step: 1, delta: 'ing' },
        { type: 'text.delta', step: 1, delta: 'A' },
        { type: 'text.delta', step: 1, delta: 'B' },
        { type: 'tool.call', step: 1, toolCallId: 't', toolName: 'x', displayName: 'X', args: {} },
        { type: 'text.delta', step: 1, delta: 'C' },
        { type: 'step.start', step: 2 },
        { type: 'text.delta', step: 2, delta: 'D' },
        { type: 'text.delta', step: 2, delta: '中😀' },
      ]),
    );
    expect(state.messages).toHaveLength(1);
    expect(state.messages[0]!.parts.map((part) => (part.type === 'tool' ? 'tool' : `${part.type}:${(part as { text: string }).text}`))).toEqual([
      'reasoning:Thinking',
      'text:AB',
      'tool',
      'text:C',
      'text:D中😀',
    ]);
  });

  it('user images and files become parts of the user message', () => {
    const state = reduceAll(
      numbered([
        {
          type: 'user.message',
          message: {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image', image: 'https://example.com/cat.png', mimeType: 'image/png' },
              { type: 'file', data: 'aGk=', mimeType: 'text/plain', filename: 'hi.txt' },
            ],
          },
        },
      ]),
    );
    expect(state.messages[0]!.parts).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image', image: 'https://example.com/cat.png', mimeType: 'image/png' },
      { type: 'file', data: 'aGk=', mimeType: 'text/plain', filename: 'hi.txt' },
    ]);
  });
});

describe('reduceAgentEvents: rules', () => {
  const events = numbered(pausedTurn());
  const state = reduceAll(events.slice(0, 5));

  it('ignores unknown event types (same state object)', () => {
    const unknown = { type: 'compaction.start', seq: 99, runId: 'run_1' } as unknown as AgentStreamEvent;
    expect(reduceAgentEvents(state, unknown)).toBe(state);
  });

  it('a compaction.done is a divider part of its own that says what was done, never joined, a second one a second divider', () => {
    const done = (seq: number, pruned: number, summarized: number) => ({ type: 'compaction.done', seq, runId: 'run_1', step: 2, tokensBefore: 3900, tokensAfter: 1200, pruned, summarized }) as const;
    const next = reduceAll([{ type: 'step.start', seq: 6, runId: 'run_1', step: 2 }, done(7, 3, 0), done(8, 0, 12), { type: 'text.delta', seq: 9, runId: 'run_1', step: 2, delta: 'Hi' }], state);
    const parts = next.messages.at(-1)!.parts;
    expect(parts.slice(1)).toStrictEqual([
      { type: 'compaction', pruned: 3, summarized: 0 },
      { type: 'compaction', pruned: 0, summarized: 12 },
      { type: 'text', text: 'Hi' },
    ]);
    // The same after JSON (no key holding undefined or NaN).
    expect(JSON.parse(JSON.stringify(parts))).toStrictEqual(parts);
  });

  it('a compaction.done that changed nothing adds no divider (same state object)', () => {
    const started = reduceAll([{ type: 'step.start', seq: 6, runId: 'run_1', step: 2 }], state);
    const noop = { type: 'compaction.done', seq: 7, runId: 'run_1', step: 2, tokensBefore: 3900, tokensAfter: 3900, pruned: 0, summarized: 0 } as const;
    expect(reduceAgentEvents(started, noop)).toBe(started);
  });

  it('ignores an event whose seq was already applied (same state object, no duplicated text)', () => {
    for (const event of events.slice(0, 5)) expect(reduceAgentEvents(state, event)).toBe(state);
    const replayed = reduceAll(events.slice(0, 5), state);
    expect(replayed).toBe(state);
    expect(replayed.messages[1]!.parts).toEqual([{ type: 'text', text: "Sure, I'll send it." }]);
  });

  it('never changes the state it is given', () => {
    const before = JSON.stringify(state);
    const messages = state.messages;
    reduceAll(events.slice(5), state);
    expect(JSON.stringify(state)).toBe(before);
    expect(state.messages).toBe(messages);
  });

  it('a text delta replaces only the last message and its last part', () => {
    const next = reduceAgentEvents(state, { type: 'text.delta', seq: 6, runId: 'run_1', step: 1, delta: '!' });
    expect(next.messages).not.toBe(state.messages);
    expect(next.messages[0]).toBe(state.messages[0]);
    expect(next.messages[1]).not.toBe(state.messages[1]);
    expect(next.messages[1]!.parts[0]).toEqual({ type: 'text', text: "Sure, I'll send it.!" });
  });

  it('an event that touches no message keeps the messages array itself', () => {
    const next = reduceAgentEvents(state, { type: 'step.done', seq: 6, runId: 'run_1', step: 1, finishReason: 'stop', usage: usage(1, 2), stepUsage: { step: 1, model: 'm', usage: usage(1, 2), estimated: false } });
    expect(next).not.toBe(state);
    expect(next.messages).toBe(state.messages);
    expect(next.usage).toEqual(usage(1, 2));
  });

  it('a tool result changes only its own part', () => {
    const withTools = reduceAll(
      numbered([
        { type: 'run.start', model: 'm' },
        { type: 'text.delta', step: 1, delta: 'hi' },
        { type: 'tool.call', step: 1, toolCallId: 'a', toolName: 'x', displayName: 'X', args: 1 },
        { type: 'tool.call', step: 1, toolCallId: 'b', toolName: 'x', displayName: 'X', args: 2 },
      ]),
    );
    const next = reduceAgentEvents(withTools, { type: 'tool.done', seq: 5, runId: 'run_1', toolCallId: 'a', toolName: 'x', result: 'ok' });
    const [text, a, b] = next.messages[0]!.parts;
    expect(text).toBe(withTools.messages[0]!.parts[0]);
    expect(a).not.toBe(withTools.messages[0]!.parts[1]);
    expect(a).toMatchObject({ state: 'done', result: 'ok' });
    expect(b).toBe(withTools.messages[0]!.parts[2]);
  });

  it('continues from a state that went through JSON (e.g. restored on a server), even mid-text', () => {
    for (const cut of [4, 5, 8]) {
      const before = reduceAll(events.slice(0, cut));
      const restored = JSON.parse(JSON.stringify(before)) as AgentUIState;
      expect(reduceAll(events.slice(cut), restored)).toEqual(reduceAll(events));
    }
  });
});

describe('reduceAgentEvents: long transcripts', () => {
  function longState(count: number): AgentUIState {
    const events: AgentStreamEvent[] = [];
    let seq = 0;
    for (let i = 0; i < count / 2; i++) {
      events.push({ type: 'run.start', seq: ++seq, runId: `r${i}`, model: 'm' });
      events.push({ type: 'user.message', seq: ++seq, runId: `r${i}`, message: { role: 'user', content: `q${i}` } });
      events.push({ type: 'text.delta', seq: ++seq, runId: `r${i}`, step: 1, delta: `a${i}` });
      events.push({ type: 'run.done', seq: ++seq, runId: `r${i}`, finishReason: 'stop', usage: usage(1, 1), text: `a${i}`, steps: 1 });
    }
    return reduceAll(events);
  }

  it('messages of a long transcript behave like a plain array property (spread, JSON, structuredClone, equality)', () => {
    const state = longState(300);
    expect(state.messages).toHaveLength(300);
    expect(Array.isArray(state.messages)).toBe(true);
    expect(Object.keys(state)).toContain('messages');
    expect({ ...state }.messages).toBe(state.messages);
    expect((JSON.parse(JSON.stringify(state)) as AgentUIState).messages).toHaveLength(300);
    expect(structuredClone(state).messages[299]).toEqual(state.messages[299]);
    expect(state.messages).toBe(state.messages); // built once, then cached
    expect(state).toEqual(longState(300));
    expect(state).not.toEqual(longState(302));
  });

  it('a delta at the end of a long transcript keeps every earlier message', () => {
    const state = longState(300);
    const next = reduceAgentEvents(state, { type: 'text.delta', seq: state.lastSeq + 1, runId: 'r149', step: 1, delta: '!' });
    expect(next.messages).toHaveLength(300);
    for (let i = 0; i < 299; i++) expect(next.messages[i]).toBe(state.messages[i]);
    expect(next.messages[299]!.parts).toEqual([{ type: 'text', text: 'a149!' }]);
    // The older state still sees its own last message.
    expect(state.messages[299]!.parts).toEqual([{ type: 'text', text: 'a149' }]);
  });

  it('branching from an older state does not disturb the newer one', () => {
    const base = longState(200);
    const a = reduceAll(numbered([{ type: 'user.message', message: { role: 'user', content: 'A' } }], 'x', base.lastSeq), base);
    const b = reduceAll(numbered([{ type: 'user.message', message: { role: 'user', content: 'B' } }], 'x', base.lastSeq), base);
    expect(a.messages[200]!.parts).toEqual([{ type: 'text', text: 'A' }]);
    expect(b.messages[200]!.parts).toEqual([{ type: 'text', text: 'B' }]);
    expect(base.messages).toHaveLength(200);
  });
});

describe('flow events', () => {
  const flowParts = (state: AgentUIState) => state.messages.flatMap((message) => message.parts).filter((part) => part.type === 'flow-node');
  const start = (toolCallId: string, kind: string) => ({ type: 'flow.node.start' as const, toolCallId, toolName: toolCallId.split('#')[0]!, displayName: toolCallId.toUpperCase(), kind });

  it('each node pass is one part in the reply: running, then done with its output; a oneOf part carries the branch it took', () => {
    const state = reduceAll(
      numbered([
        { type: 'run.start', model: 'flow:triage' },
        { type: 'user.message', message: { role: 'user', content: 'refund please' } },
        start('classify', 'agent'),
        { type: 'flow.node.done', toolCallId: 'classify', toolName: 'classify', result: 'refund' },
        start('route', 'oneOf'),
        { type: 'flow.branch', toolCallId: 'route', toolName: 'route', branch: 'refund' },
        { type: 'flow.node.done', toolCallId: 'route', toolName: 'route', result: 'refund' },
        start('refund', 'agent'),
      ]),
    );
    expect(state.status).toBe('streaming');
    expect(state.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(flowParts(state)).toEqual([
      { type: 'flow-node', toolCallId: 'classify', toolName: 'classify', displayName: 'CLASSIFY', kind: 'agent', state: 'done', result: 'refund' },
      { type: 'flow-node', toolCallId: 'route', toolName: 'route', displayName: 'ROUTE', kind: 'oneOf', state: 'done', result: 'refund' },
      { type: 'flow-node', toolCallId: 'refund', toolName: 'refund', displayName: 'REFUND', kind: 'agent', state: 'running' },
    ]);
  });

  it("an agent node's nested events build its own run state in the part", () => {
    const state = reduceAll(
      numbered([
        { type: 'run.start', model: 'flow:f' },
        start('draft', 'agent'),
        { type: 'flow.node.event', toolCallId: 'draft', event: { type: 'run.start', model: 'm' } },
        { type: 'flow.node.event', toolCallId: 'draft', event: { type: 'user.message', message: { role: 'user', content: 'Write it' } } },
        { type: 'flow.node.event', toolCallId: 'draft', event: { type: 'text.delta', step: 1, delta: 'Dear ' } },
        { type: 'flow.node.event', toolCallId: 'draft', event: { type: 'text.delta', step: 1, delta: 'Ada' } },
      ]),
    );
    const [draft] = flowParts(state);
    expect(draft!.run).toMatchObject({ status: 'streaming', messages: [{ role: 'user' }, { role: 'assistant', parts: [{ type: 'text', text: 'Dear Ada' }] }] });
    // The flow's own reply has no text: the agent's words stay in the node's part.
    expect(state.messages[0]!.parts).toEqual([draft]);
  });

  it('an approval node pauses on its part; the decision and a stop reach node parts like tool parts', () => {
    const approval = { approvalId: 'appr_1', toolCallId: 'review', toolName: 'review', displayName: 'Send it?', args: 'Dear Ada', kind: 'tool' as const };
    let state = reduceAll(
      numbered([
        { type: 'run.start', model: 'flow:f' },
        start('review', 'approval'),
        { type: 'approval.requested', approval },
        { type: 'run.done', finishReason: 'awaiting-approval', usage: usage(0, 0), text: '', steps: 1, approvalId: 'appr_1' },
      ]),
    );
    expect(state.pendingApproval).toEqual(approval);
    expect(flowParts(state)).toEqual([expect.objectContaining({ toolCallId: 'review', state: 'awaiting-approval', args: 'Dear Ada', approval: { approvalId: 'appr_1', kind: 'tool' } })]);
    state = reduceAll(
      numbered(
        [
          { type: 'run.start', model: 'flow:f', continuation: true },
          { type: 'approval.resolved', approvalId: 'appr_1', toolCallId: 'review', approved: true },
          { type: 'flow.node.done', toolCallId: 'review', toolName: 'review', result: { approved: true } },
          start('send', 'step'),
          { type: 'run.done', finishReason: 'aborted', usage: usage(0, 0), text: '', steps: 2 },
        ],
        'run_1',
        state.lastSeq,
      ),
      state,
    );
    expect(flowParts(state).map((part) => [part.toolCallId, part.state])).toEqual([
      ['review', 'done'],
      ['send', 'cancelled'],
    ]);
    expect(state.status).toBe('aborted');
  });

  it('a failed node shows its error', () => {
    const state = reduceAll(
      numbered([
        { type: 'run.start', model: 'flow:f' },
        start('parse', 'step'),
        { type: 'flow.node.error', toolCallId: 'parse', toolName: 'parse', error: { code: 'LOUSHO_FLOW_NODE_FAILED', message: "Node 'parse' failed: boom" } },
        { type: 'error', error: { code: 'LOUSHO_FLOW_NODE_FAILED', message: "Node 'parse' failed: boom" } },
      ]),
    );
    expect(flowParts(state)).toEqual([expect.objectContaining({ state: 'error', error: { code: 'LOUSHO_FLOW_NODE_FAILED', message: "Node 'parse' failed: boom" } })]);
    expect(state.status).toBe('error');
  });
});

describe('reduceAgentEvents: a run a guardrail ended', () => {
  const base = { runId: 'run_g', usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, estimated: false, modelCalls: 0 } };
  it('keeps the guardrail of run.done until the next run starts', () => {
    const guardrail = { name: 'command', stage: 'tool' as const, reason: "'rm -rf /' is denied." };
    let state = reduceAgentEvents(undefined, { seq: 1, runId: 'run_g', type: 'run.start', model: 'm' });
    state = reduceAgentEvents(state, { seq: 2, type: 'run.done', finishReason: 'guardrail', text: '', steps: 1, guardrail, ...base } as never);
    expect(state).toMatchObject({ status: 'idle', finishReason: 'guardrail', guardrail });
    // A UI state that went through JSON (a saved session) keeps it.
    expect(reduceAgentEvents(JSON.parse(JSON.stringify(state)), { seq: 3, runId: 'run_g', type: 'step.start', step: 2 }).guardrail).toEqual(guardrail);
    state = reduceAgentEvents(state, { seq: 3, runId: 'run_h', type: 'run.start', model: 'm' });
    expect(state.guardrail).toBeNull();
    state = reduceAgentEvents(state, { seq: 4, type: 'run.done', finishReason: 'stop', text: 'ok', steps: 1, ...base } as never);
    expect(state).toMatchObject({ finishReason: 'stop', guardrail: null });
  });
});
