import { createAgentClient } from '@lousho/client';
import {
  createAgentHandler,
  memoryStore,
  parseEventStream,
  reduceAgentEvents,
  type AgentStreamEvent,
  type AgentUIState,
  type UIFlowNodePart,
} from '@lousho/core';
import { describe, expect, it } from 'vitest';
import { createFlowAgent, FlowBuilder } from '../../src/index.js';
import { passOf, passOfEvent, scriptedAgent } from './helpers.js';

/** The triage flow of the demo, on scripted agents. */
function triage() {
  const classifier = scriptedAgent((prompt) => (prompt.includes('refund') ? 'refund' : 'question'));
  const writer = scriptedAgent((prompt) => `Dear customer, ${prompt.toLowerCase()}`);
  const flow = FlowBuilder.create<{ message: string }>('triage')
    .agent('classify', { agent: classifier, input: 'Classify: {{input.message}}', label: 'Classify' })
    .oneOf('route', { branches: [{ when: "classify === 'refund'", then: 'refund' }], otherwise: 'answer' })
    .agent('refund', { agent: writer, input: 'Refund for: {{input.message}}', after: 'route' })
    .agent('answer', { agent: writer, input: 'Answer: {{input.message}}', after: 'route' })
    .approval('review', { title: 'Send this reply?', data: '{{refund}}{{answer}}', after: { any: ['refund', 'answer'] } })
    .step('send', (vars) => ({ sent: true, text: vars.refund ?? vars.answer }))
    .build();
  return createFlowAgent(flow, {
    store: memoryStore(),
    input: (input) => ({ message: typeof input === 'string' ? input : '' }),
    reply: (result) => (result.outputs.send ? `Sent: ${result.outputs.send.text}` : undefined),
  });
}

const nodeParts = (state: AgentUIState): UIFlowNodePart[] =>
  state.messages.flatMap((m) => m.parts.filter((p): p is UIFlowNodePart => p.type === 'flow-node'));

async function read(response: Response): Promise<AgentStreamEvent[]> {
  const events: AgentStreamEvent[] = [];
  for await (const event of parseEventStream(response.body!)) events.push(event);
  return events;
}

const post = (path: string, body: unknown) =>
  new Request(`http://test${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('a flow served like an agent', () => {
  it('createAgentHandler serves it: the run streams flow events, the approval node is decided through the approvals route', async () => {
    const handle = createAgentHandler(triage());
    const first = await read(await handle(post('/sessions/t1/messages', { input: 'I want a refund' })));
    expect(first[0]).toMatchObject({ type: 'run.start', model: 'flow:triage' });
    expect(first[1]).toMatchObject({ type: 'user.message' });
    expect(first.filter((e) => e.type === 'flow.node.start').map(passOfEvent)).toEqual(['classify', 'route', 'refund', 'review']);
    expect(first.find((e) => e.type === 'flow.branch')).toMatchObject({ toolName: 'route', branch: 'refund' });
    const requested = first.find((e) => e.type === 'approval.requested') as Extract<AgentStreamEvent, { type: 'approval.requested' }>;
    expect(requested.approval).toMatchObject({ toolCallId: `${requested.runId}:review`, displayName: 'Send this reply?', args: 'Dear customer, refund for: i want a refund' });
    expect(first.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'awaiting-approval', approvalId: requested.approval.approvalId });

    // The session as a reloaded page reads it: the node cards, the approval.
    const session = (await (await handle(new Request('http://test/sessions/t1'))).json()) as { status: string; state: AgentUIState };
    expect(session.status).toBe('awaiting-approval');
    expect(nodeParts(session.state).map((p) => [passOf(p.toolCallId, requested.runId), p.kind, p.state])).toEqual([
      ['classify', 'agent', 'done'],
      ['route', 'oneOf', 'done'],
      ['refund', 'agent', 'done'],
      ['review', 'approval', 'awaiting-approval'],
    ]);
    expect(session.state.pendingApproval?.approvalId).toBe(requested.approval.approvalId);

    const second = await read(await handle(post(`/sessions/t1/approvals/${encodeURIComponent(requested.approval.approvalId)}`, { approved: true })));
    expect(second[0]).toMatchObject({ type: 'run.start', continuation: true });
    expect(second[1]).toMatchObject({ type: 'approval.resolved', approved: true, toolCallId: `${requested.runId}:review` });
    // The reply streams as text (over lousho.v2, run.done does not repeat it).
    expect(second.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
    expect(second.flatMap((e) => (e.type === 'text.delta' ? [e.delta] : [])).join('')).toBe('Sent: Dear customer, refund for: i want a refund');
    expect([...first, ...second].map((e) => e.seq)).toEqual([...first, ...second].map((_, i) => i + 1));

    // An answer is the wrong decision for a flow's approval; and it is decided now.
    const again = await handle(post(`/sessions/t1/approvals/${encodeURIComponent(requested.approval.approvalId)}`, { approved: true }));
    expect(again.status).toBe(409);
  });

  it('reduceAgentEvents turns the flow events into node parts, with each agent node run nested', async () => {
    const agent = triage();
    let state: AgentUIState | undefined;
    const run = agent.stream('Where is my parcel?', { sessionId: 'r1' });
    for await (const event of run) state = reduceAgentEvents(state, event);
    expect(state!.status).toBe('awaiting-approval');
    const [classify, route, answer, review] = nodeParts(state!);
    expect(classify).toMatchObject({ type: 'flow-node', kind: 'agent', toolName: 'classify', displayName: 'Classify', state: 'done', result: 'question' });
    expect(classify!.run?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(classify!.run?.status).toBe('idle');
    expect(route).toMatchObject({ kind: 'oneOf', result: 'answer', state: 'done' });
    expect(answer).toMatchObject({ kind: 'agent', state: 'done', result: 'Dear customer, answer: where is my parcel?' });
    expect(answer!.run?.messages.at(-1)?.parts).toEqual([{ type: 'text', text: 'Dear customer, answer: where is my parcel?' }]);
    expect(review).toMatchObject({ kind: 'approval', state: 'awaiting-approval', approval: { approvalId: state!.pendingApproval!.approvalId, kind: 'tool' } });
    // The whole run sits in one assistant message after the user's.
    expect(state!.messages.map((m) => m.role)).toEqual(['user', 'assistant']);

    const rejected = await agent.approvals.resolveStream({ id: state!.pendingApproval!.approvalId, approved: false, note: 'too curt' });
    for await (const event of rejected) state = reduceAgentEvents(state, event);
    expect(state!.status).toBe('idle');
    expect(nodeParts(state!).at(-1)).toMatchObject({ toolCallId: `${state!.runId}:review`, state: 'done', result: { approved: false, note: 'too curt' }, approval: { approved: false, note: 'too curt' } });
  });

  it('the framework-neutral client shows a flow in process, approve included', async () => {
    const client = createAgentClient({ agent: triage() }, { throttleMs: 0 });
    expect(await client.send('refund my order please')).toMatchObject({ ok: true, finishReason: 'awaiting-approval' });
    expect(client.getSnapshot().pendingApproval?.toolName).toBe('review');
    expect(await client.approve()).toMatchObject({ ok: true, finishReason: 'stop' });
    const state = client.getSnapshot();
    expect(nodeParts(state).map((p) => `${p.toolName}:${p.state}`)).toEqual(['classify:done', 'route:done', 'refund:done', 'review:done', 'send:done']);
    expect(state.messages.at(-1)?.parts.at(-1)).toEqual({ type: 'text', text: 'Sent: Dear customer, refund for: refund my order please' });
    client.destroy();
  });

  it('a stop ends the run as aborted and marks running nodes cancelled', async () => {
    const slow = scriptedAgent(() => 'never mind', { delayMs: 200 });
    const flow = FlowBuilder.create('slow').agent('think', { agent: slow, input: 'x' }).build();
    const served = createFlowAgent(flow, { store: memoryStore() });
    const client = createAgentClient({ agent: served }, { throttleMs: 0 });
    const sending = client.send('go');
    await new Promise((r) => setTimeout(r, 50));
    expect(await client.stop()).toMatchObject({ ok: true, finishReason: 'aborted' });
    expect(await sending).toMatchObject({ ok: true, finishReason: 'aborted' });
    expect(nodeParts(client.getSnapshot())).toEqual([expect.objectContaining({ toolName: 'think', state: 'cancelled' })]);
    client.destroy();
  });
});
